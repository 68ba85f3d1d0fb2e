/*
 * test/mpi/t_gridcycle.c - 2,000 gridinit/gridexit cycles leak neither MPI
 * communicators nor memory.
 *
 * Each cycle makes a grid (alternately by gridinit and by gridmap, with a
 * process left out on odd counts), sends one message around it and exits it.
 * Communicator leaks are seen through Fortran handles: MPI hands out the
 * lowest free slots of its communicator table, so the handles of probe
 * communicators duplicated after the cycles equal those before them unless
 * communicators were left behind.  Memory is the resident set size after a
 * warm-up of 100 cycles against after all 2,000.
 */
#include "mpitest.h"

static long rss_kib(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * 4;
}

/* The largest Fortran handle among 8 fresh communicators: leaked ones fill
 * the low slots, so it grows as soon as a few communicators leak. */
static int probe_handle(void)
{
    MPI_Comm c[8];
    int h = 0;
    for (int k = 0; k < 8; k++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c[k]);
        int f = (int)MPI_Comm_c2f(c[k]);
        h = f > h ? f : h;
    }
    for (int k = 0; k < 8; k++)
        MPI_Comm_free(&c[k]);
    return h;
}

static void cycle(int k)
{
    int ctxt, nprow, npcol, myrow, mycol;
    int n = mt_size - (mt_size > 2 && k % 2);
    Cblacs_get(0, 0, &ctxt);
    if (k % 2 == 0) {
        Cblacs_gridinit(&ctxt, "C", 1, n);
    } else {
        int map[64];
        for (int j = 0; j < n; j++)
            map[j] = n - 1 - j;
        Cblacs_gridmap(&ctxt, map, 1, 1, n);
    }
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (ctxt < 0)
        return;
    int x = k + mycol, y = -1;
    Cigesd2d(ctxt, 1, 1, &x, 1, 0, (mycol + 1) % npcol);
    Cigerv2d(ctxt, 1, 1, &y, 1, 0, (mycol + npcol - 1) % npcol);
    CHECK(y == k + (mycol + npcol - 1) % npcol, "cycle %d got %d", k, y);
    Cblacs_gridexit(ctxt);
}

int main(void)
{
    mpitest_start();
    for (int k = 0; k < 100; k++)
        cycle(k);
    int h0 = probe_handle();
    long m0 = rss_kib();
    for (int k = 100; k < 2000; k++)
        cycle(k);
    Cblacs_freebuff(0, 1);
    int h1 = probe_handle();
    long m1 = rss_kib();
    CHECK(h1 == h0, "communicator table grew: probe handle %d before, %d after", h0, h1);
    CHECK(m1 - m0 < 2048, "resident memory grew by %ld KiB over 1900 cycles", m1 - m0);
    if (mt_rank == 0)
        printf("t_gridcycle: probe handle %d -> %d, RSS %ld -> %ld KiB\n", h0, h1, m0, m1);
    return mpitest_finish("t_gridcycle");
}
