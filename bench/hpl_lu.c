/*
 * bench/hpl_lu.c - the HPL-style LU: LU factorization with partial
 * pivoting and a solve, on a P x Q process grid, communicating only through
 * the BLACS and computing with the BLAS, with HPL's look-ahead, its modified
 * rings and a pivot search fused into one user-defined combine (an
 * extension of LAWN 73's).  make lu-compare measures it against ScaLAPACK's
 * PDGESV, make sim-lu at scale; the plain example is examples/lu.c.
 *
 *   mpirun -np 4 build/bench/hpl_lu --n 2000 --nb 64 --p 2 --q 2 \
 *          --row-top S --col-top ' ' --lookahead 1 --seed 1 --reps 1
 *
 * The N x N matrix A (random entries in [-0.5, 0.5)) is distributed
 * block-cyclically in NB x NB blocks over the grid, as ScaLAPACK does
 * (examples/distrib.h); the right-hand side b rides along as column N of
 * [A b], as HPL's does, held by the process column that column N would
 * belong to.  The factorization is right-looking and blocked (LAWN 73
 * section 2.2, the InterCom paper section 2).  For each block column:
 *
 *   1. the process column that owns it factors the panel, column by column:
 *      the pivot is found and its row swapped by one user-defined combine
 *      down the process column (--pivot fused, pivot_fused), the columns
 *      updated by DGER in blocks of --panel-nb and the panel's columns right
 *      of each block by DGEMM (factor_inner); or as
 *      ScaLAPACK's PDGETF2 does (--pivot scalapack): DGAMX2D with its
 *      location, then IGAMX2D for its row index, the rows swapped by
 *      point-to-point (DGESD2D/DGERV2D: both sides send first, then
 *      receive, which only locally-blocking sends allow), the pivot row
 *      broadcast down the column; then the rest of the panel is updated
 *      (DGER);
 *   2. the pivot indices and the factored panel go along the process rows
 *      with TOP --row-top (IGEBS2D, DGEBS2D), or by HPL's modified rings
 *      (--row-top N or W: point-to-point, see panel_send), and every
 *      process applies the same interchanges right of the panel, b
 *      included: all of the panel's rows in one message per pair of
 *      process rows (--swap block, the default, as HPL moves them), or one
 *      exchange per interchange (--swap rows, as ScaLAPACK's PDLASWP).
 *      The columns of L stay as they were factored: the solve needs none;
 *   3. the process row of the diagonal block solves for the block row of U
 *      (DTRSM) and broadcasts it down the process columns with TOP --col-top;
 *   4. everybody updates its part of the trailing matrix (DGEMM).  With
 *      look-ahead (--lookahead 1, the default), the process column that owns
 *      the next panel updates only that panel's columns, does steps 1 and 2
 *      for it, and then updates the rest: the next panel is on its way
 *      while the trailing matrix is updated (HPL's depth-1 look-ahead).
 *
 * The factorization leaves L^-1 P b in b's column; it is gathered to every
 * process, then back substitution runs block by block: the owner row of
 * each block gathers its partial sums (DGSUM2D along the row), the diagonal
 * owner solves the small triangle (DTRSV) and broadcasts the result.
 * Finally A is rebuilt and HPL's check is made:
 *
 *   residual = ||A x - b||_inf / (eps (||A||_inf ||x||_inf + ||b||_inf) N) < 16
 *
 * The last line reads, e.g.
 *   lu: N=2000 NB=64 grid=2x2 row-top=' ' col-top=' ' lookahead=1 pivot=fused panel-nb=32 swap=block time=1.234s gflops=4.56 residual=0.012 PASSED
 * where time is the best of --reps runs of factorization + solve, and
 * gflops = (2/3 N^3 + 2 N^2) / time.  The exit status is non-zero on FAILED.
 *
 * Compiled with -DLU_SIM_FLOPS by SimGrid's smpicc (make sim-lu), the BLAS
 * calls become simulated time (sim/lu_simblas.h), the large arrays SMPI's
 * shared memory, and the residual is not checked; the messages stay the same.
 */
#ifdef LU_SIM_FLOPS /* make sim-lu: the BLAS as simulated time (sim/lu_simblas.h) */
#include "lu_simblas.h"
#else
#include <cblas.h>
#define LU_SIMULATED 0
#define LU_ALLOC(bytes) malloc(bytes)
#define LU_FREE(p) free(p)
#define LU_MOVED(bytes) ((void)0)
#endif
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
    int mloc, nloc, lda;   /* local rows, local columns, leading dimension */
    int ncols;             /* local columns of [A b]: nloc, and b's on the process column of column N */
    double *a;             /* local part of A, column-major */
    double *lw, *uw, *row; /* workspaces: panel, block row of U, pivot row */
    char rowtop[2], coltop[2];
    int lookahead; /* 1: the next panel is factored and sent before the rest of the update */
    int fused;     /* 1: one combine per column finds and swaps the pivot row (HPL's pdmxswp) */
    double *rec;   /* its record: 3 + 2 NB doubles */
    double *pr;    /* the pivot rows across the panel, as each was chosen: NB x NB */
    int pnb;       /* columns factored by DGER before the rest of the panel is updated by DGEMM */
    int swapblock; /* 1: a panel's interchanges leave the panel in one message per process row */
    int *moved;    /* their rows: 2 NB final places, 2 NB origins, 2 NB local rows */
    double *sw;    /* their workspace: 4 NB rows of the local columns */
} lu_t;

