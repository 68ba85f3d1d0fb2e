/*
 * examples/mvmult.c - the distributed matrix-vector multiply of LAWN 73,
 * Appendix A, in C.
 *
 *   mpirun -np 4 build/examples/mvmult [LM [LN]]
 *
 * The processes form a near-square grid (nprow = floor(sqrt(np)), npcol =
 * np / nprow; the rest sit out).  Each owns an LM x LN block of the global
 * (nprow LM) x (npcol LN) matrix A; the vector x lives on process row 0.
 *
 *   1. ||A||_inf: row sums of |A| are added across each process row (DGSUM2D
 *      to column 0), the largest is found down column 0 (DGAMX2D) and sent
 *      back along the rows (DGEBS2D/DGEBR2D).
 *   2. x is broadcast down every process column (DGEBS2D/DGEBR2D, 'H').
 *   3. b = A x: each process multiplies its block (DGEMV), and the pieces are
 *      added across each process row, leaving b on every column (DGSUM2D).
 *   4. ||x||_inf and ||b||_inf by DGAMX2D within a row and a column.
 *   5. The point-to-point check of the original: {nprow-1, npcol-1} sends its
 *      ||b|| to {0,0}, which compares.
 *   6. A serial check: {0,0} rebuilds A and x, computes b and the three norms
 *      on its own, and compares them with the distributed ones (the pieces of
 *      b arrive from column 0 by point-to-point).
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blacs.h"

/* Deterministic entries, so any process can rebuild any of them. */
static double a_entry(long i, long j)
{
    return sin(0.37 * (double)i + 1.3 * (double)j) + (i == j ? 2.0 : 0.0);
}
static double x_entry(long j) { return cos(0.5 * (double)j) - 0.25; }

/* ||A||_inf of the distributed matrix (LAWN 73's DINFNRM); every process
 * returns it. */
static double dinfnrm(int ctxt, int lm, int ln, const double *a, int lda, double *work)
{
    int nprow, npcol, myrow, mycol, ri, ci;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    for (int i = 0; i < lm; i++)
        work[i] = cblas_dasum(ln, a + i, lda);           /* my part of each row sum */
    Cdgsum2d(ctxt, "r", "1", lm, 1, work, lm, myrow, 0); /* whole row sums, on column 0 */
    double max = 0.0;
    if (mycol == 0) {
        if (lm > 0)
            max = fabs(work[cblas_idamax(lm, work, 1)]);
        Cdgamx2d(ctxt, "c", "h", 1, 1, &max, 1, &ri, &ci, 1, -1, 0);
        Cdgebs2d(ctxt, "r", "h", 1, 1, &max, 1); /* column 0 has it: tell the rows */
    } else {
        Cdgebr2d(ctxt, "r", "h", 1, 1, &max, 1, myrow, 0);
    }
    return max;
}

