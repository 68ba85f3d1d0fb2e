/*
 * sim/scalapack/simblas.c - the BLAS that ScaLAPACK's drivers call, as
 * simulated time, for `make sim-scalapack`: the Fortran-callable routines
 * (dgemm_, dger_, idamax_, ...) that PBLAS and ScaLAPACK's Fortran call,
 * charged to the calling process at the rates of sim/lu_simblas.h (level 3
 * at LU_SIM_GFLOPS GFLOP/s, levels 1 and 2 by the bytes they move at
 * LU_SIM_GBPS GB/s; defaults measured on one core of this project's machine).
 * Linked into the simulated program ahead of LAPACK, so that LAPACK's own
 * calls (DLARFG's DNRM2 and DSCAL) are charged the same way.
 *
 * Nothing is computed: only the time and the messages matter.  The values
 * the drivers test are chosen so that they run their general path on a
 * matrix of ones (sim/scalapack/driver.c): IDAMAX a pseudo-random index (the
 * pivot rows move as on a random matrix), DNRM2 and DASUM 1 (a Householder
 * vector is never zero), DDOT 0 (Cholesky's diagonal stays positive).
 *
 * Each process also adds up the time it was charged (sim_blas_seconds), so
 * that the driver can tell computation from communication and waiting.
 */
#include "lu_simblas.h"

double sim_blas_seconds(void);
void sim_blas_describe(void);

static double blas_seconds; /* per simulated process (SMPI privatises globals) */

double sim_blas_seconds(void) { return blas_seconds; }

void sim_blas_describe(void) { lu_sim_describe(); }

static void flops(double f)
{
    lu_sim_flops(f);
    blas_seconds += f / (lu_sim_gflops * 1e9);
}

static void bytes(double b)
{
    lu_sim_bytes(b);
    blas_seconds += b / (lu_sim_gbps * 1e9);
}

static int left(const char *side) { return *side == 'L' || *side == 'l'; }

/* Level 3: flops.  Character arguments' hidden lengths are not read. */
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, ...);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, ...)
{
    (void)ta, (void)tb;
    flops(2.0 * *m * (double)*n * *k);
}

void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m, const int *n,
            ...);
void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m, const int *n,
            ...)
{
    (void)uplo, (void)ta, (void)diag;
    flops(left(side) ? *m * (double)*m * *n : *m * (double)*n * *n);
}

void dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m, const int *n,
            ...);
void dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m, const int *n,
            ...)
{
    (void)uplo, (void)ta, (void)diag;
    flops(left(side) ? *m * (double)*m * *n : *m * (double)*n * *n);
}

void dsymm_(const char *side, const char *uplo, const int *m, const int *n, ...);
void dsymm_(const char *side, const char *uplo, const int *m, const int *n, ...)
{
    (void)uplo;
    flops(left(side) ? 2.0 * *m * (double)*m * *n : 2.0 * *m * (double)*n * *n);
}

void dsyrk_(const char *uplo, const char *t, const int *n, const int *k, ...);
void dsyrk_(const char *uplo, const char *t, const int *n, const int *k, ...)
{
    (void)uplo, (void)t;
    flops(*n * (double)(*n + 1) * *k);
}

void dsyr2k_(const char *uplo, const char *t, const int *n, const int *k, ...);
void dsyr2k_(const char *uplo, const char *t, const int *n, const int *k, ...)
{
    (void)uplo, (void)t;
    flops(2.0 * *n * (double)*n * *k);
}

/* Level 2: the matrix's bytes, read (and written by the rank-one updates) */
void dgemv_(const char *t, const int *m, const int *n, ...);
void dgemv_(const char *t, const int *m, const int *n, ...)
{
    (void)t;
    bytes(8.0 * *m * (double)*n);
}

void dger_(const int *m, const int *n, ...);
void dger_(const int *m, const int *n, ...) { bytes(16.0 * *m * (double)*n); }

void dsymv_(const char *uplo, const int *n, ...);
void dsymv_(const char *uplo, const int *n, ...)
{
    (void)uplo;
    bytes(4.0 * *n * (double)*n);
}

void dsyr_(const char *uplo, const int *n, ...);
void dsyr_(const char *uplo, const int *n, ...)
{
    (void)uplo;
    bytes(8.0 * *n * (double)*n);
}

void dsyr2_(const char *uplo, const int *n, ...);
void dsyr2_(const char *uplo, const int *n, ...)
{
    (void)uplo;
    bytes(8.0 * *n * (double)*n);
}

void dtrmv_(const char *uplo, const char *t, const char *diag, const int *n, ...);
void dtrmv_(const char *uplo, const char *t, const char *diag, const int *n, ...)
{
    (void)uplo, (void)t, (void)diag;
    bytes(4.0 * *n * (double)*n);
}

void dtrsv_(const char *uplo, const char *t, const char *diag, const int *n, ...);
void dtrsv_(const char *uplo, const char *t, const char *diag, const int *n, ...)
{
    (void)uplo, (void)t, (void)diag;
    bytes(4.0 * *n * (double)*n);
}

/* Level 1: the vectors' bytes */
void daxpy_(const int *n, ...);
void daxpy_(const int *n, ...) { bytes(24.0 * *n); }

void dcopy_(const int *n, ...);
void dcopy_(const int *n, ...) { bytes(16.0 * *n); }

void dscal_(const int *n, ...);
void dscal_(const int *n, ...) { bytes(16.0 * *n); }

void dswap_(const int *n, ...);
void dswap_(const int *n, ...) { bytes(32.0 * *n); }

void drot_(const int *n, ...);
void drot_(const int *n, ...) { bytes(32.0 * *n); }

double ddot_(const int *n, ...);
double ddot_(const int *n, ...)
{
    bytes(16.0 * *n);
    return 0.0;
}

double dnrm2_(const int *n, ...);
double dnrm2_(const int *n, ...)
{
    bytes(8.0 * *n);
    return 1.0;
}

double dasum_(const int *n, ...);
double dasum_(const int *n, ...)
{
    bytes(8.0 * *n);
    return 1.0;
}

int idamax_(const int *n, ...);
int idamax_(const int *n, ...)
{
    size_t i = cblas_idamax(*n, NULL, 1); /* charges the 8n bytes it reads */
    blas_seconds += 8.0 * *n / (lu_sim_gbps * 1e9);
    return *n > 0 ? (int)i + 1 : 0;
}
