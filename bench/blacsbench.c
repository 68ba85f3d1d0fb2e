/*
 * bench/blacsbench.c - the BLACS benchmark: LAWN 73's timing codes
 * (Appendix D: T_c, T_s, T_m, the broadcast and the combine surveys) and
 * CoMet's kernels (section 2.2: echo, pairwise exchange, broadcast, global
 * sum, barrier, echo with contention, overlap, guard update, shift,
 * transpose, row and column broadcast), each timed on the BLACS and on raw
 * MPI over the same processes.
 *
 * One set of sources, two binaries: build/bench/blacsbench (this library)
 * and build/bench/blacsbench-ref (the reference BLACS inside Debian's
 * libscalapack-openmpi).  Only the public C interface of the BLACS is used,
 * plus MPI.  This file holds main and the grids; bench.h lists the others.
 *
 *   mpirun -np 4 build/bench/blacsbench --series tc,bcast --sizes 8,64K,1M --csv out.csv
 *   build/bench/blacsbench --help
 *
 * Output: one CSV row per measurement, appended by rank 0 (header once):
 *
 *   impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us
 *
 * impl is "ours" or "ref" for the BLACS (--impl), "mpi" for raw MPI; top is
 * the TOP letter ('_' = the blank default TOP, '-' = no TOP); bytes is the
 * message size (matrix kernels: the local block); t_us is microseconds per
 * operation, the time of interest of the series (see the table SERIES in
 * series.c and bench/README.md); t_src_us is the source's time for broadcasts.
 *
 * Raw MPI runs on an MPI_Comm_dup of the grid's own communicator (same
 * processes, ranks = blacs_pnum), so BLACS and MPI traffic never mix.
 *
 * Every kernel checks the data it moved: a verification run with fresh
 * data and cleared destinations before timing, and, where the data stay
 * predictable, a check after every timed trial.  A wrong element prints
 * "VERIFY FAILED" and the run aborts with a non-zero status.
 * --inject-fault corrupts the data rank 0 sends in the verification run
 * (and makes the barrier skip synchronizing), so that the tests can show
 * that every check fails when it must.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "bench.h"
#include "blacs.h"

static bench B;

/* ---------------------------------------------------------------------------
 * Grids
 * ------------------------------------------------------------------------ */
static void grid_init(grid *g, int P, int Q)
{
    memset(g, 0, sizeof *g);
    Cblacs_get(0, 0, &g->ctxt); /* default system context: MPI_COMM_WORLD */
    Cblacs_gridinit(&g->ctxt, "Row", P, Q);
    Cblacs_gridinfo(g->ctxt, &g->P, &g->Q, &g->myrow, &g->mycol);
    snprintf(g->name, sizeof g->name, "%dx%d", P, Q);
    g->np = P * Q;
    g->comm = g->rowcomm = g->colcomm = MPI_COMM_NULL;
    if (g->myrow < 0 || g->myrow >= P) { /* outside the grid */
        g->ctxt = -1;
        return;
    }
    int h;
    Cblacs_get(g->ctxt, 10, &h); /* the grid's own (point-to-point) communicator */
    MPI_Comm_dup(Cblacs2sys_handle(h), &g->comm);
    MPI_Comm_rank(g->comm, &g->me);
    if (g->me != Cblacs_pnum(g->ctxt, g->myrow, g->mycol))
        bench_die("grid %s: MPI rank %d is not blacs_pnum %d", g->name, g->me,
                  Cblacs_pnum(g->ctxt, g->myrow, g->mycol));
    MPI_Comm_split(g->comm, g->myrow, g->mycol, &g->rowcomm);
    MPI_Comm_split(g->comm, g->mycol, g->myrow, &g->colcomm);
}

/* Applies --set to a grid (after the library has checked the values). */
static void grid_settings(const grid *g, const config *c)
{
    for (int i = 0; g->ctxt >= 0 && i < c->nset; i++) {
        int v = c->set_val[i], got = 0;
        Cblacs_set(g->ctxt, c->set_what[i], &v);
        Cblacs_get(g->ctxt, c->set_what[i], &got);
        if (got != c->set_val[i])
            bench_die("grid %s: BLACS_SET %d = %d did not take (BLACS_GET gives %d)", g->name, c->set_what[i],
                      c->set_val[i], got);
    }
}

static void grid_exit(grid *g)
{
    if (g->ctxt < 0)
        return;
    MPI_Comm_free(&g->rowcomm);
    MPI_Comm_free(&g->colcomm);
    MPI_Comm_free(&g->comm);
    Cblacs_gridexit(g->ctxt);
}

static void squarest(int np, int *P, int *Q)
{
    int p = (int)sqrt((double)np);
    while (p > 1 && np % p)
        p--;
    *P = p < 1 ? 1 : p;
    *Q = np / *P;
}

/* Rank 0: the CSV (header if new) and the banner on stderr. */
static void open_output(bench *b)
{
    const config *c = &b->cfg;
    b->csv = fopen(c->csv, "a");
    if (!b->csv)
        bench_die("cannot open %s", c->csv);
    if (ftell(b->csv) == 0)
        fprintf(b->csv, "impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us\n");
    if (!c->quiet) {
        char tops[32];
        snprintf(tops, sizeof tops, "%s", c->tops);
        for (char *t = tops; *t; t++)
            *t = *t == ' ' ? '_' : *t;
        char set[64] = "";
        for (int i = 0, n = 0; i < c->nset; i++)
            n += snprintf(set + n, sizeof set - (size_t)n, ", set %d=%d", c->set_what[i], c->set_val[i]);
        fprintf(stderr,
                "blacsbench (%s): %d processes, grid %dx%d, %d sizes, TOPs %s, reps %s, %d trials%s, csv "
                "%s\n",
                c->impl, b->wsize, c->P, c->Q, c->nsizes, tops, c->reps ? "fixed" : "auto", c->trials, set,
                c->csv);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    bench *b = &B;
    int me, np;
    Cblacs_pinfo(&me, &np);
    b->wrank = me;
    b->wsize = np;
    bench_parse_args(&b->cfg, argc, argv);
    config *c = &b->cfg;
    if (c->list) { /* for drivers: expand groups into series names */
        if (me == 0)
            bench_list_series(c->series);
        MPI_Finalize();
        return 0;
    }
    if (c->P == 0)
        squarest(np, &c->P, &c->Q);
    if (c->P * c->Q > np)
        bench_die("grid %dx%d needs %d processes, have %d", c->P, c->Q, c->P * c->Q, np);
    b->t0 = MPI_Wtime();

    if (me == 0)
        open_output(b);
    grid_init(&b->row, 1, np);
    grid_init(&b->mat, c->P, c->Q);
    grid_settings(&b->row, c);
    grid_settings(&b->mat, c);

    bench_run_selected(b);

    if (me == 0)
        fclose(b->csv);
    grid_exit(&b->mat);
    grid_exit(&b->row);
    Cblacs_exit(0); /* also finalizes MPI */
    return 0;
}
