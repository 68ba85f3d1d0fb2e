/*
 * sim/scalapack/driver.c - one ScaLAPACK driver on one simulated grid, for
 * `make sim-scalapack` (sim/scalapack/run.sh).  Compiled by smpicc and linked
 * with ScaLAPACK's own TOOLS, PBLAS and SRC (sim/scalapack/build.sh), with
 * either its reference BLACS or this library, and with the simulated BLAS of
 * sim/scalapack/simblas.c.
 *
 *   driver --driver gesv|potrf|geqrf|gemm --n N [--nb NB] [--p P --q Q]
 *
 * The N x N matrices are block-cyclic over a P x Q grid (row-major process
 * numbering, as ScaLAPACK's testers and the issue's runs use), blocks NB x NB,
 * filled with ones in SMPI's shared memory (all processes share one block of
 * real memory: only the time and the messages matter, see simblas.c).  One
 * call of the driver is timed between two barriers; every process reports its
 * time in the call and its simulated BLAS time, and process 0 prints
 *
 *   scalapack: driver=gesv n=... nb=... p=... grid=PxQ time_s=... gflops=...
 *              blas_max_s=... blas_mean_s=... info=...
 *
 * time_s is the slowest process's time, gflops the driver's nominal flop
 * count over it (LU 2/3 n^3, Cholesky 1/3 n^3, QR 4/3 n^3, GEMM 2 n^3), and
 * blas_max_s the busiest process's BLAS time: what no network can remove.
 * With SIM_SL_CALLS set, process 0 first prints the time every process spent
 * inside its BLACS calls (calls.c).
 */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

double sim_blas_seconds(void);
void sim_blas_describe(void);

/* the Fortran interfaces (ScaLAPACK and both BLACS; -DAdd_ names) */
void blacs_pinfo_(int *me, int *np);
void blacs_get_(const int *ctxt, const int *what, int *val);
void blacs_gridinit_(int *ctxt, const char *order, const int *p, const int *q, size_t order_len);
void blacs_gridinfo_(const int *ctxt, int *p, int *q, int *row, int *col);
void blacs_gridexit_(const int *ctxt);
void blacs_exit_(const int *cont);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *np);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ctxt, const int *lld, int *info);
void pdgesv_(const int *n, const int *nrhs, double *a, const int *ia, const int *ja, const int *desca,
             int *ipiv, double *b, const int *ib, const int *jb, const int *descb, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              int *info, size_t uplo_len);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              double *tau, double *work, const int *lwork, int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
             const double *a, const int *ia, const int *ja, const int *desca, const double *b, const int *ib,
             const int *jb, const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc, size_t ta_len, size_t tb_len);

static void usage(const char *why)
{
    fprintf(stderr,
            "driver: %s\nusage: driver --driver gesv|potrf|geqrf|gemm --n N [--nb NB] [--p P --q Q]\n", why);
    exit(2);
}

