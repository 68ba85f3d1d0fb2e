/*
 * bench/pdgesv_lu.c - ScaLAPACK's own LU solver (PDGESV) on the problem
 * examples/lu.c solves, for a side-by-side comparison: same matrix (the same
 * generator), same N, NB, grid and BLAS.  Linked against Debian's
 * libscalapack-openmpi, so it runs on the reference BLACS inside it (or on
 * ours with LD_PRELOAD).
 *
 *   mpirun -np 4 build/bench/pdgesv_lu --n 2000 --nb 64 --p 2 --q 2
 *
 * Prints "scalapack: N=... time=...s gflops=... residual=... PASSED" with the
 * same time (PDGESV alone: factor and solve), flop count and HPL residual as lu.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"

void descinit_(int *desc, int *m, int *n, int *mb, int *nb, int *irsrc, int *icsrc, int *ictxt, int *lld,
               int *info);
void pdgesv_(int *n, int *nrhs, double *a, int *ia, int *ja, int *desca, int *ipiv, double *b, int *ib,
             int *jb, int *descb, int *info);
void pdgemv_(const char *trans, int *m, int *n, double *alpha, double *a, int *ia, int *ja, int *desca,
             double *x, int *ix, int *jx, int *descx, int *incx, double *beta, double *y, int *iy, int *jy,
             int *descy, int *incy);
double pdlange_(const char *norm, int *m, int *n, double *a, int *ia, int *ja, int *desca, double *work);
int numroc_(int *n, int *nb, int *iproc, int *isrcproc, int *nprocs);

static double uniform(uint64_t seed, uint64_t i, uint64_t j) /* as examples/lu.c */
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + j * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

/* Fills the local parts of an m x n block-cyclic matrix with the generator. */
static void fill(double *a, int lld, int m, int n, int nb, int myrow, int mycol, int nprow, int npcol,
                 long seed, int as_rhs)
{
    int zero = 0;
    int ml = numroc_(&m, &nb, &myrow, &zero, &nprow), nl = numroc_(&n, &nb, &mycol, &zero, &npcol);
    for (int c = 0; c < nl; c++)
        for (int r = 0; r < ml; r++) {
            long gi = (long)(r / nb) * nb * nprow + (long)myrow * nb + r % nb;
            long gj = (long)(c / nb) * nb * npcol + (long)mycol * nb + c % nb;
            a[r + (size_t)c * lld] = as_rhs ? uniform((uint64_t)seed, (uint64_t)gi, (uint64_t)m)
                                            : uniform((uint64_t)seed, (uint64_t)gi, (uint64_t)gj);
        }
}

int main(int argc, char **argv)
{
    int n = 2000, nb = 64, p = 2, q = 2, reps = 1;
    long seed = 1;
    for (int k = 1; k + 1 < argc; k += 2) {
        if (!strcmp(argv[k], "--n"))
            n = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--nb"))
            nb = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--p"))
            p = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--q"))
            q = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--seed"))
            seed = atol(argv[k + 1]);
        else if (!strcmp(argv[k], "--reps"))
            reps = atoi(argv[k + 1]);
    }
    int iam, np, ctxt, nprow, npcol, myrow, mycol, zero = 0, one = 1, info;
    Cblacs_pinfo(&iam, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", p, q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (myrow < 0) {
        Cblacs_exit(0);
        return 0;
    }
    int ml = numroc_(&n, &nb, &myrow, &zero, &nprow), nl = numroc_(&n, &nb, &mycol, &zero, &npcol);
    int lld = ml > 1 ? ml : 1, desca[9], descb[9];
    descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    double *a = malloc((size_t)lld * (nl + 1) * sizeof *a), *b = malloc((size_t)lld * 2 * sizeof *b);
    double *x = malloc((size_t)lld * 2 * sizeof *x), *work = malloc((size_t)(nl + ml + 64) * sizeof *work);
    int *ipiv = malloc((size_t)(ml + nb) * sizeof *ipiv);

    double best = HUGE_VAL, worst = 0.0;
    int failed = 0;
    for (int rep = 0; rep < reps; rep++) {
        fill(a, lld, n, n, nb, myrow, mycol, nprow, npcol, seed, 0);
        fill(x, lld, n, 1, nb, myrow, mycol, nprow, npcol, seed, 1);
        Cblacs_barrier(ctxt, "All");
        double t0 = Cdwalltime00();
        pdgesv_(&n, &one, a, &one, &one, desca, ipiv, x, &one, &one, descb, &info);
        double t = Cdwalltime00() - t0;
        Cdgamx2d(ctxt, "All", " ", 1, 1, &t, 1, NULL, NULL, -1, -1, -1);
        best = fmin(best, t);
        failed |= info != 0;

        /* residual, as HPL: ||A x - b|| / (eps (||A|| ||x|| + ||b||) n) */
        fill(a, lld, n, n, nb, myrow, mycol, nprow, npcol, seed, 0);
        fill(b, lld, n, 1, nb, myrow, mycol, nprow, npcol, seed, 1);
        double anorm = pdlange_("I", &n, &n, a, &one, &one, desca, work);
        double bnorm = pdlange_("I", &n, &one, b, &one, &one, descb, work);
        double xnorm = pdlange_("I", &n, &one, x, &one, &one, descb, work);
        double alpha = 1.0, beta = -1.0;
        pdgemv_("N", &n, &n, &alpha, a, &one, &one, desca, x, &one, &one, descb, &one, &beta, b, &one, &one,
                descb, &one);
        double rnorm = pdlange_("I", &n, &one, b, &one, &one, descb, work);
        double resid = rnorm / (DBL_EPSILON / 2 * (anorm * xnorm + bnorm) * n);
        worst = fmax(worst, resid);
    }
    failed |= !(worst < 16.0);
    if (myrow == 0 && mycol == 0)
        printf("scalapack: N=%d NB=%d grid=%dx%d time=%.3fs gflops=%.2f residual=%.3g %s\n", n, nb, p, q,
               best, (2.0 / 3.0 * n * (double)n * n + 2.0 * n * (double)n) / best / 1e9, worst,
               failed ? "FAILED" : "PASSED");
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return failed;
}
