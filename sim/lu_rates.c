/*
 * sim/lu_rates.c - measures the two rates with which `make sim-lu` charges
 * the simulated LU's BLAS (sim/lu_simblas.h): one core's DGEMM rate on the
 * trailing update's shape (M = N = 2048, K = NB), in GFLOP/s, and its
 * memory rate on DGER of a panel's shape (2048 x NB), in GB/s of matrix
 * read and written (16 bytes per element).  Link a serial BLAS:
 *
 *   cc -O2 sim/lu_rates.c -o lu_rates /usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0
 *   ./lu_rates [NB]   ->  lu_rates: nb=64 dgemm_gflops=... dger_gbps=...
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 64, m = 2048;
    if (nb < 1)
        return 2;
    double *a = malloc(sizeof *a * (size_t)m * m), *l = malloc(sizeof *l * (size_t)m * nb),
           *u = malloc(sizeof *u * (size_t)nb * m);
    for (size_t i = 0; i < (size_t)m * m; i++)
        a[i] = (double)(i % 7) - 3.0;
    for (size_t i = 0; i < (size_t)m * nb; i++) {
        l[i] = 1e-3 * (double)(i % 5);
        u[i] = 1e-3 * (double)(i % 3);
    }
    /* the best of 5 repetitions of each, after a warm-up */
    double best = 1e30;
    for (int r = 0; r < 6; r++) {
        double t = now();
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, nb, -1.0, l, m, u, nb, 1.0, a, m);
        t = now() - t;
        if (r > 0 && t < best)
            best = t;
    }
    double gemm = 2.0 * m * m * nb / best / 1e9;
    best = 1e30;
    for (int r = 0; r < 6; r++) {
        double t = now();
        for (int k = 0; k < 8; k++)
            cblas_dger(CblasColMajor, m, nb, -1e-9, l, 1, u, 1, a + (size_t)k * m * nb, m);
        t = now() - t;
        if (r > 0 && t < best)
            best = t;
    }
    double ger = 8.0 * 16.0 * m * nb / best / 1e9;
    printf("lu_rates: nb=%d dgemm_gflops=%.1f dger_gbps=%.1f\n", nb, gemm, ger);
    free(a);
    free(l);
    free(u);
    return 0;
}
