/*
 * examples/lu.c - LU factorization with partial pivoting and a solve on a
 * P x Q process grid, as ScaLAPACK's PDGETRF and PDGETRS do it (LAWN 73
 * section 2.2), communicating only through the BLACS (calls the reference
 * BLACS has too) and computing with the BLAS.
 *
 *   mpirun -np 4 build/examples/lu --n 2000 --nb 64 --p 2 --q 2 --row-top ' ' --col-top ' '
 *
 * A (N x N, entries in [-0.5, 0.5)) is distributed block-cyclically in
 * NB x NB blocks (examples/distrib.h); b rides along as column N of [A b].
 * For each block column: (1) its process column factors the panel column by
 * column: DGAMX2D with its location finds the pivot, IGEBS2D tells its row,
 * point-to-point swaps the rows (both sides send, then receive: sends are
 * locally blocking), DGEBS2D sends the pivot row down, DGER updates; (2) the
 * pivots and the panel go along the process rows (TOP --row-top), and every
 * process swaps the same rows right of the panel; (3) the diagonal process
 * row solves for the block row of U (DTRSM) and sends it down the process
 * columns (TOP --col-top); (4) DGEMM updates the trailing matrix.  Then
 * back substitution, block by block, and HPL's check on the rebuilt A:
 *
 *   residual = ||A x - b||_inf / (eps (||A||_inf ||x||_inf + ||b||_inf) N) < 16
 *
 * The last line: "lu: N=... NB=... grid=PxQ row-top=' ' col-top=' '
 * time=1.234s gflops=4.56 residual=0.012 PASSED" (exit status non-zero on
 * FAILED; eps is LAPACK's DLAMCH('E')).  The HPL-style variant (look-ahead,
 * modified rings, a fused pivot search) is bench/hpl_lu.c.
 */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"
#include "distrib.h"

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
    int n, nb;
    int mloc, nloc, lda; /* local rows, local columns, leading dimension */
    int ncols;           /* local columns of [A b]: nloc, and b's on the process column of column N */
    double *a;           /* local part of [A b], column-major */
    double *lw, *uw;     /* workspaces: the panel (L), the block row of U */
    char rowtop[2], coltop[2];
} lu_t;

static double uniform(uint64_t seed, uint64_t i, uint64_t j)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + j * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

static double *at(const lu_t *L, int lr, int lc) { return L->a + lr + (size_t)lc * L->lda; }
static int lrow(const lu_t *L, int g) { return bc_first_local(g, L->nb, L->myrow, 0, L->nprow); }
static int lcol(const lu_t *L, int g) { return bc_first_local(g, L->nb, L->mycol, 0, L->npcol); }
static int rowner(const lu_t *L, int g) { return bc_g2p(g, L->nb, 0, L->nprow); }
static int cowner(const lu_t *L, int g) { return bc_g2p(g, L->nb, 0, L->npcol); }
static int grow(const lu_t *L, int l) { return bc_l2g(l, L->nb, L->myrow, 0, L->nprow); }

static void generate(lu_t *L, uint64_t seed, double *b)
{
    for (int c = 0; c < L->nloc; c++)
        for (int r = 0; r < L->mloc; r++)
            *at(L, r, c) =
                uniform(seed, (uint64_t)grow(L, r), (uint64_t)bc_l2g(c, L->nb, L->mycol, 0, L->npcol));
    for (int i = 0; i < L->n; i++)
        b[i] = uniform(seed, (uint64_t)i, (uint64_t)L->n);
    for (int c = L->nloc; c < L->ncols; c++) /* b as column N of [A b] */
        for (int r = 0; r < L->mloc; r++)
            *at(L, r, c) = b[grow(L, r)];
}

/* Swaps global rows g1 and g2 over ncols local columns from c0, within my
 * process column: by point-to-point where they lie on two process rows. */
