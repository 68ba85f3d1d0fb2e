/*
 * test/mpi/t_wait.c - how the library's waits wait (BLACS_WAIT): MPI's
 * blocking waits, or loops of MPI_Test that yield the processor, which a
 * node with more processes than processors needs (MPICH's blocking waits
 * spin without giving way).
 *
 *   t_wait MODE    MODE is set as BLACS_WAIT before the first BLACS call:
 *                  block, yield, or auto (yield exactly where the launcher
 *                  says this node runs more processes than it has
 *                  processors and MPI's own waits do not yield: Open MPI's
 *                  do when its launcher passes mpi_oversubscribe, unless
 *                  mpi_yield_when_idle says otherwise); anything else must
 *                  be refused.
 *
 * The test stands between the library and MPI (PMPI): it counts the calls
 * of MPI_Wait, MPI_Waitany and MPI_Waitall, and of MPI_Test, that the
 * library makes inside one BLACS call whose message is sent late (the
 * other process sleeps 100 ms first): a receive, the receivers of a 1 MiB
 * broadcast, and a sum over the grid.  Where waits yield, no blocking wait
 * may be called there and tests must be; where they block, at least one
 * blocking wait must be.  Every element received is checked.
 */
#include <time.h>
#include <unistd.h>

#include "mpitest.h"

static long waits, tests;

int MPI_Wait(MPI_Request *r, MPI_Status *st)
{
    waits++;
    return PMPI_Wait(r, st);
}

int MPI_Waitany(int n, MPI_Request *r, int *k, MPI_Status *st)
{
    waits++;
    return PMPI_Waitany(n, r, k, st);
}

int MPI_Waitall(int n, MPI_Request *r, MPI_Status *st)
{
    waits++;
    return PMPI_Waitall(n, r, st);
}

int MPI_Test(MPI_Request *r, int *done, MPI_Status *st)
{
    tests++;
    return PMPI_Test(r, done, st);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* What the library must do under 'mode' on this node: 1 yield, 0 block. */
static int expect_yield(const char *mode)
{
    if (strcmp(mode, "auto") != 0)
        return strcmp(mode, "yield") == 0;
    const char *names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    long procs = 0, cpus = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 0; i < 2 && procs == 0; i++)
        if (getenv(names[i]) != NULL)
            procs = atol(getenv(names[i]));
    const char *set = getenv("OMPI_MCA_mpi_yield_when_idle"), *over = getenv("OMPI_MCA_mpi_oversubscribe");
    const char *v = set != NULL && *set ? set : over;
    int mpi_yields = v != NULL && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
    return procs > 0 && cpus > 0 && procs > cpus && !mpi_yields;
}

/* The counts of one late call on the waiting process, against the mode. */
static void verdict(const char *what, int yield, long w, long t)
{
    if (yield)
        CHECK(w == 0 && t >= 1, "%s: waits yield, but %ld blocking waits and %ld tests", what, w, t);
    else
        CHECK(w >= 1, "%s: waits block, but %ld blocking waits (and %ld tests)", what, w, t);
}

enum { N = 131072 }; /* doubles: 1 MiB */

static void late_calls(int ctxt, int me, int yield)
{
    static double a[N];
    int late = me == 0; /* process 0 sleeps, process 1 waits */
    long w0, t0;

    /* a receive whose message comes late */
    for (int k = 0; k < 8; k++)
        a[k] = me == 0 ? mt_value(0, 1, k) : 0;
    if (late) {
        sleep_ms(100);
        Cdgesd2d(ctxt, 8, 1, a, 8, 0, 1);
    } else {
        w0 = waits, t0 = tests;
        Cdgerv2d(ctxt, 8, 1, a, 8, 0, 0);
        verdict("a receive", yield, waits - w0, tests - t0);
        for (int k = 0; k < 8; k++)
            CHECK(a[k] == mt_value(0, 1, k), "receive: a[%d] = %g", k, a[k]);
    }

    /* a broadcast of 1 MiB whose source comes late */
    for (int k = 0; k < N; k++)
        a[k] = me == 0 ? mt_value(0, 2, k) : 0;
    if (late) {
        sleep_ms(100);
        Cdgebs2d(ctxt, "All", " ", N, 1, a, N);
    } else {
        w0 = waits, t0 = tests;
        Cdgebr2d(ctxt, "All", " ", N, 1, a, N, 0, 0);
        verdict("a broadcast", yield, waits - w0, tests - t0);
        int bad = 0;
        for (int k = 0; k < N; k++)
            bad += a[k] != mt_value(0, 2, k);
        CHECK(bad == 0, "broadcast: %d of %d elements wrong", bad, N);
    }

    /* a sum to all, one of whose processes comes late */
    for (int k = 0; k < 1000; k++)
        a[k] = mt_value(me, 3, k);
    if (late)
        sleep_ms(100);
    w0 = waits, t0 = tests;
    Cdgsum2d(ctxt, "All", " ", 1000, 1, a, 1000, -1, -1);
    if (!late)
        verdict("a sum", yield, waits - w0, tests - t0);
    int bad = 0;
    for (int k = 0; k < 1000; k++)
        bad += a[k] != (double)mt_value(0, 3, k) + mt_value(1, 3, k);
    CHECK(bad == 0, "sum: %d of 1000 elements wrong", bad);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "auto";
    setenv("BLACS_WAIT", mode, 1);
    mpitest_start();
    int yield = expect_yield(mode), ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    if (ctxt >= 0) {
        Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
        late_calls(ctxt, mycol, yield);
        Cblacs_gridexit(ctxt);
    }
    if (mt_rank == 0)
        printf("t_wait: BLACS_WAIT=%s, waits %s\n", mode, yield ? "yield" : "block");
    return mpitest_finish("t_wait");
}