/* ---- the matrix ---- */

static double uniform(uint64_t seed, uint64_t i, uint64_t j)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + j * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

static void generate(lu_t *L, uint64_t seed, double *b)
{
    for (int c = 0; c < L->nloc; c++) {
        int gj = bc_l2g(c, L->nb, L->mycol, 0, L->npcol);
        for (int r = 0; r < L->mloc; r++)
            L->a[r + (size_t)c * L->lda] =
                uniform(seed, (uint64_t)bc_l2g(r, L->nb, L->myrow, 0, L->nprow), (uint64_t)gj);
    }
    for (int i = 0; i < L->n; i++)
        b[i] = uniform(seed, (uint64_t)i, (uint64_t)L->n);
    for (int c = L->nloc; c < L->ncols; c++) /* b as column N of [A b] */
        for (int r = 0; r < L->mloc; r++)
            L->a[r + (size_t)c * L->lda] = b[bc_l2g(r, L->nb, L->myrow, 0, L->nprow)];
}

static double *at(const lu_t *L, int lr, int lc) { return L->a + lr + (size_t)lc * L->lda; }
static int lrow(const lu_t *L, int g) { return bc_first_local(g, L->nb, L->myrow, 0, L->nprow); }
static int lcol(const lu_t *L, int g) { return bc_first_local(g, L->nb, L->mycol, 0, L->npcol); }
static int rowner(const lu_t *L, int g) { return bc_g2p(g, L->nb, 0, L->nprow); }
static int cowner(const lu_t *L, int g) { return bc_g2p(g, L->nb, 0, L->npcol); }

/* ---- the factorization ---- */

/* Swaps global rows g1 and g2 over ncols local columns from c0, within my
 * process column.  Rows on two process rows are exchanged by point-to-point:
 * each side sends, then receives. */
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

/* The interchanges of block column j (row jj with row ipiv[jj], for jj =
 * j..j+jb-1 in that order) as moves: after them, global row dst[k] holds
 * what row src[k] held before.  At most 2 jb rows take part; returns how
 * many (some may end where they began). */
static int swap_moves(int j, int jb, const int *ipiv, int *dst, int *src)
{
    int n = 0;
    for (int jj = j; jj < j + jb; jj++) {
        int a = -1, b = -1;
        for (int k = 0; k < n; k++) {
            a = dst[k] == jj ? k : a;
            b = dst[k] == ipiv[jj] ? k : b;
        }
        if (a < 0) {
            dst[n] = src[n] = jj;
            a = n++;
        }
        if (b < 0) {
            dst[n] = src[n] = ipiv[jj];
            b = n++;
        }
        int t = src[a];
        src[a] = src[b];
        src[b] = t;
    }
    return n;
}

/* Copies local rows rows[0..cnt) over local columns c0..c0+w-1 to or
 * from the cnt x w matrix at *p (leading dimension cnt).  Column by
 * column: a row's entries lie lda apart, a column's rows near each other
 * (those of the diagonal block are consecutive). */
static void rows_pack(lu_t *L, const int *rows, int cnt, int c0, int w, double *p, int unpack)
{
    for (int c = c0; c < c0 + w; c++, p += cnt) {
        double *col = L->a + (size_t)c * L->lda;
        for (int i = 0; i < cnt; i++)
            if (unpack)
                col[rows[i]] = p[i];
            else
                p[i] = col[rows[i]];
    }
    LU_MOVED(16.0 * cnt * w);
}

/* Block column j's interchanges over local columns c0..c0+w-1 at once
 * (--swap block, as HPL moves a panel's rows): every process packs the
 * rows it holds by the process row where they end, sends each other
 * process row of its column one message, then receives one from each that
 * has rows for it.  The sends return before the receives are posted,
 * which only locally-blocking sends allow.  ScaLAPACK's PDLASWP (--swap
 * rows, swap_rows) exchanges the rows one interchange at a time. */
static void swap_block(lu_t *L, int j, int jb, const int *ipiv, int c0, int w)
{
    int *dst = L->moved, *src = dst + 2 * L->nb, *rows = src + 2 * L->nb;
    int n = swap_moves(j, jb, ipiv, dst, src), used = 0;
    if (w <= 0)
        return;
    double *out = L->sw, *in = L->sw + (size_t)2 * L->nb * w;
    for (int k = 0; k < L->nprow; k++) { /* what ends on process row d (mine first), sent there */
        int d = (L->myrow + k) % L->nprow, cnt = 0;
        for (int m = 0; m < n; m++)
            if (src[m] != dst[m] && rowner(L, src[m]) == L->myrow && rowner(L, dst[m]) == d)
                rows[cnt++] = bc_g2l(src[m], L->nb, L->nprow);
        rows_pack(L, rows, cnt, c0, w, out + (size_t)w * used, 0);
        if (d != L->myrow && cnt > 0)
            Cdgesd2d(L->ctxt, cnt, w, out + (size_t)w * used, cnt, d, L->mycol);
        used += cnt;
    }
    for (int k = 0; k < L->nprow; k++) { /* what ends here, from process row s (mine first) */
        int s = (L->myrow + k) % L->nprow, cnt = 0;
        for (int m = 0; m < n; m++)
            if (src[m] != dst[m] && rowner(L, src[m]) == s && rowner(L, dst[m]) == L->myrow)
                rows[cnt++] = bc_g2l(dst[m], L->nb, L->nprow);
        if (cnt > 0 && s != L->myrow)
            Cdgerv2d(L->ctxt, cnt, w, in, cnt, s, L->mycol);
        rows_pack(L, rows, cnt, c0, w, s == L->myrow ? out : in, 1);
    }
}

