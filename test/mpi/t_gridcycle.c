/*
 * test/mpi/t_gridcycle.c - 2,000 gridinit/gridexit cycles leak neither MPI
 * communicators nor memory.
 *
 * Each cycle makes a grid (alternately by gridinit and by gridmap, with a
 * process left out on odd counts), sends one message around it and exits it.
 * Communicator leaks are seen through Fortran handles: MPI hands out the
 * lowest free slots of its communicator table, so the handles of probe
 * communicators duplicated after the cycles equal those before them unless
 * communicators were left behind.  Memory, after a warm-up of 100 cycles
 * against after all 2,000: the bytes in use in malloc's heap (glibc's
 * mallinfo2), which shows a leak of a few hundred bytes per grid, and the
 * resident set size, which shows large leaks whatever allocates them.
 */
#include <malloc.h>
#include <unistd.h>

#include "mpitest.h"

/* Heap growth allowed over the 1,900 measured cycles, for what Open MPI
 * keeps (8 to 20 KB per process, measured on 2 to 8 processes); a leak of
 * 256 bytes per grid comes to 243,200 bytes even on a process that sits out
 * every other grid. */
#define HEAP_SLACK 100000L

/* Resident set size in KiB, or -1 if /proc cannot tell. */
static long rss_kib(void)
{
    long pages = 0, rss = -1, page = sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = -1;
        fclose(f);
    }
    CHECK(rss > 0 && page > 0, "no resident set size from /proc/self/statm (%ld pages of %ld bytes)", rss,
          page);
    return rss > 0 && page > 0 ? rss * (page / 1024) : -1;
}

/* Bytes handed out by malloc and not freed (main arena and mmapped blocks). */
static long heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long)(mi.uordblks + mi.hblkhd);
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
    Cblacs_freebuff(0, 1);
    int h0 = probe_handle();
    long m0 = rss_kib(), b0 = heap_bytes();
    for (int k = 100; k < 2000; k++)
        cycle(k);
    Cblacs_freebuff(0, 1);
    int h1 = probe_handle();
    long m1 = rss_kib(), b1 = heap_bytes();
    CHECK(h1 == h0, "communicator table grew: probe handle %d before, %d after", h0, h1);
    CHECK(b1 - b0 < HEAP_SLACK, "the heap grew by %ld bytes over 1900 cycles (%ld per cycle)", b1 - b0,
          (b1 - b0) / 1900);
    CHECK(m0 > 0 && m1 > 0 && m1 - m0 < 2048, "resident memory went from %ld to %ld KiB over 1900 cycles", m0,
          m1);
    if (mt_rank == 0)
        printf("t_gridcycle: probe handle %d -> %d, heap %ld -> %ld bytes, RSS %ld -> %ld KiB\n", h0, h1, b0,
               b1, m0, m1);
    return mpitest_finish("t_gridcycle");
}
