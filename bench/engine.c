/*
 * bench/engine.c - how one size of one series is measured: every variant
 * verified, its repetitions decided, then the trials, variant after variant,
 * each written as a CSV row by rank 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

/* ---------------------------------------------------------------------------
 * The engine: verify, decide the repetitions, run the trials, write rows
 * ------------------------------------------------------------------------ */
static int imin(int a, int b) { return a < b ? a : b; }

static void job_free(job *j)
{
    bench_dfree(j->s);
    bench_dfree(j->r);
    bench_dfree(j->x);
    bench_dfree(j->y);
    if (j->vec != MPI_DATATYPE_NULL)
        MPI_Type_free(&j->vec);
}

/* Sums the wrong values over the grid; on any, rank 0 reports and aborts. */
static void verify(job *j, const char *when)
{
    if (!j->k->check)
        return;
    long bad = j->k->check(j), all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, j->g->comm);
    if (all == 0)
        return;
    if (j->g->me == 0) {
        fprintf(stderr,
                "blacsbench: VERIFY FAILED: %s %s impl=%s top=%c %zu bytes, grid %s, %s: %ld wrong values\n",
                j->series, j->op, bench_impl_of(j), bench_top_char(j), j->bytes, j->g->name, when, all);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(j->g->comm); /* rank 0 aborts; wait to be killed */
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* Repetitions inside the timing loop: fixed, or adaptive: growing counts
 * are run (which also warms up buffers and connections) until one takes a
 * fifth of the target on the slowest process; rank 0 then scales the count
 * to the target and broadcasts its decision, so that every process agrees.
 * (The slowest, not rank 0: in the transpose rank 0 only transposes.) */
static int decide_reps(job *j)
{
    const config *c = &j->b->cfg;
    int cap = j->max_reps > 0 ? imin(j->max_reps, c->max_reps) : c->max_reps;
    if (j->fixed_reps > 0)
        return j->fixed_reps;
    if (c->reps > 0)
        return imin(c->reps, cap);
    double target = c->target_ms * 1e-3, enough = target / 5;
    int r = 1, msg[2];
    for (;;) {
        MPI_Barrier(j->g->comm);
        double t0 = MPI_Wtime();
        j->k->run(j, r);
        double el = MPI_Wtime() - t0, slowest;
        j->total += r;
        MPI_Reduce(&el, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, j->g->comm);
        el = slowest;
        if (j->g->me == 0) {
            if (el >= enough || r >= cap) {
                double want = r * target / fmax(el, 1e-9);
                msg[0] = want >= cap ? cap : want < 1 ? 1 : (int)(want + 0.5);
                msg[1] = 1;
            } else {
                double grow = el > 0 ? fmin(fmax(2 * enough / el, 2), 100) : 100;
                msg[0] = r * grow >= cap ? cap : (int)(r * grow);
                msg[1] = 0;
            }
        }
        MPI_Bcast(msg, 2, MPI_INT, 0, j->g->comm);
        if (msg[1])
            return msg[0];
        r = msg[0];
    }
}

static void emit(job *j, int trial, double tl)
{
    const grid *g = j->g;
    double v = tl;
    if (j->k->timing == T_MAX)
        MPI_Reduce(&tl, &v, 1, MPI_DOUBLE, MPI_MAX, 0, g->comm);
    if (g->me != 0)
        return;
    fprintf(j->b->csv, "%s,%s,%s,%c,%d,%s,%zu,%d,%d,%.3f,", bench_impl_of(j), j->series, j->op,
            bench_top_char(j), g->np, g->name, j->bytes, j->reps, trial, v * 1e6);
    if (j->k->src_time)
        fprintf(j->b->csv, "%.3f", tl * 1e6);
    fputc('\n', j->b->csv);
    fflush(j->b->csv);
}

/* One size of one series: every variant is verified and calibrated, then
 * the variants take turns trial by trial, so that noise hits them alike.
 * Every fifth size (index % 5 == 0) runs re_trials trials (LAWN's RE). */
void bench_run_point(bench *b, job *jobs, int nj, int index)
{
    const config *c = &b->cfg;
    grid *g = jobs[0].g;
    int trials = index % 5 == 0 && c->re_trials > c->trials ? c->re_trials : c->trials;
    for (int i = 0; i < nj; i++) {
        job *j = &jobs[i];
        j->verifying = 1;
        j->k->prep(j);
        MPI_Barrier(g->comm);
        j->k->run(j, 1);
        j->total = 1;
        verify(j, "verification run");
        j->verifying = 0;
        j->k->prep(j);
        j->total = 0;
        j->reps = decide_reps(j);
    }
    for (int t = 0; t < trials; t++)
        for (int i = 0; i < nj; i++) {
            job *j = &jobs[i];
            MPI_Barrier(g->comm); /* LAWN's Tsync */
            double tl = j->k->run(j, j->reps);
            j->total += j->reps;
            if (j->k->check_timed)
                verify(j, "after a timed trial");
            emit(j, c->round * trials + t + 1, tl);
        }
    for (int i = 0; i < nj; i++)
        job_free(&jobs[i]);
}