/* The pivot of a column and the swap of its row in one combine down the
 * process column (HPL's HPL_pdmxswp does the same with its own exchange),
 * where ScaLAPACK's PDGETF2 makes four latency-bound steps: a combine for
 * the largest value, another for its row, the swap and the pivot row's
 * broadcast.  Each process contributes a record of 3 + 2 jb doubles:
 *   [0] |v| of its candidate (its largest entry of the column, on or below
 *       the diagonal; 0 if none, +Inf for a NaN so that it fails the check),
 *   [1] the candidate's global row (-1: none),  [2] 1 if it holds row jj,
 *   [3, 3+jb)      the candidate's row across the panel's jb columns,
 *   [3+jb, 3+2jb)  row jj across the panel, from the process that holds it.
 * The combine (DTUOP2D, LAWN 73's user-defined combine, an extension of
 * this library) keeps the larger candidate (the lower row on a tie, so the
 * choice is the same in every order) and the one copy of row jj: every
 * process of the column ends with the pivot row and row jj. */
enum { R_KEY, R_ROW, R_HASJJ, R_DATA };

static void pivot_op(blacs_int n, void *va, const void *vb)
{
    double *a = va;
    const double *b = vb;
    int jb = (int)(n - R_DATA) / 2;
    int better = b[R_ROW] >= 0 &&
                 (a[R_ROW] < 0 || b[R_KEY] > a[R_KEY] || (b[R_KEY] == a[R_KEY] && b[R_ROW] < a[R_ROW]));
    if (better) {
        a[R_KEY] = b[R_KEY];
        a[R_ROW] = b[R_ROW];
        memcpy(a + R_DATA, b + R_DATA, (size_t)jb * sizeof *a);
    }
    if (a[R_HASJJ] == 0 && b[R_HASJJ] != 0) {
        a[R_HASJJ] = 1;
        memcpy(a + R_DATA + jb, b + R_DATA + jb, (size_t)jb * sizeof *a);
    }
}

/* Column jj of the panel j..j+jb-1 (local column lc): finds its pivot and
 * swaps its row with row jj across the panel, by one combine; the pivot row
 * right of the diagonal is left in L->row.  Returns the pivot's value, and
 * its global row in *gpiv (-1: none). */
static double pivot_fused(lu_t *L, int j, int jb, int jj, int lc, int *gpiv)
{
    double *rec = L->rec;
    int c0 = lc - (jj - j), i0 = lrow(L, jj), cnt = L->mloc - i0, n = R_DATA + 2 * jb;
    rec[R_KEY] = 0.0;
    rec[R_ROW] = -1.0;
    rec[R_HASJJ] = rowner(L, jj) == L->myrow;
    if (cnt > 0) {
        int k = (int)cblas_idamax(cnt, at(L, i0, lc), 1);
        double v = *at(L, i0 + k, lc);
        rec[R_KEY] = isnan(v) ? INFINITY : fabs(v);
        rec[R_ROW] = bc_l2g(i0 + k, L->nb, L->myrow, 0, L->nprow);
        cblas_dcopy(jb, at(L, i0 + k, c0), L->lda, rec + R_DATA, 1);
    }
    if (rec[R_HASJJ] != 0)
        cblas_dcopy(jb, at(L, bc_g2l(jj, L->nb, L->nprow), c0), L->lda, rec + R_DATA + jb, 1);
    if (L->nprow > 1)
        Cdtuop2d(L->ctxt, "Col", " ", "G", "N", n, 1, rec, n, -1, -1, NULL, pivot_op, NULL);
    int g = (int)rec[R_ROW];
    *gpiv = rec[R_KEY] > 0.0 ? g : -1;
    if (*gpiv < 0)
        return 0.0;
    if (g != jj) { /* the pivot row to row jj, row jj to the pivot's place */
        if (rowner(L, jj) == L->myrow)
            cblas_dcopy(jb, rec + R_DATA, 1, at(L, bc_g2l(jj, L->nb, L->nprow), c0), L->lda);
        if (rowner(L, g) == L->myrow)
            cblas_dcopy(jb, rec + R_DATA + jb, 1, at(L, bc_g2l(g, L->nb, L->nprow), c0), L->lda);
    }
    int w = j + jb - 1 - jj;
    if (w > 0)
        memcpy(L->row, rec + R_DATA + (jj - j) + 1, (size_t)w * sizeof *L->row);
    return rec[R_DATA + (jj - j)];
}

/* Columns b0..b1-1 of the panel j..j+jb-1 with the fused pivot search,
 * updating only those columns (DGER), then the panel's columns right of
 * them at once (DGEMM), as LAPACK's DGETRF does within a panel (HPL's
 * recursive panel factorizations likewise): the combines brought every
 * process of the column the pivot rows across the panel, in L->pr, so each
 * works out this block's rows of U itself (DTRSM, a small triangle).
 * Returns 1 if the matrix is singular. */
