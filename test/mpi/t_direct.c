/*
 * test/mpi/t_direct.c - the two ways a long point-to-point message travels
 * (blacs/p2p.c): straight from A to a receiver that is already waiting, or
 * buffered in pieces when it is not.
 *
 * Two processes, {0,0} sending to {0,1}.  Each case arranges who comes
 * first (the other sleeps 200 ms), checks every element received and the
 * sentinels around it, and checks by the library's counters which way the
 * send took:
 *   - receiver first, A contiguous, 64 KiB (the threshold) to 4 MiB: straight;
 *   - the receiver's A not contiguous (LDA > M): straight, unpacked after;
 *   - the sender's A not contiguous, or a trapezoid: buffered;
 *   - sender first: buffered (the sender does not wait for a late receiver);
 *   - below the threshold (64 KiB - 8): buffered, whoever comes first;
 *   - LAWN 73 figure 3's exchange at 1 MiB, both sends returning before a
 *     barrier that both receives follow: buffered both ways;
 *   - the same exchange with {0,0} 200 ms late, {0,1}'s ready note waiting
 *     for it: buffered both ways all the same (a straight send would wait
 *     while the other copies);
 *   - an echo of 200 round trips of 256 KiB: every element right; how many
 *     sends went straight is printed (it depends on timing, so it is not
 *     asserted);
 *   - many messages in a row to a late receiver, then received: each one
 *     right, in order.
 * With the argument "crowded", the model of more processes than processors
 * (alpha = 100 us, overlap = 0): 256 KiB goes buffered even to a waiting
 * receiver, 1 MiB straight; the sender does not wait for the note at all;
 * both exchanges as above.
 * The size mismatches on the straight way are test/mpi/t_mismatch's.
 */
#include <time.h>

#include "../../blacs/internal.h"
#include "mpitest.h"

/* The other process's head start. */
static void pause_200ms(void)
{
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
}

static double val(int salt, long k) { return (double)mt_value(1, salt, k); }

/* Which way the sends of this process went since the last call. */
static void ways(unsigned long *direct, unsigned long *buffered)
{
    static unsigned long d0, b0;
    unsigned long d, b;
    blx_p2p_counts(&d, &b);
    *direct = d - d0;
    *buffered = b - b0;
    d0 = d;
    b0 = b;
}

/* One m x n message (LDA lda_s at the sender, lda_r at the receiver;
 * uplo 'G' or a trapezoid), the receiver or the sender first; the sender's
 * way must be 'want' ('d' straight, 'b' buffered). */
static void one(int ctxt, int me, const char *what, char uplo, int m, int n, int lda_s, int lda_r,
                int receiver_first, char want, int salt)
{
    int lda = me == 0 ? lda_s : lda_r;
    size_t len = (size_t)lda * n + 16;
    double *a = malloc(len * sizeof *a);
    for (size_t k = 0; k < len; k++)
        a[k] = me == 0 ? val(salt, (long)k) : -1.0;
    unsigned long d, b;
    ways(&d, &b);
    if (me == 0) {
        if (receiver_first)
            pause_200ms();
        if (uplo == 'G')
            Cdgesd2d(ctxt, m, n, a, lda, 0, 1);
        else
            Cdtrsd2d(ctxt, &uplo, "N", m, n, a, lda, 0, 1);
        ways(&d, &b);
        CHECK(d + b == 1 && (want == 'd' ? d == 1 : b == 1), "%s: the send went %s, not %s", what,
              d ? "straight" : "buffered", want == 'd' ? "straight" : "buffered");
    } else {
        if (!receiver_first)
            pause_200ms();
        if (uplo == 'G')
            Cdgerv2d(ctxt, m, n, a, lda, 0, 0);
        else
            Cdtrrv2d(ctxt, &uplo, "N", m, n, a, lda, 0, 0);
        long bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++) {
                int in = i < m && (uplo == 'G' || (uplo == 'U' ? i <= j : i >= j));
                bad += a[(size_t)i + (size_t)j * lda] != (in ? val(salt, (long)i + (long)j * lda_s) : -1.0);
            }
        for (size_t k = (size_t)lda * n; k < len; k++)
            bad += a[k] != -1.0;
        CHECK(bad == 0, "%s: %ld elements wrong", what, bad);
    }
    free(a);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Both send 1 MiB, then both receive (LAWN 73 figure 3).  Not late: a
 * barrier between makes sure neither receiver is waiting when the sends are
 * made.  Late: {0,1} sends and waits in its receive (its ready note sent)
 * 200 ms before {0,0} sends, which finds the note but also {0,1}'s message,
 * not yet received.  Either way both must send buffered, so that neither
 * waits while the other copies (p2p.c). */
