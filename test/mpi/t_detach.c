/*
 * test/mpi/t_detach.c - a broadcast's source returns without waiting for
 * late receivers (topologies/tree_bcast.c: ready notes, sends left in
 * flight from a send buffer), and nothing is lost.
 *
 * On a 1 x np grid, source {0,0}, for every lettered TOP that walks a tree
 * (I D S M H 1 T F) and 1 MiB:
 *   - receivers late: the source leaves its sends in flight (the library's
 *     counter says so) and returns before the receivers have even called,
 *     then overwrites its A; every receiver gets every element of the
 *     original.  The receivers sleep 300 ms, then call only once the source
 *     has told them (a message on a communicator of the test's own) that it
 *     has returned: a source that waited for them would never tell, and
 *     after 20 s they report it and call.  No clock decides, so a loaded
 *     machine, where the source may take longer than the 300 ms, passes;
 *   - receivers first (the source sleeps 200 ms): every ready note is
 *     there, so the source sends straight from A (the counter unchanged);
 *   - a matrix with LDA > M at the source, receivers late: the same;
 *   - 20 broadcasts in a row to late receivers: each one right, in order
 *     (a few are left in flight; the others wait for the receivers);
 *   - BLACS_GRIDEXIT right after a broadcast left in flight, the receivers
 *     still asleep: the receivers get it whole, on the grid the source has
 *     already freed; BLACS_EXIT then waits for the rest.
 * The grids are made under the model of shared memory with a core per
 * process (overlap = 1, window 2, BLACS_MODEL), whatever the machine.  With
 * the argument "crowded", the model of more processes than processors
 * (overlap = 0): there the source never leaves a message in flight
 * (bcast.c), so every case expects it to wait, and the data must be right
 * all the same.  With "network", a network link's (window 1): a message sent
 * whole (1 KiB) leaves at once even when every receiver is ready.
 */
#include <time.h>

#include "../../topologies/topology.h"
#include "mpitest.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static unsigned long detached_since(void)
{
    static unsigned long before;
    unsigned long now = blx_tree_bcast_detached(), d = now - before;
    before = now;
    return d;
}

#define LATE_MS 300
#define TELL_S 20 /* how long late receivers wait for the source's word that it returned */

static MPI_Comm told; /* the source's "I have returned" to late receivers */

/* A late receiver waits until the source says it has returned from its
 * broadcast, at most TELL_S seconds: 1 if it said so. */
static int source_returned(void)
{
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < TELL_S;) {
        int flag = 0;
        MPI_Iprobe(0, 0, told, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            MPI_Recv(NULL, 0, MPI_INT, 0, 0, told, MPI_STATUS_IGNORE);
            return 1;
        }
        sleep_ms(1);
    }
    return 0;
}

/* One broadcast of an m x n matrix (LDA lda at the source) from {0,0}. */
static int crowded; /* the source always waits */
static int network; /* a message sent whole leaves at once, even to ready receivers */