static int factor_inner(lu_t *L, int j, int jb, int b0, int b1, int *ipiv)
{
    int c0 = bc_g2l(j, L->nb, L->npcol), ld = L->nb, nr = j + jb - b1;
    double *pr = L->pr;
    for (int jj = b0; jj < b1; jj++) {
        int lc = c0 + jj - j, g;
        double vmax = pivot_fused(L, j, jb, jj, lc, &g);
        ipiv[jj] = g;
        if (g < 0 || vmax == 0.0)
            return 1;
        cblas_dcopy(jb, L->rec + R_DATA, 1, pr + (jj - j), ld); /* row jj, as it is now */
        int i1 = lrow(L, jj + 1), below = L->mloc - i1, w = b1 - 1 - jj;
        if (below > 0)
            cblas_dscal(below, 1.0 / vmax, at(L, i1, lc), 1);
        if (w > 0 && below > 0)
            cblas_dger(CblasColMajor, below, w, -1.0, at(L, i1, lc), 1, L->row, 1, at(L, i1, lc + 1), L->lda);
    }
    if (nr <= 0)
        return 0;
    /* U's rows b0..b1-1 right of the block: L11^-1 times them as they were pivoted */
    double *u = pr + (b0 - j) + (size_t)(b1 - j) * ld;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, b1 - b0, nr, 1.0,
                pr + (b0 - j) + (size_t)(b0 - j) * ld, ld, u, ld);
    for (int jj = b0; jj < b1; jj++)
        if (rowner(L, jj) == L->myrow)
            cblas_dcopy(nr, u + (jj - b0), ld, at(L, bc_g2l(jj, L->nb, L->nprow), c0 + b1 - j), L->lda);
    int i1 = lrow(L, b1), below = L->mloc - i1;
    if (below > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, below, nr, b1 - b0, -1.0,
                    at(L, i1, c0 + b0 - j), L->lda, u, ld, 1.0, at(L, i1, c0 + b1 - j), L->lda);
    return 0;
}

/* Factors the panel of global columns j..j+jb-1 (run by its process column).
 * ipiv[jj] receives the global pivot row of column jj, or -1 if singular. */
static void factor_panel(lu_t *L, int j, int jb, int *ipiv)
{
    if (L->fused) {
        for (int b0 = j; b0 < j + jb; b0 += L->pnb)
            if (factor_inner(L, j, jb, b0, b0 + L->pnb < j + jb ? b0 + L->pnb : j + jb, ipiv))
                return; /* singular */
        return;
    }

    int c0 = bc_g2l(j, L->nb, L->npcol);
    for (int jj = j; jj < j + jb; jj++) {
        int lc = c0 + jj - j, i0 = lrow(L, jj), cnt = L->mloc - i0;
        double v = 0.0;
        int gidx = -1, ra, ca;
        if (cnt > 0) {
            int k = (int)cblas_idamax(cnt, at(L, i0, lc), 1);
            v = *at(L, i0 + k, lc);
            gidx = bc_l2g(i0 + k, L->nb, L->myrow, 0, L->nprow);
        }
        /* the pivot: largest |value| down the process column, and where it is */
        double vmax = v;
        Cdgamx2d(L->ctxt, "Col", " ", 1, 1, &vmax, 1, &ra, &ca, 1, -1, -1);
        int idx = (L->myrow == ra && gidx >= 0) ? gidx + 1 : 0;
        Cigamx2d(L->ctxt, "Col", " ", 1, 1, &idx, 1, NULL, NULL, -1, -1, -1);
        if (vmax == 0.0 || idx == 0) {
            ipiv[jj] = -1;
            return; /* singular */
        }
        ipiv[jj] = idx - 1;
        swap_rows(L, jj, ipiv[jj], c0, jb);

        /* scale below the pivot, then update the rest of the panel */
        int i1 = lrow(L, jj + 1), below = L->mloc - i1, w = j + jb - 1 - jj;
        if (below > 0)
            cblas_dscal(below, 1.0 / vmax, at(L, i1, lc), 1);
        if (w > 0) {
            if (rowner(L, jj) == L->myrow) {
                cblas_dcopy(w, at(L, bc_g2l(jj, L->nb, L->nprow), lc + 1), L->lda, L->row, 1);
                if (L->nprow > 1)
                    Cdgebs2d(L->ctxt, "Col", " ", w, 1, L->row, w);
            } else {
                Cdgebr2d(L->ctxt, "Col", " ", w, 1, L->row, w, rowner(L, jj), L->mycol);
            }
            if (below > 0)
                cblas_dger(CblasColMajor, below, w, -1.0, at(L, i1, lc), 1, L->row, 1, at(L, i1, lc + 1),
                           L->lda);
        }
    }
}

/* ---- the panel along the process row ---- */

/* HPL's modified rings (HPL's HPL_bcast_1rinM and HPL_bcast_2rinM): members
 * are counted from the root r = 0 along the process row, r + 1 being the
 * next panel's owner, which gets the panel first and forwards nothing.
 *   'N' (1ringM): 0 -> 1, and 0 -> 2 -> 3 -> ... -> Q-1;
 *   'W' (2ringM): 0 -> 1, and two rings from h = ceil(Q/2):
 *                 0 -> 2 -> ... -> h-1 and 0 -> h -> ... -> Q-1.
 * ring_from gives the member r receives from; ring_to the members it sends
 * to, in the order sent (the next owner first); both relative to the root. */