static void exchange(int ctxt, int me, int late)
{
    const char *what = late ? "late exchange" : "exchange";
    int n = 1 << 17, other = 1 - me, salt = 3 + late;
    double *out = malloc(n * sizeof *out), *in = malloc(n * sizeof *in);
    for (int k = 0; k < n; k++) {
        out[k] = (double)mt_value(me, salt, k);
        in[k] = -1.0;
    }
    unsigned long d, b;
    ways(&d, &b);
    if (late && me == 0)
        pause_200ms();
    Cdgesd2d(ctxt, n, 1, out, n, 0, other);
    if (!late)
        Cblacs_barrier(ctxt, "All"); /* both sends returned before either receive starts */
    Cdgerv2d(ctxt, n, 1, in, n, 0, other);
    ways(&d, &b);
    long bad = 0;
    for (int k = 0; k < n; k++)
        bad += in[k] != (double)mt_value(other, salt, k);
    CHECK(bad == 0, "%s: %ld elements wrong", what, bad);
    CHECK(d == 0 && b == 1, "%s, process %d: %lu sends straight, %lu buffered (want 0, 1)", what, me, d, b);
    free(out);
    free(in);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void echo(int ctxt, int me)
{
    int n = 1 << 15, rounds = 200;
    double *a = malloc(n * sizeof *a);
    long bad = 0;
    unsigned long d, b;
    ways(&d, &b);
    for (int r = 0; r < rounds; r++) {
        if (me == 0) {
            for (int k = 0; k < n; k++)
                a[k] = val(r, k);
            Cdgesd2d(ctxt, n, 1, a, n, 0, 1);
            Cdgerv2d(ctxt, n, 1, a, n, 0, 1);
            for (int k = 0; k < n; k++)
                bad += a[k] != val(r, k) + 1;
        } else {
            Cdgerv2d(ctxt, n, 1, a, n, 0, 0);
            for (int k = 0; k < n; k++)
                a[k] += 1;
            Cdgesd2d(ctxt, n, 1, a, n, 0, 0);
        }
    }
    ways(&d, &b);
    CHECK(bad == 0, "echo: %ld elements wrong", bad);
    CHECK(d + b == (unsigned long)rounds, "echo: %lu sends counted, not %d", d + b, rounds);
    printf("t_direct: echo of %d x 256 KiB, process %d: %lu sends straight, %lu buffered\n", rounds, me, d,
           b);
    free(a);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 20 messages of 128 KiB to a receiver that comes late, then all received. */
static void queue(int ctxt, int me)
{
    int n = 1 << 14, count = 20;
    double *a = malloc(n * sizeof *a);
    long bad = 0;
    if (me == 1)
        pause_200ms();
    for (int r = 0; r < count; r++) {
        if (me == 0) {
            for (int k = 0; k < n; k++)
                a[k] = val(100 + r, k);
            Cdgesd2d(ctxt, n, 1, a, n, 0, 1);
        } else {
            Cdgerv2d(ctxt, n, 1, a, n, 0, 0);
            for (int k = 0; k < n; k++)
                bad += a[k] != val(100 + r, k);
        }
    }
    CHECK(bad == 0, "queue: %ld elements wrong", bad);
    free(a);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    /* the model decides which messages may go straight (p2p.c): this
     * machine's shared memory, or with "crowded" more processes than
     * processors, whatever the machine the test runs on */
    int crowded = argc > 1 && strcmp(argv[1], "crowded") == 0;
    setenv("BLACS_MODEL", crowded ? "alpha=1e-4,beta=2.5e-10,overlap=0" : "alpha=1e-6,beta=2.5e-10,overlap=1",
           1);
    mpitest_start();
    int ctxt, nprow, npcol, me, col;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &me, &col);
    me = col;
    if (mt_size != 2) {
        CHECK(0, "t_direct runs on 2 processes, not %d", mt_size);
        return mpitest_finish("t_direct");
    }
    int k64 = 8192; /* doubles in 64 KiB */
    if (crowded) {  /* a message goes straight from alpha / beta = 400 KB on */
        one(ctxt, me, "crowded: 256 KiB, receiver first", 'G', 4 * k64, 1, 4 * k64, 4 * k64, 1, 'b', 9);
        one(ctxt, me, "crowded: 1 MiB, receiver first", 'G', 16 * k64, 1, 16 * k64, 16 * k64, 1, 'd', 10);
        one(ctxt, me, "crowded: 1 MiB, sender first", 'G', 16 * k64, 1, 16 * k64, 16 * k64, 0, 'b', 11);
        exchange(ctxt, me, 0);
        exchange(ctxt, me, 1);
        Cblacs_gridexit(ctxt);
        return mpitest_finish("t_direct");
    }
    one(ctxt, me, "64 KiB, receiver first", 'G', k64, 1, k64, k64, 1, 'd', 1);
    one(ctxt, me, "4 MiB, receiver first", 'G', 512, 1024, 512, 512, 1, 'd', 2);
    one(ctxt, me, "1 MiB into LDA > M, receiver first", 'G', 1000, 131, 1000, 1003, 1, 'd', 3);
    one(ctxt, me, "1 MiB from LDA > M, receiver first", 'G', 1000, 131, 1001, 1000, 1, 'b', 4);
    one(ctxt, me, "upper trapezoid, receiver first", 'U', 600, 700, 600, 601, 1, 'b', 5);
    one(ctxt, me, "1 MiB, sender first", 'G', k64, 16, k64, k64, 0, 'b', 6);
    one(ctxt, me, "64 KiB - 8, receiver first", 'G', k64 - 1, 1, k64 - 1, k64 - 1, 1, 'b', 7);
    one(ctxt, me, "64 KiB - 8, sender first", 'G', k64 - 1, 1, k64 - 1, k64 - 1, 0, 'b', 8);
    exchange(ctxt, me, 0);
    exchange(ctxt, me, 1);
    echo(ctxt, me);
    queue(ctxt, me);
    Cblacs_gridexit(ctxt);
    return mpitest_finish("t_direct");
}