static void swap_rows(lu_t *L, int g1, int g2, int c0, int ncols)
{
    if (g1 == g2 || ncols <= 0)
        return;
    int r1 = rowner(L, g1), r2 = rowner(L, g2);
    int l1 = bc_g2l(g1, L->nb, L->nprow), l2 = bc_g2l(g2, L->nb, L->nprow);
    if (r1 == L->myrow && r2 == L->myrow) {
        cblas_dswap(ncols, at(L, l1, c0), L->lda, at(L, l2, c0), L->lda);
    } else if (r1 == L->myrow || r2 == L->myrow) {
        int mine = r1 == L->myrow ? l1 : l2, other = r1 == L->myrow ? r2 : r1;
        Cdgesd2d(L->ctxt, 1, ncols, at(L, mine, c0), L->lda, other, L->mycol);
        Cdgerv2d(L->ctxt, 1, ncols, at(L, mine, c0), L->lda, other, L->mycol);
    }
}

/* Step 1, on the process column owning block column j: ipiv[i] the row
 * swapped with row j + i.  Returns 1 if a pivot is zero. */
static int factor_panel(lu_t *L, int j, int jb, int *ipiv)
{
    int c0 = lcol(L, j);
    for (int i = 0; i < jb; i++) {
        int g = j + i, r0 = lrow(L, g), c = c0 + i, best = -1;
        double v = 0.0; /* my largest |entry| at or below row g, with its sign */
        for (int r = r0; r < L->mloc; r++)
            if (best < 0 || fabs(*at(L, r, c)) > fabs(v))
                v = *at(L, r, c), best = r;
        int prow = -1, pcol = -1, pg = best >= 0 ? grow(L, best) : -1;
        Cdgamx2d(L->ctxt, "Col", L->coltop, 1, 1, &v, 1, &prow, &pcol, 1, -1, -1);
        if (v == 0.0)
            return 1;
        if (L->myrow == prow) /* the pivot's owner tells its row */
            Cigebs2d(L->ctxt, "Col", L->coltop, 1, 1, &pg, 1);
        else
            Cigebr2d(L->ctxt, "Col", L->coltop, 1, 1, &pg, 1, prow, L->mycol);
        ipiv[i] = pg;
        swap_rows(L, g, pg, c0, jb);
        /* the pivot row right of column g, down the process column */
        int rest = jb - i - 1, gr = rowner(L, g);
        double *row = L->uw;
        if (L->myrow == gr) {
            cblas_dcopy(rest, at(L, bc_g2l(g, L->nb, L->nprow), c + 1), L->lda, row, 1);
            if (rest > 0)
                Cdgebs2d(L->ctxt, "Col", L->coltop, 1, rest, row, 1);
        } else if (rest > 0) {
            Cdgebr2d(L->ctxt, "Col", L->coltop, 1, rest, row, 1, gr, L->mycol);
        }
        int below = lrow(L, g + 1);
        cblas_dscal(L->mloc - below, 1.0 / v, at(L, below, c), 1);
        if (rest > 0 && L->mloc > below)
            cblas_dger(CblasColMajor, L->mloc - below, rest, -1.0, at(L, below, c), 1, row, 1,
                       at(L, below, c + 1), L->lda);
    }
    return 0;
}

