/*
 * examples/extensions.c - LAWN 73's two proposed extensions at work.
 *
 *   mpirun -np 4 build/examples/extensions [K]
 *
 * 1. A fan-in with the receive from any process (Cdgerva2d): every process
 *    computes a partial result and sends it to {0,0}, which adds them up in
 *    whatever order they arrive and learns who sent each one.
 * 2. Cdtuop2d computing the 2-norm of K-column vectors spread over the
 *    grid, safely scaled as LAPACK's DNRM2 does: each entry x becomes the
 *    pair (scale, sumsq) = (|x|, 1), pairs are merged keeping the larger
 *    scale, and the norm is scale * sqrt(sumsq).  The pairs lie down the
 *    columns of a 2 x K matrix, so the library never cuts one.  The values
 *    are near 1e300: squaring them would overflow.
 * 3. Cituop2d computing the bitwise exclusive or of every process's
 *    integers (no INIT or POST: NULL).
 * Each part checks its answer and the program prints PASSED or FAILED.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "blacs.h"

/* (scale, sumsq) pairs, in place: x -> (|x|, 1). */
static void norm_init(blacs_int n, void *v)
{
    double *p = v;
    for (int k = 0; k + 1 < n; k += 2) {
        p[k + 1] = p[k] != 0 ? 1 : 0;
        p[k] = fabs(p[k]);
    }
}

/* a := a (+) b for pairs: the larger scale stays, the other sum is rescaled.
 * Symmetric in a and b, so every process computes the same bits. */
static void norm_merge(blacs_int n, void *a, const void *b)
{
    double *x = a;
    const double *y = b;
    for (int k = 0; k + 1 < n; k += 2) {
        double s1 = x[k], q1 = x[k + 1], s2 = y[k], q2 = y[k + 1];
        if (s1 < s2 || (s1 == s2 && q1 < q2)) {
            double ts = s1, tq = q1;
            s1 = s2, q1 = q2, s2 = ts, q2 = tq;
        }
        x[k] = s1;
        x[k + 1] = s1 > 0 ? q1 + q2 * (s2 / s1) * (s2 / s1) : 0;
    }
}

/* (scale, sumsq) -> (norm, sumsq) */
static void norm_finish(blacs_int n, void *v)
{
    double *p = v;
    for (int k = 0; k + 1 < n; k += 2)
        p[k] = p[k] * sqrt(p[k + 1]);
}

static void xor_ints(blacs_int n, void *a, const void *b)
{
    for (int k = 0; k < n; k++)
        ((blacs_int *)a)[k] ^= ((const blacs_int *)b)[k];
}

static double entry(int pnum, int j) { return 1e300 * ((pnum * 5 + j) % 9 + 1) * (pnum % 2 ? -1 : 1); }
static int bits(int pnum, int j)
{
    return (int)(0x9e3779b9u * (unsigned)(pnum + 1) + (unsigned)j * 0x85ebca6bu);
}

int main(int argc, char **argv)
{
    int iam, nprocs, ctxt, nprow, npcol, myrow, mycol, K = argc > 1 ? atoi(argv[1]) : 5, failed = 0;
    Cblacs_pinfo(&iam, &nprocs);
    for (nprow = (int)sqrt((double)nprocs); nprocs % nprow; nprow--)
        ;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, nprocs / nprow);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int me = myrow * npcol + mycol, np = nprow * npcol;

    /* 1. the fan-in */
    double part[2] = {me + 1.0, (double)me * me};
    if (me != 0) {
        Cdgesd2d(ctxt, 2, 1, part, 2, 0, 0);
    } else {
        double sum[2] = {part[0], part[1]}, in[2];
        printf("fan-in: {0,0} receives from any process:");
        for (int k = 1; k < np; k++) {
            int r = -1, c = -1; /* any row, any column */
            Cdgerva2d(ctxt, 2, 1, in, 2, &r, &c);
            printf(" {%d,%d}", r, c);
            failed += in[0] != r * npcol + c + 1.0; /* the sender is who it says */
            sum[0] += in[0];
            sum[1] += in[1];
        }
        double want0 = np * (np + 1) / 2.0, want1 = (np - 1.0) * np * (2 * np - 1.0) / 6;
        failed += sum[0] != want0 || sum[1] != want1;
        printf("\nfan-in: sums %g and %g (expected %g and %g)\n", sum[0], sum[1], want0, want1);
    }

    /* 2. the scaled 2-norm of K columns, left on every process */
    double *pairs = malloc(2 * (size_t)K * sizeof *pairs);
    for (int j = 0; j < K; j++)
        pairs[2 * j] = entry(me, j), pairs[2 * j + 1] = 0;
    Cdtuop2d(ctxt, "All", " ", "G", "N", 2, K, pairs, 2, -1, -1, norm_init, norm_merge, norm_finish);
    for (int j = 0; j < K; j++) {
        double ss = 0;
        for (int p = 0; p < np; p++)
            ss += (entry(p, j) / 1e300) * (entry(p, j) / 1e300);
        double want = 1e300 * sqrt(ss), err = fabs(pairs[2 * j] - want) / want;
        failed += !(err < 1e-14);
        if (me == 0 && j < 3)
            printf("norm of column %d: %.15e (relative error %.1e)\n", j, pairs[2 * j], err);
    }
    free(pairs);

    /* 3. exclusive or of K integers, left on {0,0} */
    blacs_int *x = malloc((size_t)K * sizeof *x);
    for (int j = 0; j < K; j++)
        x[j] = bits(me, j);
    Cituop2d(ctxt, "All", " ", "G", "N", K, 1, x, K, 0, 0, NULL, xor_ints, NULL);
    if (me == 0) {
        for (int j = 0; j < K; j++) {
            blacs_int want = 0;
            for (int p = 0; p < np; p++)
                want ^= bits(p, j);
            failed += x[j] != want;
        }
        printf("xor of %d integers over %d processes: first 0x%08x\n", K, np, (unsigned)x[0]);
    }
    free(x);

    Cigsum2d(ctxt, "All", " ", 1, 1, &failed, 1, 0, 0);
    if (me == 0)
        printf("%s\n", failed ? "FAILED" : "PASSED");
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return failed != 0;
}