static void one(int ctxt, int me, char top, int m, int n, int lda, int receivers_late, int salt)
{
    char what[64], t[2] = {top, 0};
    snprintf(what, sizeof what, "TOP '%c' %dx%d lda %d, receivers %s", top, m, n, lda,
             receivers_late ? "late" : "first");
    int ld = me == 0 ? lda : m, np;
    double *a = malloc((size_t)ld * n * sizeof *a);
    MPI_Comm_size(told, &np);
    /* where the source is to return before its late receivers call (the last branch below) */
    int tell = receivers_late && !crowded && !(network && !strchr("IDM", top));
    detached_since();
    if (me == 0) {
        for (long k = 0; k < (long)ld * n; k++)
            a[k] = mt_value(0, salt, k);
        if (!receivers_late)
            sleep_ms(200);
        double t0 = MPI_Wtime();
        Cdgebs2d(ctxt, "Row", t, m, n, a, lda);
        double took = MPI_Wtime() - t0;
        for (int r = 1; tell && r < np; r++)
            MPI_Send(NULL, 0, MPI_INT, r, 0, told);
        for (long k = 0; k < (long)ld * n; k++) /* A is ours again at once */
            a[k] = -7.0;
        unsigned long d = detached_since();
        if (crowded) {
            CHECK(d == 0, "%s: crowded, the source left %lu broadcasts in flight", what, d);
        } else if (receivers_late && network && !strchr("IDM", top)) {
            /* on a network, a message sent whole to more children than go out at once is paced,
               straight from A (tree_bcast.c): the source may wait (how long it took is printed, not
               checked: on a loaded machine no clock tells waiting from being descheduled) */
            CHECK(d <= 1, "%s: %lu left in flight, %.0f ms", what, d, took * 1e3);
        } else if (receivers_late) { /* (its receivers check that it returned before they called) */
            CHECK(d == 1, "%s: the source waited for its receivers (%lu broadcasts left in flight)", what, d);
        } else if (network && (size_t)m * n * sizeof *a < 8192) { /* sent whole (model.h: PIECE_MIN) */
            CHECK(d == 1, "%s: on a network, a message sent whole did not leave at once", what);
        } else if (!network && (size_t)m * n * sizeof *a >= 8192) {
            /* (on a network a long message may go whole: the TOP's plan says; on shared memory a
               short one waits for its notes only alpha + n beta, less than MPICH may take to match
               two that have arrived, and may be copied all the same) */
            CHECK(d == 0, "%s: the source copied although every receiver was ready", what);
        }
    } else {
        for (long k = 0; k < (long)ld * n; k++)
            a[k] = -1.0;
        if (receivers_late)
            sleep_ms(LATE_MS);
        int returned = !tell || source_returned();
        CHECK(returned, "%s: the source did not return within %d s while its receivers had not called", what,
              TELL_S);
        Cdgebr2d(ctxt, "Row", t, m, n, a, m, 0, 0);
        if (!returned)
            MPI_Recv(NULL, 0, MPI_INT, 0, 0, told, MPI_STATUS_IGNORE);
        long bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                bad += a[i + (size_t)j * m] != mt_value(0, salt, i + (long)j * lda);
        CHECK(bad == 0, "%s: %ld elements wrong", what, bad);
    }
    free(a);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Broadcasts in a row to receivers that come late: each right, in order. */
static void in_a_row(int ctxt, int me)
{
    enum { N = 1 << 15, REPS = 20 };
    double *a = malloc(N * sizeof *a);
    if (me != 0)
        sleep_ms(LATE_MS);
    for (int r = 0; r < REPS; r++) {
        if (me == 0) {
            for (int k = 0; k < N; k++)
                a[k] = mt_value(r, 5, k);
            Cdgebs2d(ctxt, "Row", "I", N, 1, a, N);
        } else {
            Cdgebr2d(ctxt, "Row", "I", N, 1, a, N, 0, 0);
            long bad = 0;
            for (int k = 0; k < N; k++)
                bad += a[k] != mt_value(r, 5, k);
            CHECK(bad == 0, "broadcast %d of %d in a row: %ld elements wrong", r + 1, REPS, bad);
        }
    }
    free(a);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The source frees its grid with the broadcast still in flight. */
static void exit_in_flight(int np, int me)
{
    enum { N = 1 << 17 };
    int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    double *a = malloc(N * sizeof *a);
    detached_since();
    if (me == 0) {
        for (int k = 0; k < N; k++)
            a[k] = mt_value(0, 9, k);
        Cdgebs2d(ctxt, "Row", "I", N, 1, a, N);
        CHECK(detached_since() == (crowded ? 0u : 1u), "gridexit in flight: the source %s",
              crowded ? "left its sends in flight, crowded" : "waited for its receivers");
        Cblacs_gridexit(ctxt);
        for (int k = 0; k < N; k++)
            a[k] = -7.0;
    } else {
        sleep_ms(LATE_MS);
        Cdgebr2d(ctxt, "Row", "I", N, 1, a, N, 0, 0);
        long bad = 0;
        for (int k = 0; k < N; k++)
            bad += a[k] != mt_value(0, 9, k);
        CHECK(bad == 0, "gridexit in flight: %ld elements wrong", bad);
        Cblacs_gridexit(ctxt);
    }
    free(a);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    crowded = strcmp(mode, "crowded") == 0;
    network = strcmp(mode, "network") == 0;
    setenv("BLACS_MODEL",
           !strcmp(mode, "crowded")   ? "alpha=1e-4,beta=2.5e-10,overlap=0"
           : !strcmp(mode, "network") ? "alpha=1e-6,beta=1e-10,window=1,overlap=1"
                                      : "alpha=1e-6,beta=2.5e-10,window=2,overlap=1",
           1);
    mpitest_start();
    MPI_Comm_dup(MPI_COMM_WORLD, &told);
    int me = mt_rank, np = mt_size, ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    const char *tops = "IDSMH1TF";
    int salt = 0;
    for (const char *t = tops; *t; t++) {
        one(ctxt, me, *t, 1 << 17, 1, 1 << 17, 1, ++salt);
        one(ctxt, me, *t, 1 << 17, 1, 1 << 17, 0, ++salt);
    }
    one(ctxt, me, 'I', 300, 400, 310, 1, ++salt); /* packed at the source */
    for (const char *t = tops; *t; t++)           /* 1 KiB: sent whole */
        one(ctxt, me, *t, 128, 1, 128, 0, ++salt);
    in_a_row(ctxt, me);
    Cblacs_gridexit(ctxt);
    exit_in_flight(np, me);
    MPI_Comm_free(&told);
    return mpitest_finish("t_detach");
}
