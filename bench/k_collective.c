/*
 * bench/k_collective.c - the collective kernels: LAWN 73's broadcast and
 * combine surveys, CoMet's broadcast, global sum and barrier.
 */
#include <math.h>
#include <time.h>

#include "bench.h"

#define BARRIER_DELAY 0.1 /* s: rank 0 enters the verification barrier this late */

/* ---------------------------------------------------------------------------
 * Collective kernels: broadcast, combine (sum), barrier, over the scope of
 * the job (All of the 1 x np grid, or the rows / columns of the P x Q grid)
 * ------------------------------------------------------------------------ */
/* Broadcast from the root of each scope: receivers get the root's vector. */
static void prep_bcast(job *j)
{
    if (!j->s)
        j->s = bench_dalloc(j->n);
    if (bench_scope_root(j)) {
        bench_fill_pat(j->s, j->n, bench_scope_root_rank(j), j->salt);
        bench_inject(j, j->n ? &j->s[j->n / 2] : NULL);
    } else {
        bench_fill_val(j->s, j->n, SENTINEL);
    }
}

/* LAWN D.3: every process times reps broadcasts (after the engine's
 * MPI_Barrier); rows report the maximum and the source's time. */
static double run_bcast(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        bench_xbcast(j, j->s, j->n, 1, bench_ld1(j->n), MPI_DATATYPE_NULL);
    return (MPI_Wtime() - t0) / reps;
}

static long check_bcast(job *j)
{
    return bench_scope_root(j) ? 0 : bench_check_pat(j, "received", j->s, j->n, bench_scope_root_rank(j));
}

const kernel bench_k_bcast = {prep_bcast, run_bcast, check_bcast, T_MAX, 1, 1};

/* CoMet's broadcast: broadcast then barrier, timed on the test node (rank 0). */
static double run_comet_bcast(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        bench_xbcast(j, j->s, j->n, 1, bench_ld1(j->n), MPI_DATATYPE_NULL);
        bench_xbarrier(j);
    }
    return (MPI_Wtime() - t0) / reps;
}

const kernel bench_k_comet_bcast = {prep_bcast, run_comet_bcast, check_bcast, T_ROOT, 0, 1};

/* Combine (sum): in the verification run every process contributes its
 * pattern and the destinations check the exact sum; timed runs sum zeros,
 * which stay zeros however many repetitions (and never overflow). */
static void prep_sum(job *j)
{
    if (!j->s)
        j->s = bench_dalloc(j->n);
    if (j->verifying) {
        bench_fill_pat(j->s, j->n, j->g->me, j->salt);
        bench_inject(j, j->n ? &j->s[j->n / 2] : NULL);
    } else {
        bench_fill_val(j->s, j->n, 0.0);
    }
}

static double run_sum(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        bench_xsum(j, j->s, j->n);
    return (MPI_Wtime() - t0) / reps;
}

static long check_sum(job *j)
{
    const grid *g = j->g;
    if (!j->verifying || (j->param && !bench_scope_root(j))) /* leave-on-one: others unspecified */
        return 0;
    long bad = 0;
    for (int i = 0; i < j->n; i++) {
        double want = 0;
        for (int p = 0; p < g->np; p++) {
            int in = j->scope == 'R' ? p / g->Q == g->myrow : j->scope == 'C' ? p % g->Q == g->mycol : 1;
            if (in)
                want += bench_pat(p, (size_t)i, j->salt);
        }
        bad += bench_mismatch(j, "sum", i, j->s[i], want);
    }
    return bad;
}

const kernel bench_k_comb = {prep_sum, run_sum, check_sum, T_MAX, 0, 0};
const kernel bench_k_gsum = {prep_sum, run_sum, check_sum, T_ROOT, 0, 0}; /* CoMet: test node's time */

/* A panel's loop: the size shrinks by one double at every call, from n
 * down to n / 2 and again, as a ScaLAPACK panel's columns do, so that no
 * two calls in a row have the same size (mode 0 a sum, mode 1 a
 * broadcast).  The first call of every loop has all n: the checks above
 * hold, the verification's included. */
static double run_panel(job *j, int reps)
{
    int half = j->n / 2 > 0 ? j->n / 2 : 1;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        int m = j->n - i % half;
        if (j->mode)
            bench_xbcast(j, j->s, m, 1, bench_ld1(m), MPI_DATATYPE_NULL);
        else
            bench_xsum(j, j->s, m);
    }
    return (MPI_Wtime() - t0) / reps;
}

const kernel bench_k_panel_sum = {prep_sum, run_panel, check_sum, T_MAX, 0, 0};
const kernel bench_k_panel_bcast = {prep_bcast, run_panel, check_bcast, T_MAX, 0, 1};

/* Barrier.  Timed: the first barrier is discarded, then every barrier is
 * timed alone on rank 0; mode 0 reports the best one (CoMet), mode 1 the
 * average.  Verified: rank 0 enters BARRIER_DELAY late; every other process
 * must stay in the barrier at least half that long. */
static void prep_barrier(job *j) { j->broken = j->verifying && j->b->cfg.inject; }

static double run_barrier(job *j, int reps)
{
    if (j->verifying) {
        if (j->g->me == 0) {
            struct timespec ts = {0, (long)(BARRIER_DELAY * 1e9)};
            nanosleep(&ts, NULL);
        }
        double t0 = MPI_Wtime();
        bench_xbarrier(j);
        j->aux = MPI_Wtime() - t0;
        return j->aux;
    }
    bench_xbarrier(j);
    double best = INFINITY, sum = 0;
    for (int i = 0; i < reps; i++) {
        double t0 = MPI_Wtime();
        bench_xbarrier(j);
        double dt = MPI_Wtime() - t0;
        best = fmin(best, dt);
        sum += dt;
    }
    return j->mode == 0 ? best : sum / reps;
}

static long check_barrier(job *j)
{
    if (!j->verifying || j->g->me == 0 || j->aux >= BARRIER_DELAY / 2)
        return 0;
    return bench_report_bad(j, "left the barrier after %.1f ms, but rank 0 entered it %.0f ms late",
                            j->aux * 1e3, BARRIER_DELAY * 1e3);
}

const kernel bench_k_barrier = {prep_barrier, run_barrier, check_barrier, T_ROOT, 0, 0};
