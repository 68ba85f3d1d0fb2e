/*
 * test/mpi/mpitest.h - helpers shared by the MPI tests.
 *
 * Every test process counts its own failures (check.h); mpitest_finish()
 * adds them up over MPI_COMM_WORLD, prints one verdict line on rank 0 and
 * returns the exit status, so a failure anywhere fails the run.
 */
#ifndef TEST_MPITEST_H
#define TEST_MPITEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"
#include "check.h"

static int mt_rank, mt_size;
static char mt_who[32];

static inline void mpitest_start(void)
{
    Cblacs_pinfo(&mt_rank, &mt_size);
    snprintf(mt_who, sizeof mt_who, "[rank %d] ", mt_rank);
    check_who = mt_who;
}

/* Sums the failures of every process; rank 0 prints the verdict.  Ends MPI
 * through BLACS_EXIT(0), as a BLACS program does. */
static inline int mpitest_finish(const char *name)
{
    int mine = check_failures(), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("%s: %s on %d processes (%d failures)\n", name, total ? "FAILED" : "passed", mt_size, total);
    fflush(stdout);
    Cblacs_exit(0);
    return total ? 1 : 0;
}

/* The grid shapes every sweep visits on np processes: 1 x np, np x 1, 2 x 2,
 * 2 x 3 and 3 x 3 where they fit; processes beyond P*Q stay idle. */
typedef struct {
    int p, q;
} mt_grid;

static inline int mpitest_grids(int np, mt_grid *g)
{
    const mt_grid all[] = {{1, np}, {np, 1}, {2, 2}, {2, 3}, {3, 3}};
    int n = 0;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (all[k].p * all[k].q > np)
            continue;
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= g[j].p == all[k].p && g[j].q == all[k].q;
        if (!dup)
            g[n++] = all[k];
    }
    return n;
}

/* A P x Q grid made (row-major) with BLACS_ALGORITHM set to 'algorithms'
 * (read when a grid is made, by its process 0, for every member), whose
 * default TOP then runs the algorithms named where they can run; collective
 * over MPI_COMM_WORLD, as BLACS_GRIDINIT is. */
static inline int mpitest_grid_forcing(const char *algorithms, int nprow, int npcol)
{
    int ctxt;
    const char *old = getenv("BLACS_ALGORITHM");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("BLACS_ALGORITHM", algorithms, 1);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    if (saved != NULL)
        setenv("BLACS_ALGORITHM", saved, 1);
    else
        unsetenv("BLACS_ALGORITHM");
    free(saved);
    return ctxt;
}

/* A deterministic value for element k of a matrix sent by 'who', exact in
 * every BLACS type (small integers). */
static inline int mt_value(int who, int salt, long k)
{
    return (int)((who * 7919 + salt * 131 + k) % 100003) - 50000;
}

#endif