static int is_modified_ring(char top) { return top == 'N' || top == 'W'; }

static int ring_from(char top, int q, int r)
{
    int h = top == 'W' ? (q + 1) / 2 : q;
    return r <= 2 || r == h ? 0 : r - 1;
}

static int ring_to(char top, int q, int r, int *to)
{
    int h = top == 'W' ? (q + 1) / 2 : q, n = 0;
    if (r == 0) {
        if (q > 1)
            to[n++] = 1;
        if (q > 2 && 2 != h)
            to[n++] = 2;
        if (q > 2 && h < q && h > 1)
            to[n++] = h;
    } else if (r >= 2 && r + 1 < q && r + 1 != h) {
        to[n++] = r + 1;
    }
    return n;
}

/* Prints the schedule of a modified ring on q members (--ring-schedule):
 * "r<-f" for every member but the root, in member order. */
static void print_ring(char top, int q)
{
    printf("lu: ring '%c' q=%d:", top, q);
    for (int r = 1; r < q; r++)
        printf(" %d<-%d", r, ring_from(top, q, r));
    printf(" | sends:");
    for (int r = 0; r < q; r++) {
        int to[3], n = ring_to(top, q, r, to);
        for (int k = 0; k < n; k++)
            printf(" %d->%d", r, to[k]);
    }
    printf("\n");
}

/* The pivots of block column j and its factored panel (rows >= j: mp x jb
 * at *lp, leading dimension ldl) go from process column kc along every
 * process row: by the BLACS broadcast of --row-top, or by a modified ring
 * of point-to-point messages, which return as soon as they are sent (the
 * BLACS sends are locally blocking), so the owner goes back to its update. */
static void panel_send(lu_t *L, int j, int jb, int *ipiv, double *lp, int ldl, int mp)
{
    if (L->npcol == 1)
        return;
    if (!is_modified_ring(L->rowtop[0])) {
        Cigebs2d(L->ctxt, "Row", L->rowtop, jb, 1, ipiv + j, jb);
        Cdgebs2d(L->ctxt, "Row", L->rowtop, mp, jb, lp, ldl);
        return;
    }
    int to[3], n = ring_to(L->rowtop[0], L->npcol, 0, to);
    for (int k = 0; k < n; k++) {
        int c = (L->mycol + to[k]) % L->npcol;
        Cigesd2d(L->ctxt, jb, 1, ipiv + j, jb, L->myrow, c);
        Cdgesd2d(L->ctxt, mp, jb, lp, ldl, L->myrow, c);
    }
}

static void panel_recv(lu_t *L, int j, int jb, int kc, int *ipiv, double *lw, int ldl, int mp)
{
    if (!is_modified_ring(L->rowtop[0])) {
        Cigebr2d(L->ctxt, "Row", L->rowtop, jb, 1, ipiv + j, jb, L->myrow, kc);
        Cdgebr2d(L->ctxt, "Row", L->rowtop, mp, jb, lw, ldl, L->myrow, kc);
        return;
    }
    int q = L->npcol, r = (L->mycol - kc + q) % q, to[3];
    int from = (kc + ring_from(L->rowtop[0], q, r)) % q, n = ring_to(L->rowtop[0], q, r, to);
    Cigerv2d(L->ctxt, jb, 1, ipiv + j, jb, L->myrow, from);
    Cdgerv2d(L->ctxt, mp, jb, lw, ldl, L->myrow, from);
    for (int k = 0; k < n; k++) {
        int c = (kc + to[k]) % q;
        Cigesd2d(L->ctxt, jb, 1, ipiv + j, jb, L->myrow, c);
        Cdgesd2d(L->ctxt, mp, jb, lw, ldl, L->myrow, c);
    }
}

/* The owner column of block column j: factors the panel and sends it. */
static void panel_factor_send(lu_t *L, int j, int *ipiv)
{
    int jb = L->n - j < L->nb ? L->n - j : L->nb;
    int ir0 = lrow(L, j);
    factor_panel(L, j, jb, ipiv);
    panel_send(L, j, jb, ipiv, at(L, ir0, bc_g2l(j, L->nb, L->npcol)), L->lda, L->mloc - ir0);
}

/* A22 -= L21 U12 on local columns [c0, c1) of the trailing matrix. */
static void update(lu_t *L, int j, int jb, const double *lp, int ldl, const double *up, int ldu, int c0,
                   int c1)
{
    int ir0 = lrow(L, j), ir1 = lrow(L, j + jb), mrest = L->mloc - ir1, jr0 = lcol(L, j + jb);
    if (mrest > 0 && c1 > c0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mrest, c1 - c0, jb, -1.0, lp + (ir1 - ir0),
                    ldl, up + (size_t)(c0 - jr0) * ldu, ldu, 1.0, at(L, ir1, c0), L->lda);
}

/* Returns 0, or 1 if the matrix is singular.  ipiv: n ints, replicated.
 * With look-ahead (depth 1, as HPL's), the process column that owns the
 * next panel updates that panel's columns first, factors the panel and
 * sends it along the rows, and only then updates the rest of its trailing
 * matrix: the panel is on its way while every process updates. */