int main(int argc, char **argv)
{
    int lm = argc > 1 ? atoi(argv[1]) : 50, ln = argc > 2 ? atoi(argv[2]) : lm, lda = lm > 1 ? lm : 1;
    int iam, nnodes, ctxt, nprow, npcol, myrow, mycol, ri, ci;
    Cblacs_pinfo(&iam, &nnodes);
    nprow = (int)sqrt((double)nnodes);
    npcol = nnodes / nprow;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (myrow < 0 || myrow >= nprow) { /* not in the grid */
        Cblacs_exit(0);
        return 0;
    }

    double *a = malloc((size_t)lda * ln * sizeof *a), *x = malloc((size_t)ln * sizeof *x);
    double *b = malloc((size_t)lda * sizeof *b), *work = malloc((size_t)lda * sizeof *work);
    for (int j = 0; j < ln; j++)
        for (int i = 0; i < lm; i++)
            a[i + (size_t)j * lda] = a_entry((long)myrow * lm + i, (long)mycol * ln + j);
    double norma = dinfnrm(ctxt, lm, ln, a, lda, work);

    /* x lives on process row 0; every process row needs a copy */
    if (myrow == 0) {
        for (int j = 0; j < ln; j++)
            x[j] = x_entry((long)mycol * ln + j);
        Cdgebs2d(ctxt, "Column", "Hypercube", ln, 1, x, ln);
    } else {
        Cdgebr2d(ctxt, "Column", "Hypercube", ln, 1, x, ln, 0, mycol);
    }
    double normx = ln > 0 ? fabs(x[cblas_idamax(ln, x, 1)]) : 0.0;
    Cdgamx2d(ctxt, "R", "H", 1, 1, &normx, 1, &ri, &ci, 1, -1, 0);

    /* b = A x: local product, then the pieces are added across the row */
    cblas_dgemv(CblasColMajor, CblasNoTrans, lm, ln, 1.0, a, lda, x, 1, 0.0, b, 1);
    Cdgsum2d(ctxt, "Row", "Hypercube", lm, 1, b, lm, -1, 0);
    double normb = lm > 0 ? fabs(b[cblas_idamax(lm, b, 1)]) : 0.0;
    Cdgamx2d(ctxt, "C", "H", 1, 1, &normb, 1, &ri, &ci, 1, -1, 0);

    int failed = 0;
    if (myrow == 0 && mycol == 0) {
        printf("mvmult: %d x %d grid, A is %d x %d\n", nprow, npcol, nprow * lm, npcol * ln);
        printf("||A|| = %.15g\n||x|| = %.15g\n||b|| = %.15g\n", norma, normx, normb);
    }

    /* The point-to-point check of LAWN 73: the corners agree on ||b||. */
    if (myrow == nprow - 1 && mycol == npcol - 1 && (nprow > 1 || npcol > 1)) {
        Cdgesd2d(ctxt, 1, 1, &normb, 1, 0, 0);
    } else if (myrow == 0 && mycol == 0 && (nprow > 1 || npcol > 1)) {
        double normtst;
        Cdgerv2d(ctxt, 1, 1, &normtst, 1, nprow - 1, npcol - 1);
        if (normtst != normb) {
            printf("ERROR: ||b||'s do not match. Values are: %.15g %.15g\n", normb, normtst);
            failed = 1;
        }
    }

    /* The serial check, on {0,0}: pieces of b come from column 0. */
    if (mycol == 0 && myrow > 0)
        Cdgesd2d(ctxt, lm, 1, b, lm, 0, 0);
    if (myrow == 0 && mycol == 0) {
        long m = (long)nprow * lm, n = (long)npcol * ln;
        double sa = 0, sx = 0, sb = 0, err = 0;
        double *piece = malloc((size_t)lda * sizeof *piece);
        for (long i = 0; i < m; i++) {
            int r = (int)(i / lm);
            if (i % lm == 0) { /* next piece of the distributed b */
                if (r == 0)
                    for (int k = 0; k < lm; k++)
                        piece[k] = b[k];
                else
                    Cdgerv2d(ctxt, lm, 1, piece, lm, r, 0);
            }
            double bi = 0, rowsum = 0;
            for (long j = 0; j < n; j++) {
                bi += a_entry(i, j) * x_entry(j);
                rowsum += fabs(a_entry(i, j));
            }
            sa = fmax(sa, rowsum);
            sb = fmax(sb, fabs(bi));
            double e = fabs(bi - piece[i % lm]) / fmax(1.0, fabs(bi));
            err = isfinite(e) ? fmax(err, e) : INFINITY; /* fmax would drop a NaN */
        }
        for (long j = 0; j < n; j++)
            sx = fmax(sx, fabs(x_entry(j)));
        free(piece);
        double tol = 1e-12;
        /* comparisons, not negated ones: a NaN anywhere fails */
        int ok = err <= tol && fabs(sa - norma) <= tol * sa && fabs(sx - normx) <= tol * sx &&
                 fabs(sb - normb) <= tol * sb;
        printf("serial:  ||A|| = %.15g  ||x|| = %.15g  ||b|| = %.15g  max |b - b_serial| / |b| = %.2e\n", sa,
               sx, sb, err);
        printf("mvmult: %s\n",
               ok && !failed ? "PASSED (distributed result matches the serial one)" : "FAILED");
        failed |= !ok;
    }
    /* everybody learns the verdict, so the exit status is the same everywhere */
    Cigsum2d(ctxt, "All", " ", 1, 1, &failed, 1, -1, -1);

    free(a);
    free(x);
    free(b);
    free(work);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return failed ? 1 : 0;
}