/* Steps 1-4 for every block column.  Returns 1 if A is singular. */
static int factor(lu_t *L, int *ipiv)
{
    for (int j = 0; j < L->n; j += L->nb) {
        int jb = L->n - j < L->nb ? L->n - j : L->nb, kr = rowner(L, j), kc = cowner(L, j);
        int r0 = lrow(L, j), mp = L->mloc - r0, right = lcol(L, j + jb), nr = L->ncols - right;
        int status = 0;
        if (L->mycol == kc)
            status = factor_panel(L, j, jb, ipiv + j);
        /* 2. along the rows: whether it failed, the pivots, the panel */
        Cigamx2d(L->ctxt, "All", " ", 1, 1, &status, 1, NULL, NULL, -1, -1, -1);
        if (status)
            return 1;
        if (L->mycol == kc) {
            Cigebs2d(L->ctxt, "Row", L->rowtop, jb, 1, ipiv + j, jb);
            if (mp > 0)
                Cdgebs2d(L->ctxt, "Row", L->rowtop, mp, jb, at(L, r0, lcol(L, j)), L->lda);
            if (mp > 0)
                for (int c = 0; c < jb; c++)
                    memcpy(L->lw + (size_t)c * L->lda, at(L, r0, lcol(L, j) + c), (size_t)mp * sizeof *L->lw);
        } else {
            Cigebr2d(L->ctxt, "Row", L->rowtop, jb, 1, ipiv + j, jb, L->myrow, kc);
            if (mp > 0)
                Cdgebr2d(L->ctxt, "Row", L->rowtop, mp, jb, L->lw, L->lda, L->myrow, kc);
        }
        for (int i = 0; i < jb; i++)
            swap_rows(L, j + i, ipiv[j + i], right, nr);
        if (nr <= 0)
            continue;
        /* 3. the block row of U, down the columns */
        if (L->myrow == kr) {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, nr, 1.0, L->lw,
                        L->lda, at(L, r0, right), L->lda);
            Cdgebs2d(L->ctxt, "Col", L->coltop, jb, nr, at(L, r0, right), L->lda);
            for (int c = 0; c < nr; c++)
                memcpy(L->uw + (size_t)c * jb, at(L, r0, right + c), (size_t)jb * sizeof *L->uw);
        } else {
            Cdgebr2d(L->ctxt, "Col", L->coltop, jb, nr, L->uw, jb, kr, L->mycol);
        }
        /* 4. the trailing matrix */
        int below = lrow(L, j + jb), lw0 = below - r0;
        if (L->mloc > below)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, L->mloc - below, nr, jb, -1.0, L->lw + lw0,
                        L->lda, L->uw, jb, 1.0, at(L, below, right), L->lda);
    }
    return 0;
}

/* x := b's column of the factored [A b] (L^-1 P b), on every process: a
 * sum of one nonzero term per entry, exact in any order. */
static void column_b(lu_t *L, double *x)
{
    memset(x, 0, (size_t)L->n * sizeof *x);
    for (int r = 0; r < L->mloc && L->ncols > L->nloc; r++)
        x[grow(L, r)] = *at(L, r, L->nloc);
    Cdgsum2d(L->ctxt, "All", " ", L->n, 1, x, L->n, -1, -1);
}

/* x := the solution of U x = x, x replicated everywhere: from the last
 * block up, the owner row of each block sums its part of the products with
 * the entries solved so far, the diagonal owner solves the small triangle
 * and broadcasts it. */
static void substitute(lu_t *L, double *x, double *s, double *xloc)
{
    for (int k = (L->n - 1) / L->nb * L->nb; k >= 0; k -= L->nb) {
        int kb = L->n - k < L->nb ? L->n - k : L->nb, kr = rowner(L, k), kc = cowner(L, k);
        if (L->myrow == kr) {
            int c0 = lcol(L, k + kb), i0 = bc_g2l(k, L->nb, L->nprow);
            for (int c = c0; c < L->nloc; c++)
                xloc[c - c0] = x[bc_l2g(c, L->nb, L->mycol, 0, L->npcol)];
            memset(s, 0, (size_t)kb * sizeof *s);
            if (L->nloc > c0)
                cblas_dgemv(CblasColMajor, CblasNoTrans, kb, L->nloc - c0, 1.0, at(L, i0, c0), L->lda, xloc,
                            1, 0.0, s, 1);
            Cdgsum2d(L->ctxt, "Row", " ", kb, 1, s, kb, kr, kc);
            if (L->mycol == kc) {
                for (int i = 0; i < kb; i++)
                    x[k + i] -= s[i];
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, kb,
                            at(L, i0, bc_g2l(k, L->nb, L->npcol)), L->lda, x + k, 1);
                Cdgebs2d(L->ctxt, "All", " ", kb, 1, x + k, kb);
            }
        }
        if (L->myrow != kr || L->mycol != kc)
            Cdgebr2d(L->ctxt, "All", " ", kb, 1, x + k, kb, kr, kc);
    }
}