static int factor(lu_t *L, int *ipiv)
{
    int sent = 0; /* the panel of this step was factored and sent ahead */
    for (int j = 0; j < L->n; j += L->nb) {
        int jb = L->n - j < L->nb ? L->n - j : L->nb;
        int kr = rowner(L, j), kc = cowner(L, j);
        int c0 = bc_g2l(j, L->nb, L->npcol);
        int ir0 = lrow(L, j), mp = L->mloc - ir0;

        /* the factored panel (rows >= j) and its pivots, along the process rows */
        const double *lp;
        int ldl;
        if (L->mycol == kc) {
            if (!sent)
                panel_factor_send(L, j, ipiv);
            lp = at(L, ir0, c0);
            ldl = L->lda;
        } else {
            ldl = mp > 0 ? mp : 1;
            panel_recv(L, j, jb, kc, ipiv, L->lw, ldl, mp);
            lp = L->lw;
        }
        sent = 0;
        for (int jj = j; jj < j + jb; jj++)
            if (ipiv[jj] < 0)
                return 1;

        /* the same interchanges right of the panel (b included; L's columns
         * stay as they were factored, as HPL's: the solve needs no L) */
        int jr0 = lcol(L, j + jb), nq = L->ncols - jr0;
        if (L->swapblock)
            swap_block(L, j, jb, ipiv, jr0, nq);
        for (int jj = j; jj < j + jb && !L->swapblock; jj++)
            swap_rows(L, jj, ipiv[jj], jr0, nq);

        /* the block row of U: solved by process row kr, sent down the columns */
        const double *up;
        int ldu;
        if (L->myrow == kr) {
            if (nq > 0)
                cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, nq, 1.0, lp,
                            ldl, at(L, ir0, jr0), L->lda);
            up = at(L, ir0, jr0);
            ldu = L->lda;
            if (L->nprow > 1)
                Cdgebs2d(L->ctxt, "Col", L->coltop, jb, nq, at(L, ir0, jr0), L->lda);
        } else {
            ldu = jb;
            Cdgebr2d(L->ctxt, "Col", L->coltop, jb, nq, L->uw, ldu, kr, L->mycol);
            up = L->uw;
        }

        /* trailing update A22 -= L21 U12, the next panel's columns first */
        int next = j + jb;
        if (L->lookahead && next < L->n && L->mycol == cowner(L, next)) {
            int nb1 = L->n - next < L->nb ? L->n - next : L->nb;
            update(L, j, jb, lp, ldl, up, ldu, jr0, jr0 + nb1);
            panel_factor_send(L, next, ipiv);
            sent = 1;
            update(L, j, jb, lp, ldl, up, ldu, jr0 + nb1, L->ncols);
        } else {
            update(L, j, jb, lp, ldl, up, ldu, jr0, L->ncols);
        }
    }
    return 0;
}

/* ---- the solve ---- */

/* x := y, the last column of the factored [A b] (the interchanges and
 * L^-1 were applied to it as to every column right of a panel), on every
 * process: a sum of one nonzero term per entry, exact in any order. */
static void column_b(lu_t *L, double *x)
{
    memset(x, 0, (size_t)L->n * sizeof *x);
    for (int r = 0; r < L->mloc && L->ncols > L->nloc; r++)
        x[bc_l2g(r, L->nb, L->myrow, 0, L->nprow)] = *at(L, r, L->nloc);
    Cdgsum2d(L->ctxt, "All", " ", L->n, 1, x, L->n, -1, -1);
}

/* x := the solution of U x = x for the block upper triangle U, x
 * replicated everywhere: from the last block up, the owner row of each
 * block sums its part of the solved entries (DGSUM2D along the row), the
 * diagonal owner solves the small triangle (DTRSV) and broadcasts it. */
static void substitute(lu_t *L, double *x, double *s, double *xloc)
{
    int nblocks = (L->n + L->nb - 1) / L->nb;
    for (int t = nblocks - 1; t >= 0; t--) {
        int k = t * L->nb, kb = L->n - k < L->nb ? L->n - k : L->nb;
        int kr = rowner(L, k), kc = cowner(L, k);
        if (L->myrow == kr) {
            /* my columns' part of the sum over the already solved entries */
            int c0 = lcol(L, k + kb), c1 = L->nloc;
            for (int c = c0; c < c1; c++)
                xloc[c - c0] = x[bc_l2g(c, L->nb, L->mycol, 0, L->npcol)];
            int i0 = bc_g2l(k, L->nb, L->nprow);
            for (int i = 0; i < kb; i++)
                s[i] = 0.0;
            if (c1 > c0)
                cblas_dgemv(CblasColMajor, CblasNoTrans, kb, c1 - c0, 1.0, at(L, i0, c0), L->lda, xloc, 1,
                            0.0, s, 1);
            Cdgsum2d(L->ctxt, "Row", " ", kb, 1, s, kb, kr, kc);
            if (L->mycol == kc) {
                for (int i = 0; i < kb; i++)
                    x[k + i] -= s[i];
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, kb,
                            at(L, i0, bc_g2l(k, L->nb, L->npcol)), L->lda, x + k, 1);
            }
        }
        if (L->myrow == kr && L->mycol == kc)
            Cdgebs2d(L->ctxt, "All", " ", kb, 1, x + k, kb);
        else
            Cdgebr2d(L->ctxt, "All", " ", kb, 1, x + k, kb, kr, kc);
    }
}

