/*
 * sim/lu_simblas.h - the CBLAS routines of examples/lu.c as simulated time,
 * for `make sim-lu`: examples/lu.c compiled with -DLU_SIM_FLOPS by smpicc
 * includes this header instead of <cblas.h>.  Each routine charges its
 * calling process the time it would take on one core of the simulated
 * machine, with smpi_execute_flops, and (but for DCOPY) leaves the data
 * alone: the matrix contents do not matter, only the time and the messages
 * do.
 *
 *   level 3 (DGEMM 2mnk, DTRSM left m^2 n flops): at LU_SIM_GFLOPS GFLOP/s;
 *   level 1 and 2 (DGER, DGEMV, DTRSV, DSCAL, DCOPY, DSWAP, IDAMAX, DASUM),
 *     which memory bounds: the bytes of vector and matrix elements they read
 *     and write (DGER 16mn, DGEMV 8mn, DTRSV 4n^2, DSCAL 16n, DCOPY 16n,
 *     DSWAP 32n, IDAMAX and DASUM 8n) at LU_SIM_GBPS GB/s.
 *
 * The two rates come from the environment (make sim-lu: SIM_LU_GFLOPS,
 * SIM_LU_GBPS), by default those measured with sim/lu_rates.c on one core of
 * this project's machine (AMD EPYC, OpenBLAS 0.3.21 serial, NB = 64): DGEMM
 * 2048 x 2048 x 64 at 42 GFLOP/s, DGER 2048 x 64 at 60 GB/s.  The time does
 * not depend on the platform file's host speed: smpi_execute_flops runs at
 * the host's speed (sg_host_get_speed, 1 Gflop/s per core in the platform files), so
 * the time t is charged as t x that speed flops.  Every process of a
 * multi-core host has a core of its own (nodes16/64: 16 cores, 16 processes).
 *
 * What is real: DCOPY copies (the fused pivot's record carries the pivot
 * row, whose diagonal value becomes the divisor), everything else is only
 * time.  IDAMAX returns a pseudo-random index in [0, n) (a hash of the call
 * count and n, per process: deterministic), so the pivot rows move as they
 * would on a random matrix: the row swaps and their messages happen.  The
 * matrix, filled once by lu's generator with values in [-0.5, 0.5), keeps
 * them (nothing scales or updates it), so no pivot is zero or NaN and the
 * factorization never stops as singular.
 *
 * Memory: LU_ALLOC (the local matrix and the two panel workspaces) is
 * SMPI_SHARED_MALLOC, one block shared by all simulated processes, so that
 * 1024 processes of N = 65536 fit; SMPI also skips copying messages in and
 * out of it.
 */
#ifndef LU_SIMBLAS_H
#define LU_SIMBLAS_H

#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LU_SIMULATED 1
#define LU_ALLOC(bytes) SMPI_SHARED_MALLOC(bytes)
#define LU_FREE(p) SMPI_SHARED_FREE(p)
#define LU_MOVED(bytes) lu_sim_bytes(bytes) /* rows moved by lu itself, as a copy */

#ifndef LU_SIM_GFLOPS_DEFAULT
#define LU_SIM_GFLOPS_DEFAULT 42.0
#endif
#ifndef LU_SIM_GBPS_DEFAULT
#define LU_SIM_GBPS_DEFAULT 60.0
#endif