/* max(m, |v|) that lets no NaN through: a NaN or an infinity gives +Inf. */
static double absmax(double m, double v) { return isfinite(v) ? fmax(m, fabs(v)) : INFINITY; }

/* ||A x - b||_inf and ||A||_inf with the distributed A (rebuilt by the caller). */
static void residual(lu_t *L, const double *x, const double *b, double *rnorm, double *anorm)
{
    double *xl = malloc(((size_t)L->nloc + 1) * sizeof *xl), *r = calloc((size_t)L->mloc + 1, 2 * sizeof *r);
    double *rs = r + L->mloc + 1;
    for (int c = 0; c < L->nloc; c++)
        xl[c] = x[bc_l2g(c, L->nb, L->mycol, 0, L->npcol)];
    for (int i = 0; i < L->mloc; i++)
        rs[i] = cblas_dasum(L->nloc, at(L, i, 0), L->lda);
    if (L->mloc > 0 && L->nloc > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, L->mloc, L->nloc, 1.0, L->a, L->lda, xl, 1, 0.0, r, 1);
    Cdgsum2d(L->ctxt, "Row", " ", L->mloc, 1, r, L->mloc, -1, -1);
    Cdgsum2d(L->ctxt, "Row", " ", L->mloc, 1, rs, L->mloc, -1, -1);
    double v[2] = {0.0, 0.0};
    for (int i = 0; i < L->mloc; i++) {
        v[0] = absmax(v[0], r[i] - b[grow(L, i)]);
        v[1] = absmax(v[1], rs[i]);
    }
    Cdgamx2d(L->ctxt, "All", " ", 2, 1, v, 2, NULL, NULL, -1, -1, -1);
    *rnorm = v[0];
    *anorm = v[1];
    free(xl);
    free(r);
}

