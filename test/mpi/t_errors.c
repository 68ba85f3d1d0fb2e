/*
 * test/mpi/t_errors.c CASE - one bad call per run; run-mpi.sh expects a clear
 * BLACS error on stderr naming the routine, the argument and the process,
 * and a non-zero exit of the whole job, never a hang or a crash.
 *
 * Every case runs on a 2 x 2 grid (4 processes); only the process {0,1}
 * makes the bad call unless the call is collective.  The others wait in a
 * barrier that only the abort can end.
 */
#include <stdlib.h>
#include <time.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "late_receiver"))
        setenv("BLACS_BUFFER_WAIT", "1", 1);
    if (!strcmp(what, "buffer_limit")) { /* read on the first send */
        setenv("BLACS_BUFFER_LIMIT", "200000", 1);
        setenv("BLACS_BUFFER_WAIT", "1", 1);
    }
    if (!strcmp(what, "bad_nodes")) /* read when a grid is made */
        setenv("BLACS_NODES", "3:round", 1);
    if (!strcmp(what, "bad_model_level"))
        setenv("BLACS_MODEL", "alpha=1e-6,net.beta=1e-10,node.speed=2", 1);
    if (!strcmp(what, "missing_model_file"))
        setenv("BLACS_MODEL_FILE", "/nonexistent/blacs-model", 1);
    mpitest_start();
    if (!strcmp(what, "bad_model_file") && mt_rank == 0) { /* only process 0 reads it */
        static char path[4096];
        snprintf(path, sizeof path, "%.4000s.model", argv[0]);
        FILE *f = fopen(path, "w");
        if (f == NULL || fputs("# a tuning file\ngamma=1e-11\nnode.alpha=1e-6 beta=2e-10\n", f) < 0 ||
            fclose(f))
            return 2;
        setenv("BLACS_MODEL_FILE", path, 1);
    }
    int ctxt, nprow, npcol, myrow, mycol;
    double a[64] = {0};
    Cblacs_get(0, 0, &ctxt);
    if (!strcmp(what, "grid_too_big"))
        Cblacs_gridinit(&ctxt, "R", 3, 3);
    if (!strcmp(what, "grid_zero"))
        Cblacs_gridinit(&ctxt, "R", 0, 2);
    if (!strcmp(what, "gridmap_twice")) {
        int map[4] = {0, 1, 1, 3};
        Cblacs_gridmap(&ctxt, map, 2, 2, 2);
    }
    if (!strcmp(what, "bad_syshandle")) {
        ctxt = 55;
        Cblacs_gridinit(&ctxt, "R", 2, 2);
    }
    Cblacs_gridinit(&ctxt, "R", 2, 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int actor = myrow == 0 && mycol == 1;

    if (!strcmp(what, "invalid_ctx") && actor)
        Cdgesd2d(99, 2, 2, a, 2, 0, 0);
    if (!strcmp(what, "outside_ctx") && mt_rank >= 4)
        Cdgesd2d(ctxt, 2, 2, a, 2, 0, 0); /* ctxt is -1 outside the grid */
    if (!strcmp(what, "exited_ctx")) {
        int old = ctxt;
        Cblacs_gridexit(ctxt);
        if (actor)
            Cdgerv2d(old, 2, 2, a, 2, 0, 0);
    }
    if (!strcmp(what, "dest_outside") && actor)
        Cdgesd2d(ctxt, 2, 2, a, 2, 5, 0);
    if (!strcmp(what, "src_outside") && actor)
        Cigerv2d(ctxt, 1, 1, (int *)a, 1, 0, -1);
    if (!strcmp(what, "m_negative") && actor)
        Czgesd2d(ctxt, -1, 2, a, 2, 0, 0);
    if (!strcmp(what, "n_negative") && actor)
        Cstrrv2d(ctxt, "U", "N", 2, -3, (float *)a, 2, 0, 0);
    if (!strcmp(what, "bad_uplo") && actor)
        Cdtrsd2d(ctxt, "X", "N", 2, 2, a, 2, 0, 0);
    if (!strcmp(what, "bad_diag") && actor)
        Cctrsd2d(ctxt, "L", "q", 2, 2, (float *)a, 2, 0, 0);
    if (!strcmp(what, "fortran_dest") && actor) {
        int c = ctxt, m = 1, n = 1, lda = 1, r = 0, k = 7;
        dgesd2d_(&c, &m, &n, a, &lda, &r, &k);
    }
    if (!strcmp(what, "size_mismatch")) {
        if (myrow == 0 && mycol == 0)
            Cdgesd2d(ctxt, 4, 1, a, 4, 0, 1);
        if (actor)
            Cdgerv2d(ctxt, 3, 1, a, 3, 0, 0);
    }
    if (!strcmp(what, "gridexit_twice")) {
        Cblacs_gridexit(ctxt);
        if (actor)
            Cblacs_gridexit(ctxt);
    }
    if (!strcmp(what, "stale_syshandle")) {
        int sys; /* the handle of the grid's communicator dies with the grid */
        Cblacs_get(ctxt, 10, &sys);
        Cblacs_gridexit(ctxt);
        Cblacs_gridinit(&sys, "R", 1, 1);
    }
    if (!strcmp(what, "gridexit_bad") && actor)
        Cblacs_gridexit(42);
    if (!strcmp(what, "buffer_limit") && actor) {
        double *big = calloc(10000, sizeof *big);
        for (int k = 0; k < 100; k++) /* 80 KB each, never received */
            Cdgesd2d(ctxt, 10000, 1, big, 10000, 0, 0);
    }
    if (!strcmp(what, "bcast_scope") && actor)
        Cdgebs2d(ctxt, "Q", " ", 2, 2, a, 2);
    if (!strcmp(what, "bcast_top")) {
        /* only the receivers give the bad TOP: a sender's abort with the
         * same error could otherwise kill them before they print theirs */
        if (myrow == 0 && mycol == 0)
            Czgebs2d(ctxt, "All", " ", 1, 1, a, 1);
        else
            Czgebr2d(ctxt, "All", "x", 1, 1, a, 1, 0, 0);
    }
    if (!strcmp(what, "combine_top"))
        Csgsum2d(ctxt, "Row", "0", 1, 1, (float *)a, 1, -1, -1);
    if (!strcmp(what, "combine_scope") && actor) {
        int c = ctxt, one = 1, m1 = -1;
        int ra, ca;
        igamx2d_(&c, "z", " ", &one, &one, (int *)a, &one, &ra, &ca, &one, &m1, &m1);
    }
    if (!strcmp(what, "empty_top") && actor)
        Cdgebs2d(ctxt, "Row", "", 2, 2, a, 2);
    if (!strcmp(what, "null_ra")) {
        int ca[1];
        Cdgamx2d(ctxt, "Col", " ", 1, 1, a, 1, NULL, ca, 1, -1, -1);
    }
    if (!strcmp(what, "bcast_self") && actor)
        Cdgebr2d(ctxt, "Row", " ", 2, 2, a, 2, 0, 1);
    if (!strcmp(what, "combine_dest")) {
        int ra[1], ca[1];
        Cigamx2d(ctxt, "All", " ", 1, 1, (int *)a, 1, ra, ca, 1, 0, 4);
    }
    if (!strcmp(what, "bcast_size")) {
        if (myrow == 0 && mycol == 0)
            Cdgebs2d(ctxt, "All", "F", 4, 1, a, 4);
        else
            Cdgebr2d(ctxt, "All", "F", 3, 1, a, 3, 0, 0);
    }
    /* LAWN 73's extensions (blacs.h, "Extensions") */
    if (!strcmp(what, "any_src") && actor) {
        int r = -2, c = -1;
        Cdgerva2d(ctxt, 1, 1, a, 1, &r, &c);
    }
    if (!strcmp(what, "any_col") && actor) {
        int r = -1, c = 2;
        Cstrrva2d(ctxt, "U", "N", 2, 2, (float *)a, 2, &r, &c);
    }
    if (!strcmp(what, "any_size")) {
        if (myrow == 1 && mycol == 1)
            Cdgesd2d(ctxt, 4, 1, a, 4, 0, 1);
        if (actor) {
            int r = -1, c = -1;
            Cdgerva2d(ctxt, 5, 1, a, 5, &r, &c);
        }
    }
    if (!strcmp(what, "uop_uplo"))
        Cdtuop2d(ctxt, "All", " ", "T", "N", 2, 2, a, 2, -1, -1, NULL, NULL, NULL);
    if (!strcmp(what, "uop_null") && actor)
        Cztuop2d(ctxt, "Row", " ", "G", "N", 2, 2, a, 2, 0, 0, NULL, NULL, NULL);
    if (!strcmp(what, "late_receiver")) {
        /* Not an error: BLACS_EXIT waits for the send however late the
         * receive comes, warning once after BLACS_BUFFER_WAIT seconds. */
        double *big = calloc(1 << 17, sizeof *big); /* 1 MiB: beyond MPI's eager limit */
        if (actor)
            Cdgesd2d(ctxt, 1 << 17, 1, big, 1 << 17, 0, 0);
        if (myrow == 0 && mycol == 0) {
            nanosleep(&(struct timespec){3, 0}, NULL);
            Cdgerv2d(ctxt, 1 << 17, 1, big, 1 << 17, 0, 1);
        }
        free(big);
        Cblacs_exit(0);
        return 0;
    }
    /* Nobody gets past this: the erring process aborts the job. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("t_errors %s: no error was raised\n", what);
    Cblacs_exit(0);
    return 0;
}
