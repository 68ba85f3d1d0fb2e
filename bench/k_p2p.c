/*
 * bench/k_p2p.c - the point-to-point kernels: LAWN 73's T_c (echo), T_s and
 * T_m, and CoMet's echo, pairwise exchange, echo with contention and
 * overlap.
 */
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "bench.h"

/* ---------------------------------------------------------------------------
 * Kernels.  Point-to-point ones run between rank 0 (the "test node", which
 * times) and j->peer on the 1 x np grid; other processes idle.
 * ------------------------------------------------------------------------ */

/* LAWN 73 D.1's wake-up: the initiator sends an empty message and waits for
 * the empty answer, so that the partner is in its loop when timing starts. */
static void wakeup(job *j, int peer, int initiator)
{
    double dummy = 0;
    if (initiator) {
        bench_xsend(j, &dummy, 0, peer);
        bench_xrecv(j, &dummy, 0, peer);
    } else {
        bench_xrecv(j, &dummy, 0, peer);
        bench_xsend(j, &dummy, 0, peer);
    }
}

/* Echo: rank 0 sends and receives reps times, the peer receives and sends
 * back what it got.  Rank 0 returns half the round trip (LAWN's T_c, which
 * D.1 prints as 0.5 * time / reps, and CoMet's one-way echo time). */
static double echo_loop(job *j, int reps, int peer)
{
    const grid *g = j->g;
    if (g->me == 0) {
        wakeup(j, peer, 1);
        double t0 = MPI_Wtime();
        for (int i = 0; i < reps; i++) {
            bench_xsend(j, j->s, j->n, peer);
            bench_xrecv(j, j->r, j->n, peer);
        }
        return (MPI_Wtime() - t0) / reps / 2;
    }
    if (g->me == peer) {
        wakeup(j, 0, 0);
        for (int i = 0; i < reps; i++) {
            bench_xrecv(j, j->r, j->n, 0);
            bench_xsend(j, j->r, j->n, 0);
        }
    }
    return -1;
}

/* Rank 0 and its peer: a send buffer with their pattern (and the injected
 * fault, if any), a receive buffer of sentinels. */
static void prep_pair(job *j)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return;
    if (!j->s) {
        j->s = bench_dalloc(j->n);
        j->r = bench_dalloc(j->n);
    }
    bench_fill_pat(j->s, j->n, me, j->salt);
    bench_inject(j, j->n ? &j->s[j->n / 2] : NULL);
    bench_fill_val(j->r, j->n, SENTINEL);
}

static double run_echo(job *j, int reps) { return echo_loop(j, reps, j->peer); }

/* Both ends hold rank 0's vector: the peer received it, rank 0 got it back. */
static long check_echo(job *j)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return 0;
    return bench_check_pat(j, me == 0 ? "echoed" : "received", j->r, j->n, 0);
}

const kernel bench_k_echo = {prep_pair, run_echo, check_echo, T_ROOT, 0, 1};

/* T_s (LAWN D.2): the time to return from a send.  Rank 0 times reps sends
 * to rank 1, which only receives them (the BLACS buffer every send: reps is
 * capped so that reps * bytes stays below --ts-cap). */
static double run_ts(job *j, int reps)
{
    const grid *g = j->g;
    if (g->me == 0) {
        wakeup(j, 1, 1);
        double t0 = MPI_Wtime();
        for (int i = 0; i < reps; i++)
            bench_xsend(j, j->s, j->n, 1);
        return (MPI_Wtime() - t0) / reps;
    }
    if (g->me == 1) {
        wakeup(j, 0, 0);
        for (int i = 0; i < reps; i++)
            bench_xrecv(j, j->r, j->n, 0);
    }
    return -1;
}

static long check_ts(job *j) { return j->g->me == 1 ? bench_check_pat(j, "received", j->r, j->n, 0) : 0; }

const kernel bench_k_ts = {prep_pair, run_ts, check_ts, T_ROOT, 0, 1};

/* T_m: malloc, memory-to-memory copy and free of the message, on rank 0
 * (what a buffered send costs besides the transfer).  Nothing moves between
 * processes, so nothing is checked. */
static void prep_tm(job *j)
{
    if (j->g->me == 0 && !j->s) {
        j->s = bench_dalloc(j->n);
        bench_fill_pat(j->s, j->n, 0, j->salt);
    }
}

static double run_tm(job *j, int reps)
{
    if (j->g->me != 0)
        return -1;
    size_t bytes = (size_t)j->n * sizeof(double);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        void *p = malloc(bytes ? bytes : 1);
        if (!p)
            bench_die("out of memory in T_m");
        memcpy(p, j->s, bytes);
        __asm__ __volatile__("" : : "r"(p) : "memory"); /* keep the copy: p escapes */
        free(p);
    }
    return (MPI_Wtime() - t0) / reps;
}

const kernel bench_k_tm = {prep_tm, run_tm, NULL, T_ROOT, 0, 0};

/* Pairwise exchange (CoMet): rank 0 and the peer both send, then receive. */

static double run_exchange(job *j, int reps)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return -1;
    int other = me == 0 ? j->peer : 0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        bench_xexchange(j, j->s, j->r, j->n, other);
    return me == 0 ? (MPI_Wtime() - t0) / reps : -1;
}

static long check_exchange(job *j)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return 0;
    return bench_check_pat(j, "received", j->r, j->n, me == 0 ? j->peer : 0);
}

const kernel bench_k_exchange = {prep_pair, run_exchange, check_exchange, T_ROOT, 0, 1};