typedef enum { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;

/* the rates, per process (globals are per simulated process under smpirun) */
static double lu_sim_gflops, lu_sim_gbps;
static uint64_t lu_sim_calls;

static double lu_sim_rate(const char *name, double dflt)
{
    const char *v = getenv(name);
    double r = v != NULL && *v != '\0' ? strtod(v, NULL) : dflt;
    if (!(r > 0.0)) {
        fprintf(stderr, "lu: %s=%s: a rate > 0\n", name, v);
        exit(2);
    }
    return r;
}

static void lu_sim_init(void)
{
    if (lu_sim_gflops == 0.0) {
        lu_sim_gflops = lu_sim_rate("LU_SIM_GFLOPS", LU_SIM_GFLOPS_DEFAULT);
        lu_sim_gbps = lu_sim_rate("LU_SIM_GBPS", LU_SIM_GBPS_DEFAULT);
    }
}

/* charges t seconds of one core of this host */
static void lu_sim_time(double t)
{
    if (t > 0.0)
        smpi_execute_flops(t * sg_host_get_speed(sg_host_self()));
}

static void lu_sim_flops(double flops)
{
    lu_sim_init();
    lu_sim_time(flops / (lu_sim_gflops * 1e9));
}

static void lu_sim_bytes(double bytes)
{
    lu_sim_init();
    lu_sim_time(bytes / (lu_sim_gbps * 1e9));
}

/* the line lu prints about the simulated BLAS */
static void lu_sim_describe(void)
{
    lu_sim_init();
    printf("lu: simulated BLAS (sim/lu_simblas.h): DGEMM, DTRSM at %g GFLOP/s per core, level 1-2 at %g GB/s "
           "per core\n",
           lu_sim_gflops, lu_sim_gbps);
}

static inline void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n,
                               int k, double alpha, const double *a, int lda, const double *b, int ldb,
                               double beta, double *c, int ldc)
{
    (void)layout, (void)ta, (void)tb, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb, (void)beta,
        (void)c, (void)ldc;
    lu_sim_flops(2.0 * m * (double)n * k);
}

static inline void cblas_dtrsm(CBLAS_LAYOUT layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE ta,
                               CBLAS_DIAG diag, int m, int n, double alpha, const double *a, int lda,
                               double *b, int ldb)
{
    (void)layout, (void)uplo, (void)ta, (void)diag, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    lu_sim_flops(side == CblasLeft ? m * (double)m * n : m * (double)n * n);
}

static inline void cblas_dger(CBLAS_LAYOUT layout, int m, int n, double alpha, const double *x, int incx,
                              const double *y, int incy, double *a, int lda)
{
    (void)layout, (void)alpha, (void)x, (void)incx, (void)y, (void)incy, (void)a, (void)lda;
    lu_sim_bytes(16.0 * m * (double)n);
}

static inline void cblas_dgemv(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE ta, int m, int n, double alpha,
                               const double *a, int lda, const double *x, int incx, double beta, double *y,
                               int incy)
{
    (void)layout, (void)ta, (void)alpha, (void)a, (void)lda, (void)x, (void)incx, (void)beta, (void)y,
        (void)incy;
    lu_sim_bytes(8.0 * m * (double)n);
}

static inline void cblas_dtrsv(CBLAS_LAYOUT layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE ta, CBLAS_DIAG diag,
                               int n, const double *a, int lda, double *x, int incx)
{
    (void)layout, (void)uplo, (void)ta, (void)diag, (void)a, (void)lda, (void)x, (void)incx;
    lu_sim_bytes(4.0 * n * (double)n);
}

static inline void cblas_dscal(int n, double alpha, double *x, int incx)
{
    (void)alpha, (void)x, (void)incx;
    lu_sim_bytes(16.0 * n);
}

static inline void cblas_dswap(int n, double *x, int incx, double *y, int incy)
{
    (void)x, (void)incx, (void)y, (void)incy;
    lu_sim_bytes(32.0 * n);
}

/* real: the fused pivot carries the pivot row's values in its record */
static inline void cblas_dcopy(int n, const double *x, int incx, double *y, int incy)
{
    for (int i = 0; i < n; i++)
        y[(size_t)i * incy] = x[(size_t)i * incx];
    lu_sim_bytes(16.0 * n);
}

static inline double cblas_dasum(int n, const double *x, int incx)
{
    (void)x, (void)incx;
    lu_sim_bytes(8.0 * n);
    return 0.0;
}

/* a pseudo-random index in [0, n): the pivot rows move as on a random matrix */
static inline size_t cblas_idamax(int n, const double *x, int incx)
{
    (void)x, (void)incx;
    lu_sim_bytes(8.0 * n);
    if (n <= 0)
        return 0;
    uint64_t z = ++lu_sim_calls * 0x9E3779B97F4A7C15ull + (uint64_t)n * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (size_t)(z % (uint64_t)n);
}

#endif