/* Options; returns 0, or 2 (and says why on process 0) on a bad one. */
static int options(int argc, char **argv, int iam, int *n, int *nb, int *p, int *q, long *seed, char *rowtop,
                   char *coltop)
{
    for (int k = 1; k < argc; k += 2) {
        const char *o = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        int ok = v != NULL;
        if (ok && !strcmp(o, "--n"))
            *n = atoi(v);
        else if (ok && !strcmp(o, "--nb"))
            *nb = atoi(v);
        else if (ok && !strcmp(o, "--p"))
            *p = atoi(v);
        else if (ok && !strcmp(o, "--q"))
            *q = atoi(v);
        else if (ok && !strcmp(o, "--seed"))
            *seed = atol(v);
        else if (ok && !strcmp(o, "--row-top") && strlen(v) == 1)
            *rowtop = v[0];
        else if (ok && !strcmp(o, "--col-top") && strlen(v) == 1)
            *coltop = v[0];
        else {
            if (iam == 0)
                fprintf(stderr,
                        "lu: bad option '%s'%s\nusage: lu [--n N] [--nb NB] [--p P] [--q Q] [--row-top C] "
                        "[--col-top C] [--seed S]\n",
                        o, ok ? "" : " (missing value)");
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = 2000, nb = 64, p = 0, q = 0, iam, np;
    long seed = 1;
    char rowtop = ' ', coltop = ' ';
    Cblacs_pinfo(&iam, &np);
    if (options(argc, argv, iam, &n, &nb, &p, &q, &seed, &rowtop, &coltop) != 0) {
        Cblacs_exit(0);
        return 2;
    }
    if (p <= 0 || q <= 0) { /* a near-square grid from the processes we have */
        for (p = (int)sqrt((double)np); np % p;)
            p--;
        q = np / p;
    }
    if (n < 1 || nb < 1 || (long)p * q > np) {
        if (iam == 0)
            fprintf(stderr, "lu: need N >= 1, NB >= 1 and P*Q <= %d processes (got N=%d NB=%d %dx%d)\n", np,
                    n, nb, p, q);
        Cblacs_exit(0);
        return 2;
    }
    lu_t L = {.n = n, .nb = nb, .rowtop = {rowtop, 0}, .coltop = {coltop, 0}};
    Cblacs_get(0, 0, &L.ctxt);
    Cblacs_gridinit(&L.ctxt, "Row", p, q);
    Cblacs_gridinfo(L.ctxt, &L.nprow, &L.npcol, &L.myrow, &L.mycol);
    if (L.myrow < 0) { /* not in the grid */
        Cblacs_exit(0);
        return 0;
    }
    L.mloc = bc_numroc(n, nb, L.myrow, 0, p);
    L.nloc = bc_numroc(n, nb, L.mycol, 0, q);
    L.ncols = L.nloc + (L.mycol == bc_g2p(n, nb, 0, q));
    L.lda = L.mloc > 1 ? L.mloc : 1;
    L.a = malloc((size_t)L.lda * (size_t)(L.ncols > 0 ? L.ncols : 1) * sizeof *L.a);
    L.lw = malloc(((size_t)L.lda * nb + 1) * sizeof *L.lw);
    L.uw = malloc(((size_t)nb * (L.ncols + 1)) * sizeof *L.uw);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    double *s = malloc(((size_t)nb + 1) * sizeof *s), *xloc = malloc(((size_t)L.nloc + 1) * sizeof *xloc);
    int *ipiv = malloc((size_t)n * sizeof *ipiv);

    generate(&L, (uint64_t)seed, b);
    Cblacs_barrier(L.ctxt, "All");
    double t0 = Cdwalltime00(), resid = INFINITY;
    int singular = factor(&L, ipiv);
    if (!singular) {
        column_b(&L, x);            /* y = L^-1 P b */
        substitute(&L, x, s, xloc); /* U x = y */
    }
    double t = Cdwalltime00() - t0;
    Cdgamx2d(L.ctxt, "All", " ", 1, 1, &t, 1, NULL, NULL, -1, -1, -1); /* the slowest process */
    if (!singular) {
        double rnorm, anorm, xnorm = 0.0, bnorm = 0.0;
        generate(&L, (uint64_t)seed, b); /* A was overwritten by its factors */
        residual(&L, x, b, &rnorm, &anorm);
        for (int i = 0; i < n; i++)
            xnorm = absmax(xnorm, x[i]), bnorm = absmax(bnorm, b[i]);
        resid = absmax(0, rnorm / (DBL_EPSILON / 2 * (anorm * xnorm + bnorm) * n)); /* a NaN becomes +Inf */
    }
    int failed = singular || !(resid < 16.0);
    if (L.myrow == 0 && L.mycol == 0) {
        if (singular)
            printf("lu: the matrix is singular to working precision\n");
        printf(
            "lu: N=%d NB=%d grid=%dx%d row-top='%c' col-top='%c' time=%.3fs gflops=%.2f residual=%.3g %s\n",
            n, nb, p, q, rowtop, coltop, t, (2.0 / 3.0 * n * (double)n * n + 2.0 * n * (double)n) / t / 1e9,
            resid, failed ? "FAILED" : "PASSED");
        fflush(stdout);
    }
    free(L.a);
    free(L.lw);
    free(L.uw);
    free(b);
    free(x);
    free(s);
    free(xloc);
    free(ipiv);
    Cblacs_gridexit(L.ctxt);
    Cblacs_exit(0);
    return failed ? 1 : 0;
}
