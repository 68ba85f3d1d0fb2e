/*
 * test/mpi/t_threads.c - two threads per process, each on a grid of its
 * own, under the rule of doc/guide.md, "Threads": one thread at a time inside the
 * BLACS per process.
 *
 *   t_threads turns     the two threads take turns (in the same order on
 *                       every process): point-to-point of a trapezoid,
 *                       packed broadcasts (LDA > M) and sums on their own
 *                       grids; every element checked
 *   t_threads overlap   both threads inside the BLACS at once: process 0's
 *                       second thread enters a sum while its first waits
 *                       in a receive; the library must say so (exit 1)
 */
#include <pthread.h>
#include <time.h>

#include "mpitest.h"

#define ROUNDS 40
#define M 37
#define N 5
#define LDA 41

static int grids[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t moved = PTHREAD_COND_INITIALIZER;
static int turn; /* round r of thread t runs at turn 2 r + t */

static double value(int round, int t, int src, int i, int j)
{
    return round * 1e4 + t * 1e3 + src * 100 + i + j * 0.01;
}

/* One round on thread t's grid: a lower trapezoid to the next process, a
 * packed broadcast from process (round mod np), a sum; all checked. */
static void one_round(int t, int round)
{
    int ctxt = grids[t], nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int np = nprow * npcol, me = myrow * npcol + mycol, next = (me + 1) % np, prev = (me + np - 1) % np;
    double a[LDA * N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++)
            a[i + j * LDA] = value(round, t, me, i, j);
    Cdtrsd2d(ctxt, "L", "N", M, N, a, LDA, next / npcol, next % npcol);
    for (int k = 0; k < LDA * N; k++)
        a[k] = -1;
    Cdtrrv2d(ctxt, "L", "N", M, N, a, LDA, prev / npcol, prev % npcol);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++) {
            double want = i >= j && i < M ? value(round, t, prev, i, j) : -1;
            CHECK(a[i + j * LDA] == want, "thread %d round %d: trapezoid (%d,%d) = %g, not %g", t, round, i,
                  j, a[i + j * LDA], want);
        }
    int root = round % np;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++)
            a[i + j * LDA] = me == root || i >= M ? value(round, t, root, i, j) : -1;
    if (me == root)
        Cdgebs2d(ctxt, "All", " ", M, N, a, LDA);
    else
        Cdgebr2d(ctxt, "All", " ", M, N, a, LDA, root / npcol, root % npcol);
    int bad = 0;
    for (int k = 0; k < LDA * N; k++)
        bad += a[k] != value(round, t, root, k % LDA, k / LDA);
    CHECK(bad == 0, "thread %d round %d: %d elements of the broadcast wrong", t, round, bad);
    double s[M];
    for (int i = 0; i < M; i++)
        s[i] = me + i + round;
    Cdgsum2d(ctxt, "All", " ", M, 1, s, M, -1, -1);
    for (int i = 0; i < M; i++)
        CHECK(s[i] == np * (double)(i + round) + np * (np - 1) / 2.0, "thread %d round %d: sum[%d] = %g", t,
              round, i, s[i]);
}

static void *taking_turns(void *arg)
{
    int t = *(int *)arg;
    for (int round = 0; round < ROUNDS; round++) {
        pthread_mutex_lock(&lock);
        while (turn != 2 * round + t)
            pthread_cond_wait(&moved, &lock);
        pthread_mutex_unlock(&lock);
        one_round(t, round); /* alone inside the BLACS: the other thread waits for its turn */
        pthread_mutex_lock(&lock);
        turn++;
        pthread_cond_broadcast(&moved);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* Process 0: thread 0 waits in a receive that process 1 sends only after
 * two seconds; thread 1 enters a sum after half a second. */
static void pause_for(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

static void *overlapping(void *arg)
{
    int t = *(int *)arg;
    double a[4] = {1, 2, 3, 4};
    if (t == 0 && mt_rank == 0)
        Cdgerv2d(grids[0], 4, 1, a, 4, 0, 1);
    if (t == 0 && mt_rank == 1) {
        pause_for(2);
        Cdgesd2d(grids[0], 4, 1, a, 4, 0, 0);
    }
    if (t == 1) {
        pause_for(0.5);
        Cdgsum2d(grids[1], "All", " ", 4, 1, a, 4, -1, -1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "turns";
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    mpitest_start();
    if (provided < MPI_THREAD_SERIALIZED) {
        CHECK(0, "MPI gives thread level %d, less than MPI_THREAD_SERIALIZED", provided);
        return mpitest_finish("t_threads");
    }
    for (int t = 0; t < 2; t++) {
        Cblacs_get(0, 0, &grids[t]);
        Cblacs_gridinit(&grids[t], t ? "C" : "R", t ? mt_size : 1, t ? 1 : mt_size);
    }
    pthread_t th[2];
    int ids[2] = {0, 1};
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, strcmp(mode, "overlap") ? taking_turns : overlapping, &ids[t]);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    CHECK(turn == (strcmp(mode, "overlap") ? 2 * ROUNDS : 0), "%d turns taken", turn);
    for (int t = 0; t < 2; t++)
        Cblacs_gridexit(grids[t]);
    return mpitest_finish("t_threads");
}