/* a local matrix of rows x cols in shared memory, filled with ones */
static double *ones(int rows, int cols)
{
    size_t n = (size_t)(rows > 1 ? rows : 1) * (size_t)(cols > 1 ? cols : 1);
    double *a = SMPI_SHARED_MALLOC(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        a[i] = 1.0;
    return a;
}

int main(int argc, char **argv)
{
    const char *drv = NULL;
    int n = 0, nb = 128, p = 0, q = 0;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage("an option without a value");
        const char *o = argv[i], *v = argv[++i];
        if (!strcmp(o, "--driver"))
            drv = v;
        else if (!strcmp(o, "--n"))
            n = atoi(v);
        else if (!strcmp(o, "--nb"))
            nb = atoi(v);
        else if (!strcmp(o, "--p"))
            p = atoi(v);
        else if (!strcmp(o, "--q"))
            q = atoi(v);
        else
            usage(o);
    }
    int me, np;
    blacs_pinfo_(&me, &np);
    if (p == 0 && q == 0) { /* the squarest grid, P <= Q */
        for (p = 1; (p + 1) * (p + 1) <= np; p++)
            ;
        while (np % p)
            p--;
        q = np / p;
    }
    if (drv == NULL || n <= 0 || nb <= 0 || p <= 0 || q <= 0 || p * q != np)
        usage("--driver, --n > 0, --nb > 0 and P x Q = the number of processes");
    int kind = !strcmp(drv, "gesv")    ? 0
               : !strcmp(drv, "potrf") ? 1
               : !strcmp(drv, "geqrf") ? 2
               : !strcmp(drv, "gemm")  ? 3
                                       : -1;
    if (kind < 0)
        usage(drv);

    int ctxt, zero = 0, one = 1, negone = -1, myrow, mycol, info = 0;
    blacs_get_(&negone, &zero, &ctxt);
    blacs_gridinit_(&ctxt, "R", &p, &q, 1);
    blacs_gridinfo_(&ctxt, &p, &q, &myrow, &mycol);
    int mloc = numroc_(&n, &nb, &myrow, &zero, &p), nloc = numroc_(&n, &nb, &mycol, &zero, &q);
    int lld = mloc > 1 ? mloc : 1, desc[9], descb[9];
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    double *a = ones(mloc, nloc), *b = NULL, *c = NULL, *work = NULL, *tau = NULL;
    int *ipiv = NULL, lwork = -1;
    if (kind == 0) { /* one right-hand side */
        int nrhsloc = numroc_(&one, &nb, &mycol, &zero, &q);
        descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
        b = ones(mloc, nrhsloc);
        ipiv = malloc(sizeof(int) * (size_t)(mloc + nb));
    } else if (kind == 2) {
        double w;
        tau = malloc(sizeof(double) * (size_t)(nloc + 1));
        pdgeqrf_(&n, &n, a, &one, &one, desc, tau, &w, &lwork, &info);
        lwork = (int)w;
        work = ones(lwork, 1);
    } else if (kind == 3) {
        b = ones(mloc, nloc);
        c = ones(mloc, nloc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double blas0 = sim_blas_seconds(), t0 = MPI_Wtime();
    switch (kind) {
    case 0: pdgesv_(&n, &one, a, &one, &one, desc, ipiv, b, &one, &one, descb, &info); break;
    case 1: pdpotrf_("L", &n, a, &one, &one, desc, &info, 1); break;
    case 2: pdgeqrf_(&n, &n, a, &one, &one, desc, tau, work, &lwork, &info); break;
    default: {
        double alpha = 1.0, beta = 0.0;
        pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c, &one, &one,
                desc, 1, 1);
    }
    }
    double mine[2] = {MPI_Wtime() - t0, sim_blas_seconds() - blas0}, most[2], sum[2];
    MPI_Barrier(MPI_COMM_WORLD);
    calls_report(me, np);
    MPI_Reduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    int worst = 0;
    MPI_Reduce(&info, &worst, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0) {
        static const double share[] = {2.0 / 3.0, 1.0 / 3.0, 4.0 / 3.0, 2.0};
        double flop = share[kind] * (double)n * n * n;
        sim_blas_describe();
        printf("scalapack: driver=%s n=%d nb=%d p=%d grid=%dx%d time_s=%.6f gflops=%.2f blas_max_s=%.6f "
               "blas_mean_s=%.6f info=%d\n",
               drv, n, nb, np, p, q, most[0], flop / most[0] * 1e-9, most[1], sum[1] / np, worst);
    }
    SMPI_SHARED_FREE(a);
    if (b != NULL)
        SMPI_SHARED_FREE(b);
    if (c != NULL)
        SMPI_SHARED_FREE(c);
    if (work != NULL)
        SMPI_SHARED_FREE(work);
    free(ipiv);
    free(tau);
    blacs_gridexit_(&ctxt);
    blacs_exit_(&one); /* MPI continues */
    MPI_Finalize();
    return worst != 0;
}