/* ---- the check ---- */

/* max(m, |v|) that lets no NaN through (fmax drops one): a NaN or an
 * infinity gives +Inf, which also wins the AMX combine, so the residual
 * comes out infinite or NaN and fails. */
static double absmax(double m, double v) { return isfinite(v) ? fmax(m, fabs(v)) : INFINITY; }

/* ||A x - b||_inf and ||A||_inf with the distributed A (rebuilt by the caller). */
static void residual(lu_t *L, const double *x, const double *b, double *rnorm, double *anorm)
{
    double *xl = malloc(((size_t)L->nloc + 1) * sizeof *xl),
           *r = malloc(((size_t)L->mloc + 1) * 2 * sizeof *r);
    double *rs = r + L->mloc + 1;
    for (int c = 0; c < L->nloc; c++)
        xl[c] = x[bc_l2g(c, L->nb, L->mycol, 0, L->npcol)];
    for (int i = 0; i < L->mloc; i++) {
        r[i] = 0.0;
        rs[i] = cblas_dasum(L->nloc, at(L, i, 0), L->lda);
    }
    if (L->mloc > 0 && L->nloc > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, L->mloc, L->nloc, 1.0, L->a, L->lda, xl, 1, 0.0, r, 1);
    Cdgsum2d(L->ctxt, "Row", " ", L->mloc, 1, r, L->mloc, -1, -1);
    Cdgsum2d(L->ctxt, "Row", " ", L->mloc, 1, rs, L->mloc, -1, -1);
    double v[2] = {0.0, 0.0};
    for (int i = 0; i < L->mloc; i++) {
        v[0] = absmax(v[0], r[i] - b[bc_l2g(i, L->nb, L->myrow, 0, L->nprow)]);
        v[1] = absmax(v[1], rs[i]);
    }
    Cdgamx2d(L->ctxt, "All", " ", 2, 1, v, 2, NULL, NULL, -1, -1, -1);
    *rnorm = v[0];
    *anorm = v[1];
    free(xl);
    free(r);
}

/* ---- the driver ---- */

static void usage(void)
{
    fprintf(stderr,
            "usage: lu [--n N] [--nb NB] [--p P] [--q Q] [--row-top C] [--col-top C] "
            "[--lookahead 0|1] [--pivot fused|scalapack] [--panel-nb K] [--swap block|rows] [--seed "
            "S] [--reps R] "
            "[--ring-schedule Q]\n"
            "  --row-top: a BLACS TOP, or N / W: HPL's modified rings 1ringM / 2ringM\n"
            "  --panel-nb: with --pivot fused, the columns of a panel updated by DGER (default 32)\n");
}

