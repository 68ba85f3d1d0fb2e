/*
 * test/mpi/t_exchange.c - locally-blocking sends (LAWN 73 section 3.1 and
 * 6.2.2).
 *
 * 1. The program of LAWN 73 figure 3: two processes both send, then both
 *    receive, for every size from 8 bytes to 8 MiB (doubling), contiguous and
 *    with LDA > M.  With globally-blocking sends it hangs from MPI's eager
 *    limit on; here it must complete with the right data.
 * 2. One process sends 1,000 messages (of 8 bytes to 256 KiB) to another
 *    before the other posts a single receive; then they are received in order.
 * 3. Afterwards every buffer is reclaimed by the polling of ordinary BLACS
 *    calls: no active buffer, at most one idle buffer, and none after
 *    BLACS_FREEBUFF.
 */
#include <time.h>

#include "../../buffers/queue.h"
#include "mpitest.h"

static void fill(double *a, size_t n, int who, int salt)
{
    for (size_t k = 0; k < n; k++)
        a[k] = (double)(who * 1000003 + salt * 7 + (long)k);
}

static void figure3(int ctxt, int mycol, int partner)
{
    for (size_t bytes = 8; bytes <= ((size_t)8 << 20); bytes *= 2) {
        for (int gap = 0; gap <= 1; gap++) {
            int m = (int)(bytes / 8), n = 1, lda = m;
            if (gap && m >= 4) { /* same bytes as an (m/4) x 4 block with LDA > M */
                m /= 4;
                n = 4;
                lda = m + 3;
            } else if (gap) {
                continue;
            }
            size_t cells = (size_t)lda * n;
            double *a = malloc(cells * 8), *b = malloc(cells * 8);
            fill(a, cells, mycol, (int)bytes);
            for (size_t k = 0; k < cells; k++)
                b[k] = -1;
            Cdgesd2d(ctxt, m, n, a, lda, 0, partner);
            Cdgerv2d(ctxt, m, n, b, lda, 0, partner);
            int bad = 0;
            for (int j = 0; j < n && !bad; j++)
                for (int i = 0; i < lda && !bad; i++) {
                    size_t k = (size_t)i + (size_t)j * lda;
                    double want = i < m ? (double)(partner * 1000003 + (int)bytes * 7 + (long)k) : -1;
                    if (b[k] != want) {
                        bad = 1;
                        CHECK(0, "figure 3, %zu bytes%s: element (%d,%d) = %g, want %g", bytes,
                              gap ? " (LDA > M)" : "", i, j, b[k], want);
                    }
                }
            free(a);
            free(b);
        }
    }
}

static void many_unreceived(int ctxt, int mycol)
{
    enum { NMSG = 1000 };
    int *x = malloc(65536 * sizeof *x);
    if (mycol == 0) {
        for (int k = 0; k < NMSG; k++) {
            int len = 2 << (k % 16); /* 8 bytes to 256 KiB */
            for (int e = 0; e < len; e += 97)
                x[e] = k * 100000 + e;
            x[len - 1] = -k;
            Cigesd2d(ctxt, len, 1, x, len, 0, 1);
            blx_bufstats s = blx_buf_stats();
            CHECK(s.ready <= 1, "more than one idle buffer (%d)", s.ready);
        }
        blx_bufstats s = blx_buf_stats();
        CHECK(s.active > 0, "1000 unreceived sends but no active buffer");
    }
    Cblacs_barrier(ctxt, "All"); /* the receiver starts only after all 1000 sends returned */
    if (mycol == 1) {
        for (int k = 0; k < NMSG; k++) {
            int len = 2 << (k % 16);
            Cigerv2d(ctxt, len, 1, x, len, 0, 0);
            int ok = x[len - 1] == -k;
            for (int e = 0; e < len - 1 && ok; e += 97)
                ok = x[e] == k * 100000 + e;
            CHECK(ok, "unreceived message %d arrived wrong (last %d)", k, x[len - 1]);
        }
    }
    Cblacs_barrier(ctxt, "All");
    if (mycol == 0) {
        /* every BLACS call polls the queue as this does: wait (bounded) for
         * MPI to finish the sends */
        double t0 = MPI_Wtime();
        while (blx_buf_stats().active > 0 && MPI_Wtime() - t0 < 30) {
            blx_buf_poll();
            nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
        blx_bufstats s = blx_buf_stats();
        CHECK(s.active == 0, "%d buffers still active after the receives", s.active);
        CHECK(s.ready <= 1 && s.bytes == s.ready_bytes, "idle memory %zu bytes, ready %zu", s.bytes,
              s.ready_bytes);
    }
    Cblacs_freebuff(ctxt, 1);
    blx_bufstats s = blx_buf_stats();
    CHECK(s.active == 0 && s.ready == 0 && s.bytes == 0, "after freebuff: %d active, %zu bytes", s.active,
          s.bytes);
    free(x);
}

int main(void)
{
    mpitest_start();
    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size - mt_size % 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (ctxt >= 0) {
        figure3(ctxt, mycol, mycol ^ 1);
        Cblacs_gridexit(ctxt);
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (ctxt >= 0) {
        many_unreceived(ctxt, mycol);
        Cblacs_gridexit(ctxt);
    }
    return mpitest_finish("t_exchange");
}
