/*
 * test/scalapack_only.c - a program that reaches the BLACS only through
 * ScaLAPACK, as MUMPS, CP2K, PETSc or ELPA users' programs do: it calls MPI
 * and ScaLAPACK (SL_INIT, DESCINIT, NUMROC, PDGESV), never a BLACS routine.
 * Linked under --as-needed, a plain -lblacs-... is dropped from such a
 * program and ScaLAPACK then runs on the reference BLACS inside it;
 * install-check links it with what pkg-config gives and checks, with
 * LD_DEBUG=bindings, that ScaLAPACK's BLACS calls reach this library.
 *
 * With -DGRID_BY_BLACS it makes its grid itself (Cblacs_get,
 * Cblacs_gridinit), as most ScaLAPACK programs do: linked with a part of the
 * static archive only, those calls reach this library and ScaLAPACK's
 * others its own BLACS, which install-check shows is stopped at start-up.
 *
 * Solves A x = b on an NP x 1 grid, N = 40, NB = 4, with A = N I + ones (row
 * pivoting across processes in PDGETRF) and b = A ones, so x = ones.
 *   mpirun -np 2 ./scalapack_only   ->   scalapack_only: x = 1 on 2 processes
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void sl_init_(int *ictxt, int *nprow, int *npcol);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void descinit_(int *desc, int *m, int *n, int *mb, int *nb, int *irsrc, int *icsrc, int *ictxt, int *lld,
               int *info);
int numroc_(int *n, int *nb, int *iproc, int *isrcproc, int *nprocs);
void pdgesv_(int *n, int *nrhs, double *a, int *ia, int *ja, int *desca, int *ipiv, double *b, int *ib,
             int *jb, int *descb, int *info);

int main(int argc, char **argv)
{
    int me, np, ctxt, n = 40, nb = 4, one = 1, zero = 0, info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int nprow = np, npcol = 1, myrow = me, mycol = 0; /* SL_INIT's grid is row-major */
#ifdef GRID_BY_BLACS
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
#else
    sl_init_(&ctxt, &nprow, &npcol);
#endif

    int ml = numroc_(&n, &nb, &myrow, &zero, &nprow), lld = ml > 1 ? ml : 1;
    int desca[9], descb[9];
    descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    double *a = malloc(sizeof *a * (size_t)lld * n), *b = malloc(sizeof *b * (size_t)lld);
    int *ipiv = malloc(sizeof *ipiv * (size_t)(ml + nb));
    for (int r = 0; r < ml; r++) { /* local row r is global row gi */
        int gi = (r / nb) * nb * nprow + myrow * nb + r % nb;
        for (int j = 0; j < n; j++)
            a[r + (size_t)j * lld] = (gi == j ? n : 0) + 1.0;
        b[r] = 2.0 * n;
    }
    pdgesv_(&n, &one, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);

    double err = info == 0 ? 0 : INFINITY;
    for (int r = 0; r < ml; r++)
        err = fmax(err, fabs(b[r] - 1.0));
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf(err < 1e-12 ? "scalapack_only: x = 1 on %d processes\n"
                           : "scalapack_only: FAILED on %d processes\n",
               np);
    free(a), free(b), free(ipiv);
    MPI_Finalize();
    return err < 1e-12 ? 0 : 1;
}