/* Echo with contention (CoMet): ranks 0 and 1 run the echo while, when
 * loaded (param 1), ranks 2 and 3 exchange messages of the same size
 * continuously.  The load starts before the echo (rank 2 reports READY
 * after its first exchange) and stops after it: rank 0 sends STOP to rank
 * 2 over MPI, and rank 2 passes a stop flag in element 0 of its next
 * message, so both loaders leave after the same exchange.  The loaders
 * check every message they get. */
static void prep_contention(job *j)
{
    int me = j->g->me;
    if (me == 0 || me == 1) {
        prep_pair(j);
    } else if (me == 2 || me == 3) {
        int nl = j->n > 0 ? j->n : 1; /* room for the flag */
        if (!j->x) {
            j->x = bench_dalloc(nl);
            j->y = bench_dalloc(nl);
        }
        bench_fill_pat(j->x, nl, me, j->salt);
        bench_fill_val(j->y, nl, SENTINEL);
    }
}

static void load_loop(job *j)
{
    MPI_Comm comm = j->g->comm;
    int me = j->g->me, partner = me == 2 ? 3 : 2, nl = j->n > 0 ? j->n : 1;
    int stop = 0, first = 1;
    MPI_Request rq = MPI_REQUEST_NULL;
    if (me == 2)
        MPI_Irecv(&stop, 1, MPI_INT, 0, TAG_STOP, comm, &rq);
    double go = 1;
    for (;;) {
        j->x[0] = go;
        bench_xexchange(j, j->x, j->y, nl, partner);
        if (j->y[0] != 0 && j->y[0] != 1)
            j->bad += bench_report_bad(j, "load flag = %g, expected 0 or 1", j->y[0]);
        for (int i = 1; i < nl; i++)
            j->bad += bench_mismatch(j, "load", i, j->y[i], bench_pat(partner, (size_t)i, j->salt));
        if (first && me == 2) {
            int ready = 1;
            MPI_Send(&ready, 1, MPI_INT, 0, TAG_READY, comm);
        }
        first = 0;
        if (go == 0 || j->y[0] == 0) /* I or my partner said stop in this exchange */
            break;
        if (me == 2) {
            int done;
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            if (done)
                go = 0;
        }
    }
}

static double run_contention(job *j, int reps)
{
    int me = j->g->me, ready;
    if (me == 0) {
        if (j->param)
            MPI_Recv(&ready, 1, MPI_INT, 2, TAG_READY, j->g->comm, MPI_STATUS_IGNORE);
        double t = echo_loop(j, reps, 1);
        if (j->param)
            MPI_Send(&me, 1, MPI_INT, 2, TAG_STOP, j->g->comm);
        return t;
    }
    if (me == 1)
        echo_loop(j, reps, 1);
    else if ((me == 2 || me == 3) && j->param)
        load_loop(j);
    return -1;
}

static long check_contention(job *j)
{
    long bad = j->bad + check_echo(j);
    j->bad = 0;
    return bad;
}

const kernel bench_k_contention = {prep_contention, run_contention, check_contention, T_ROOT, 0, 1};

/* Overlap (CoMet): ranks 0 and 1 exchange n doubles and compute a DAXPY of
 * param elements, y += 1.0 * x with x = 1 and y = 0 after prep, so that y
 * counts the repetitions exactly.
 *   OV_SYNC:    exchange, then DAXPY (BLACS: send, receive; MPI: Isend, Recv, Wait)
 *   OV_OVERLAP: BLACS: send (returns once the message is in a BLACS buffer),
 *               DAXPY, receive; MPI: Irecv, Isend, DAXPY, Waitall
 *   OV_COMPUTE: the DAXPY alone */
static void prep_overlap(job *j)
{
    int me = j->g->me;
    if (me > 1)
        return;
    prep_pair(j);
    if (!j->x) {
        j->x = bench_dalloc((size_t)j->param);
        j->y = bench_dalloc((size_t)j->param);
    }
    bench_fill_val(j->x, (size_t)j->param, 1.0);
    bench_fill_val(j->y, (size_t)j->param, 0.0);
}

static double run_overlap(job *j, int reps)
{
    int me = j->g->me, peer = 1 - me, len = (int)j->param;
    if (me > 1)
        return -1;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (j->mode == OV_SYNC) {
            bench_xexchange(j, j->s, j->r, j->n, peer);
            cblas_daxpy(len, 1.0, j->x, 1, j->y, 1);
        } else if (j->mode == OV_COMPUTE) {
            cblas_daxpy(len, 1.0, j->x, 1, j->y, 1);
        } else if (j->mpi) {
            MPI_Request rq[2];
            MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc misreads MPICH's as a 0-byte array */
            MPI_Irecv(j->r, j->n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, &rq[0]);
            MPI_Isend(j->s, j->n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, &rq[1]);
            cblas_daxpy(len, 1.0, j->x, 1, j->y, 1);
            MPI_Waitall(2, rq, st);
        } else {
            bench_xsend(j, j->s, j->n, peer);
            cblas_daxpy(len, 1.0, j->x, 1, j->y, 1);
            bench_xrecv(j, j->r, j->n, peer);
        }
    }
    return me == 0 ? (MPI_Wtime() - t0) / reps : -1;
}

static long check_overlap(job *j)
{
    int me = j->g->me;
    if (me > 1)
        return 0;
    long bad = 0;
    if (j->mode != OV_COMPUTE)
        bad += bench_check_pat(j, "received", j->r, j->n, 1 - me);
    for (long i = 0; i < j->param; i++)
        bad += bench_mismatch(j, "daxpy y", i, j->y[i], (double)j->total);
    return bad;
}

const kernel bench_k_overlap = {prep_overlap, run_overlap, check_overlap, T_ROOT, 0, 1};