int main(int argc, char **argv)
{
    int n = 2000, nb = 64, p = 0, q = 0, reps = 1;
    long seed = 1;
    char rowtop = ' ', coltop = ' ';
    int iam, np, lookahead = 1, schedule = 0, fused = 1, swapblock = 1, pnb = 32;
    Cblacs_pinfo(&iam, &np);
    for (int k = 1; k < argc; k++) {
        const char *o = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        int ok = v != NULL;
        if (ok && !strcmp(o, "--n"))
            n = atoi(v);
        else if (ok && !strcmp(o, "--nb"))
            nb = atoi(v);
        else if (ok && !strcmp(o, "--p"))
            p = atoi(v);
        else if (ok && !strcmp(o, "--q"))
            q = atoi(v);
        else if (ok && !strcmp(o, "--seed"))
            seed = atol(v);
        else if (ok && !strcmp(o, "--reps"))
            reps = atoi(v);
        else if (ok && !strcmp(o, "--row-top") && strlen(v) == 1)
            rowtop = v[0];
        else if (ok && !strcmp(o, "--lookahead") && (!strcmp(v, "0") || !strcmp(v, "1")))
            lookahead = atoi(v);
        else if (ok && !strcmp(o, "--pivot") && (!strcmp(v, "fused") || !strcmp(v, "scalapack")))
            fused = !strcmp(v, "fused");
        else if (ok && !strcmp(o, "--panel-nb") && atoi(v) >= 1)
            pnb = atoi(v);
        else if (ok && !strcmp(o, "--swap") && (!strcmp(v, "block") || !strcmp(v, "rows")))
            swapblock = !strcmp(v, "block");
        else if (ok && !strcmp(o, "--ring-schedule") && atoi(v) >= 1)
            schedule = atoi(v);
        else if (ok && !strcmp(o, "--col-top") && strlen(v) == 1)
            coltop = v[0];
        else {
            if (iam == 0) {
                fprintf(stderr, "lu: bad option '%s'%s\n", o, ok ? "" : " (missing value)");
                usage();
            }
            Cblacs_exit(0);
            return 2;
        }
        k++;
    }
#ifdef LU_SIM_FLOPS /* smpirun splits its arguments again: '_' stands for the blank TOP there */
    rowtop = rowtop == '_' ? ' ' : rowtop;
    coltop = coltop == '_' ? ' ' : coltop;
#endif
    if (schedule > 0) { /* the modified rings' schedules on that many process columns */
        if (iam == 0) {
            print_ring('N', schedule);
            print_ring('W', schedule);
        }
        Cblacs_exit(0);
        return 0;
    }
    if (p <= 0 || q <= 0) { /* a near-square grid from the processes we have */
        p = (int)sqrt((double)np);
        while (np % p)
            p--;
        q = np / p;
    }
    if (n < 1 || nb < 1 || reps < 1 || (long)p * q > np) {
        if (iam == 0)
            fprintf(stderr,
                    "lu: need N >= 1, NB >= 1, REPS >= 1 and P*Q <= %d processes (got N=%d NB=%d %dx%d)\n",
                    np, n, nb, p, q);
        Cblacs_exit(0);
        return 2;
    }

    lu_t L = {0};
    L.n = n;
    L.nb = nb;
    L.rowtop[0] = rowtop;
    L.lookahead = lookahead;
    L.fused = fused;
    L.swapblock = swapblock;
    L.coltop[0] = coltop;
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
    L.a = LU_ALLOC((size_t)L.lda * (L.ncols > 0 ? L.ncols : 1) * sizeof *L.a);
    L.lw = LU_ALLOC(((size_t)L.lda * nb + 1) * sizeof *L.lw);
    L.uw = LU_ALLOC(((size_t)nb * (L.ncols + 1)) * sizeof *L.uw);
    L.row = malloc(((size_t)nb + 1) * sizeof *L.row);
    L.rec = malloc(((size_t)R_DATA + 2 * (size_t)nb) * sizeof *L.rec);
    L.pr = malloc((size_t)nb * nb * sizeof *L.pr);
    L.pnb = pnb;
    L.moved = malloc(6 * (size_t)nb * sizeof *L.moved);
    L.sw = LU_ALLOC((4 * (size_t)nb * L.ncols + 1) * sizeof *L.sw);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    double *s = malloc(((size_t)nb + 1) * sizeof *s), *xloc = malloc(((size_t)L.nloc + 1) * sizeof *xloc);
    int *ipiv = malloc((size_t)n * sizeof *ipiv);

    double best = HUGE_VAL, worst_resid = 0.0;
    int singular = 0;
    for (int rep = 0; rep < reps; rep++) {
        generate(&L, (uint64_t)seed, b);
        Cblacs_barrier(L.ctxt, "All");
        double t0 = Cdwalltime00();
        singular = factor(&L, ipiv);
        if (!singular) {
            column_b(&L, x);            /* y = L^-1 P b, left in b's column */
            substitute(&L, x, s, xloc); /* U x = y */
        }
        double t = Cdwalltime00() - t0;
        Cdgamx2d(L.ctxt, "All", " ", 1, 1, &t, 1, NULL, NULL, -1, -1, -1); /* the slowest process */
        best = fmin(best, t);
        if (singular)
            break;
        if (LU_SIMULATED) /* the matrix holds no factors: nothing to check */
            continue;

        double rnorm, anorm, xnorm = 0.0, bnorm = 0.0;
        generate(&L, (uint64_t)seed, b); /* A was overwritten by its factors */
        residual(&L, x, b, &rnorm, &anorm);
        for (int i = 0; i < n; i++) {
            xnorm = absmax(xnorm, x[i]);
            bnorm = absmax(bnorm, b[i]);
        }
        double eps = DBL_EPSILON / 2; /* LAPACK's DLAMCH('E') */
        double resid = rnorm / (eps * (anorm * xnorm + bnorm) * n);
        worst_resid = absmax(worst_resid, resid); /* a NaN residual becomes +Inf */
        if (iam == 0 && reps > 1)
            printf("lu: run %d: time=%.3fs residual=%.3g\n", rep + 1, t, resid);
    }

    int failed = singular || (!LU_SIMULATED && !(worst_resid < 16.0));
    if (L.myrow == 0 && L.mycol == 0) {
        double flops = 2.0 / 3.0 * n * (double)n * n + 2.0 * n * (double)n;
        if (singular)
            printf("lu: the matrix is singular to working precision\n");
#ifdef LU_SIM_FLOPS
        lu_sim_describe();
        printf("lu: N=%d NB=%d grid=%dx%d row-top='%c' col-top='%c' lookahead=%d pivot=%s panel-nb=%d "
               "swap=%s time=%.6fs "
               "gflops=%.2f residual=not checked (simulated)%s\n",
               n, nb, p, q, rowtop, coltop, lookahead, fused ? "fused" : "scalapack", pnb,
               swapblock ? "block" : "rows", best, flops / best / 1e9, failed ? " FAILED" : "");
#else
        printf("lu: N=%d NB=%d grid=%dx%d row-top='%c' col-top='%c' lookahead=%d pivot=%s panel-nb=%d "
               "swap=%s time=%.3fs "
               "gflops=%.2f residual=%.3g %s\n",
               n, nb, p, q, rowtop, coltop, lookahead, fused ? "fused" : "scalapack", pnb,
               swapblock ? "block" : "rows", best, flops / best / 1e9, worst_resid,
               failed ? "FAILED" : "PASSED");
#endif
        fflush(stdout);
    }
    LU_FREE(L.a);
    LU_FREE(L.lw);
    LU_FREE(L.uw);
    free(L.row);
    free(L.rec);
    free(L.pr);
    free(L.moved);
    LU_FREE(L.sw);
    free(b);
    free(x);
    free(s);
    free(xloc);
    free(ipiv);
    Cblacs_gridexit(L.ctxt);
    Cblacs_exit(0);
    return failed ? 1 : 0;
}
