/*
 * bench/blacsbench.c - the BLACS benchmark: LAWN 73's timing codes
 * (Appendix D: T_c, T_s, T_m, the broadcast and the combine surveys) and
 * CoMet's kernels (section 2.2: echo, pairwise exchange, broadcast, global
 * sum, barrier, echo with contention, overlap, guard update, shift,
 * transpose, row and column broadcast), each timed on the BLACS and on raw
 * MPI over the same processes.
 *
 * One source, two binaries: build/bench/blacsbench (this library) and
 * build/bench/blacsbench-ref (the reference BLACS inside Debian's
 * libscalapack-openmpi).  Only the public C interface of the BLACS is used,
 * plus MPI.
 *
 *   mpirun -np 4 build/bench/blacsbench --series tc,bcast --sizes 8,64K,1M --csv out.csv
 *   build/bench/blacsbench --help
 *
 * Output: one CSV row per measurement, appended by rank 0 (header once):
 *
 *   impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us
 *
 * impl is "ours" or "ref" for the BLACS (--impl), "mpi" for raw MPI; top is
 * the TOP letter ('_' = the blank default TOP, '-' = no TOP); bytes is the
 * message size (matrix kernels: the local block); t_us is microseconds per
 * operation, the time of interest of the series (see the table SERIES at the
 * end and bench/README.md); t_src_us is the source's time for broadcasts.
 *
 * Raw MPI runs on an MPI_Comm_dup of the grid's own communicator (same
 * processes, ranks = blacs_pnum), so BLACS and MPI traffic never mix.
 *
 * Every kernel checks the data it moved: a verification run with fresh
 * data and cleared destinations before timing, and, where the data stay
 * predictable, a check after every timed trial.  A wrong element prints
 * "VERIFY FAILED" and the run aborts with a non-zero status.
 * --inject-fault corrupts the data rank 0 sends in the verification run
 * (and makes the barrier skip synchronizing), so that the tests can show
 * that every check fails when it must.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <mpi.h>

#include "blacs.h"

#ifndef BENCH_IMPL
#define BENCH_IMPL "ours"
#endif

enum { TAG_P2P = 11, TAG_READY, TAG_STOP, TAG_N, TAG_S, TAG_E, TAG_W };
enum { T_ROOT, T_MAX };             /* whose time a row reports */
enum { MPI_NO, MPI_YES, MPI_ONLY }; /* which variants run */
enum { OV_SYNC, OV_OVERLAP, OV_COMPUTE };

#define MAX_SIZES 512
#define MAX_JOBS 64
#define SENTINEL (-1.0) /* destinations are cleared to this; no pattern value is negative */
#define VALID_TOPS " IDSMFHT123456789"
#define BARRIER_DELAY 0.1 /* s: rank 0 enters the verification barrier this late */

/* ---------------------------------------------------------------------------
 * Configuration, grids, jobs
 * ------------------------------------------------------------------------ */
typedef struct {
    const char *impl, *csv;
    size_t sizes[MAX_SIZES];
    int nsizes;
    char tops[24];
    int P, Q;         /* matrix-kernel grid; 0 = squarest */
    char scope;       /* 'A', 'R' or 'C': scope of bcast, bcast1, comb */
    int reps;         /* > 0 fixed; 0 adaptive */
    double target_ms; /* adaptive: one timing takes about this long */
    int max_reps;
    int trials, re_trials, round, re_only;
    long daxpy[16];
    int ndaxpy;
    size_t ts_cap; /* T_s: reps * bytes in flight at most */
    int mpi_mode, inject, quiet, list;
    int set_what[4], set_val[4], nset; /* --set: BLACS_SET codes 11-14 on every grid */
    unsigned long series;              /* bit i: SERIES[i] selected */
} config;

typedef struct {
    int ctxt; /* BLACS context; -1 outside the grid */
    int P, Q, myrow, mycol;
    int me, np;                /* rank in comm (= blacs_pnum), size of the grid */
    MPI_Comm comm;             /* dup of the grid's communicator: raw MPI runs here */
    MPI_Comm rowcomm, colcomm; /* my process row (ranked by column) and column */
    char name[24];             /* "PxQ" */
} grid;

typedef struct {
    config cfg;
    grid row; /* 1 x np: point-to-point, scope 'All', CoMet's basic kernels */
    grid mat; /* P x Q: matrix kernels, scopes 'Row' and 'Column' */
    int wrank, wsize;
    FILE *csv;
    double t0;
} bench;

typedef struct job job;

/* A kernel: how to prepare, run and check one measurement.  The BLACS and
 * the MPI variant of a kernel share all three; only the communication
 * calls differ (the x* wrappers below). */
typedef struct {
    void (*prep)(job *j);            /* allocate once, fill sources, clear destinations */
    double (*run)(job *j, int reps); /* timed loop: local seconds per op, < 0: not timed here */
    long (*check)(job *j);           /* wrong values on this process; NULL: nothing to check */
    int timing;                      /* T_ROOT: rank 0's time; T_MAX: maximum over the grid */
    int src_time;                    /* report rank 0's (the source's) time as t_src_us */
    int check_timed;                 /* data stay predictable: check after every trial too */
} kernel;

struct job {
    bench *b;
    grid *g;
    const kernel *k;
    const char *series;
    char op[32];
    char top;     /* BLACS TOP letter; 0 = none (MPI, point-to-point) */
    int mpi;      /* 0: the BLACS, 1: raw MPI */
    size_t bytes; /* reported size */
    int n;        /* doubles per message; matrix kernels: local block dimension */
    int peer;     /* partner rank in the grid */
    long param;   /* kernel parameter: DAXPY length, loaded, leave-on-one, direction */
    int mode;     /* overlap: OV_*; barrier: 0 best, 1 average */
    char scope;   /* 'A', 'R', 'C' */
    int fixed_reps, max_reps;
    unsigned salt;
    double *s, *r, *x, *y; /* source, destination, DAXPY x and y */
    MPI_Datatype vec;      /* strided row of a block (MPI variants) */
    /* engine state */
    int reps, verifying, broken, printed;
    long total; /* repetitions run since the last prep */
    long bad;   /* wrong values seen inside a run (contention load) */
    double aux;
};

static bench B;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "blacsbench: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static double *dalloc(size_t n)
{
    double *p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        die("out of memory (%zu doubles)", n);
    return p;
}

static int imin(int a, int b) { return a < b ? a : b; }

/* ---------------------------------------------------------------------------
 * Data patterns and checks
 * ------------------------------------------------------------------------ */
/* Element i of the vector that process `owner` sends: an integer below
 * 2^53 (so sums over processes are exact in any order), different for every
 * owner, index and salt, never negative. */
static double pat(int owner, size_t i, unsigned salt)
{
    uint32_t h = (uint32_t)i * 2654435761u + salt * 40503u;
    return (double)owner * 4294967296.0 + (double)h;
}

/* Element (i, j) of the global matrix of the matrix kernels. */
static double gmat(long i, long j) { return (double)i * 2097152.0 + (double)j; }

static void fill_pat(double *v, size_t n, int owner, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        v[i] = pat(owner, i, salt);
}

static void fill_val(double *v, size_t n, double x)
{
    for (size_t i = 0; i < n; i++)
        v[i] = x;
}

/* Block (pr, pc) of the global matrix, nl x nl, column-major with leading dimension ld. */
static void fill_block(double *a, int ld, int nl, int pr, int pc)
{
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            a[i + (size_t)jj * ld] = gmat((long)pr * nl + i, (long)pc * nl + jj);
}

static const char *impl_of(const job *j) { return j->mpi ? "mpi" : j->b->cfg.impl; }

static char top_char(const job *j) { return j->top == ' ' ? '_' : j->top ? j->top : '-'; }

/* Counts one failed check, reporting the first few on this process. */
static long report_bad(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static long report_bad(job *j, const char *fmt, ...)
{
    if (j->printed++ < 3) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "blacsbench: VERIFY FAILED on rank %d: %s %s impl=%s top=%c %zu bytes: ", j->g->me,
                j->series, j->op, impl_of(j), top_char(j), j->bytes);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        fflush(stderr);
    }
    return 1;
}

/* Counts one wrong value. */
static long mismatch(job *j, const char *what, long idx, double got, double want)
{
    return got == want ? 0 : report_bad(j, "%s[%ld] = %.17g, expected %.17g", what, idx, got, want);
}

static long check_pat(job *j, const char *what, const double *v, size_t n, int owner)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += mismatch(j, what, (long)i, v[i], pat(owner, i, j->salt));
    return bad;
}

/* Block (pr, pc) expected in a (column-major, ld) */
static long check_block(job *j, const char *what, const double *a, int ld, int nl, int pr, int pc)
{
    long bad = 0;
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            bad += mismatch(j, what, i + (long)jj * ld, a[i + (size_t)jj * ld],
                            gmat((long)pr * nl + i, (long)pc * nl + jj));
    return bad;
}

/* --inject-fault: rank 0 corrupts one value it sends in the verification run. */
static void inject(job *j, double *p)
{
    if (j->verifying && j->b->cfg.inject && j->g->me == 0 && p)
        *p += 1.0;
}

/* ---------------------------------------------------------------------------
 * Communication wrappers: one call site per operation for both variants
 * ------------------------------------------------------------------------ */
static int ld1(int n) { return n > 0 ? n : 1; }

static void xsend(job *j, double *v, int n, int to)
{
    if (j->mpi)
        MPI_Send(v, n, MPI_DOUBLE, to, TAG_P2P, j->g->comm);
    else
        Cdgesd2d(j->g->ctxt, n, 1, v, ld1(n), to / j->g->Q, to % j->g->Q);
}

static void xrecv(job *j, double *v, int n, int from)
{
    if (j->mpi)
        MPI_Recv(v, n, MPI_DOUBLE, from, TAG_P2P, j->g->comm, MPI_STATUS_IGNORE);
    else
        Cdgerv2d(j->g->ctxt, n, 1, v, ld1(n), from / j->g->Q, from % j->g->Q);
}

/* Both partners send, then receive: legal with the BLACS' locally-blocking
 * sends; MPI needs a non-blocking send for it (Isend, Recv, Wait). */
static void xexchange(job *j, double *s, double *r, int n, int peer)
{
    if (j->mpi) {
        MPI_Request rq;
        MPI_Isend(s, n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, &rq);
        MPI_Recv(r, n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        xsend(j, s, n, peer);
        xrecv(j, r, n, peer);
    }
}

static void xbarrier(job *j)
{
    if (j->broken) /* --inject-fault: a barrier that does not synchronize */
        return;
    if (j->mpi)
        MPI_Barrier(j->g->comm);
    else
        Cblacs_barrier(j->g->ctxt, "All");
}

static char *scope_name(char scope) { return scope == 'R' ? "Row" : scope == 'C' ? "Column" : "All"; }

/* The MPI communicator of my scope; its rank 0 is the scope's source or
 * destination (column 0 of a row, row 0 of a column, {0,0} of the grid). */
static MPI_Comm scope_comm(const job *j)
{
    return j->scope == 'R' ? j->g->rowcomm : j->scope == 'C' ? j->g->colcomm : j->g->comm;
}

static int scope_root(const job *j)
{
    const grid *g = j->g;
    return j->scope == 'R' ? g->mycol == 0 : j->scope == 'C' ? g->myrow == 0 : g->me == 0;
}

/* Grid rank of the root of my scope. */
static int scope_root_rank(const job *j)
{
    const grid *g = j->g;
    return j->scope == 'R' ? g->myrow * g->Q : j->scope == 'C' ? g->mycol : 0;
}

/* Broadcast of n doubles from the root of my scope (vec: MPI datatype of v
 * on the root when it is strided; receivers always take n contiguous). */
static void xbcast(job *j, double *v, int m, int n, int lda, MPI_Datatype vec)
{
    const grid *g = j->g;
    char top[2] = {j->top ? j->top : ' ', 0};
    int root = scope_root(j);
    if (j->mpi) {
        if (root && vec != MPI_DATATYPE_NULL)
            MPI_Bcast(v, 1, vec, 0, scope_comm(j));
        else
            MPI_Bcast(v, m * n, MPI_DOUBLE, 0, scope_comm(j));
    } else if (root) {
        Cdgebs2d(g->ctxt, scope_name(j->scope), top, m, n, v, lda);
    } else {
        int rs = j->scope == 'R' ? g->myrow : 0, cs = j->scope == 'C' ? g->mycol : 0;
        Cdgebr2d(g->ctxt, scope_name(j->scope), top, m, n, v, ld1(m), rs, cs);
    }
}

/* vTUOP2D's operation for the "uop" series: the sum vGSUM2D computes.
 * (Only this library has the extension: BENCH_EXTENSIONS.) */
enum { UOP_SUM = 1 };
#ifdef BENCH_EXTENSIONS
/* optimized as the library's built-in sums are (-O3), so that the series
 * compares the two paths and not two compilations of the same loop */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void
add_doubles(blacs_int n, void *a, const void *b)
{
    double *restrict x = a;
    const double *restrict y = b;
    for (int k = 0; k < n; k++)
        x[k] += y[k];
}
#endif

/* Sum of n doubles over my scope, in place: left on all (param 0) or on the
 * scope's root (param 1, "leave-on-one"); through vTUOP2D for mode UOP_SUM. */
static void xsum(job *j, double *v, int n)
{
    const grid *g = j->g;
    if (j->mpi) {
        if (!j->param)
            MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, scope_comm(j));
        else if (scope_root(j))
            MPI_Reduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, 0, scope_comm(j));
        else
            MPI_Reduce(v, NULL, n, MPI_DOUBLE, MPI_SUM, 0, scope_comm(j));
#ifdef BENCH_EXTENSIONS
    } else if (j->mode == UOP_SUM) { /* the same sum through vTUOP2D, as a 1 x n row: cut anywhere */
        char top[2] = {j->top ? j->top : ' ', 0}, gen[] = "G", diag[] = "N";
        int rd = j->param ? 0 : -1, cd = j->param ? 0 : -1;
        Cdtuop2d(g->ctxt, scope_name(j->scope), top, gen, diag, 1, n, v, 1, rd, cd, NULL, add_doubles, NULL);
#endif
    } else {
        char top[2] = {j->top ? j->top : ' ', 0};
        int rd = j->param ? 0 : -1, cd = j->param ? 0 : -1; /* -1: leave on all */
        Cdgsum2d(g->ctxt, scope_name(j->scope), top, n, 1, v, ld1(n), rd, cd);
    }
}

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
        xsend(j, &dummy, 0, peer);
        xrecv(j, &dummy, 0, peer);
    } else {
        xrecv(j, &dummy, 0, peer);
        xsend(j, &dummy, 0, peer);
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
            xsend(j, j->s, j->n, peer);
            xrecv(j, j->r, j->n, peer);
        }
        return (MPI_Wtime() - t0) / reps / 2;
    }
    if (g->me == peer) {
        wakeup(j, 0, 0);
        for (int i = 0; i < reps; i++) {
            xrecv(j, j->r, j->n, 0);
            xsend(j, j->r, j->n, 0);
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
        j->s = dalloc(j->n);
        j->r = dalloc(j->n);
    }
    fill_pat(j->s, j->n, me, j->salt);
    inject(j, j->n ? &j->s[j->n / 2] : NULL);
    fill_val(j->r, j->n, SENTINEL);
}

static double run_echo(job *j, int reps) { return echo_loop(j, reps, j->peer); }

/* Both ends hold rank 0's vector: the peer received it, rank 0 got it back. */
static long check_echo(job *j)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return 0;
    return check_pat(j, me == 0 ? "echoed" : "received", j->r, j->n, 0);
}

static const kernel K_ECHO = {prep_pair, run_echo, check_echo, T_ROOT, 0, 1};

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
            xsend(j, j->s, j->n, 1);
        return (MPI_Wtime() - t0) / reps;
    }
    if (g->me == 1) {
        wakeup(j, 0, 0);
        for (int i = 0; i < reps; i++)
            xrecv(j, j->r, j->n, 0);
    }
    return -1;
}

static long check_ts(job *j) { return j->g->me == 1 ? check_pat(j, "received", j->r, j->n, 0) : 0; }

static const kernel K_TS = {prep_pair, run_ts, check_ts, T_ROOT, 0, 1};

/* T_m: malloc, memory-to-memory copy and free of the message, on rank 0
 * (what a buffered send costs besides the transfer).  Nothing moves between
 * processes, so nothing is checked. */
static void prep_tm(job *j)
{
    if (j->g->me == 0 && !j->s) {
        j->s = dalloc(j->n);
        fill_pat(j->s, j->n, 0, j->salt);
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
            die("out of memory in T_m");
        memcpy(p, j->s, bytes);
        __asm__ __volatile__("" : : "r"(p) : "memory"); /* keep the copy: p escapes */
        free(p);
    }
    return (MPI_Wtime() - t0) / reps;
}

static const kernel K_TM = {prep_tm, run_tm, NULL, T_ROOT, 0, 0};

/* Broadcast from the root of each scope: receivers get the root's vector. */
static void prep_bcast(job *j)
{
    if (!j->s)
        j->s = dalloc(j->n);
    if (scope_root(j)) {
        fill_pat(j->s, j->n, scope_root_rank(j), j->salt);
        inject(j, j->n ? &j->s[j->n / 2] : NULL);
    } else {
        fill_val(j->s, j->n, SENTINEL);
    }
}

/* LAWN D.3: every process times reps broadcasts (after the engine's
 * MPI_Barrier); rows report the maximum and the source's time. */
static double run_bcast(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        xbcast(j, j->s, j->n, 1, ld1(j->n), MPI_DATATYPE_NULL);
    return (MPI_Wtime() - t0) / reps;
}

static long check_bcast(job *j)
{
    return scope_root(j) ? 0 : check_pat(j, "received", j->s, j->n, scope_root_rank(j));
}

static const kernel K_BCAST = {prep_bcast, run_bcast, check_bcast, T_MAX, 1, 1};

/* CoMet's broadcast: broadcast then barrier, timed on the test node (rank 0). */
static double run_comet_bcast(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        xbcast(j, j->s, j->n, 1, ld1(j->n), MPI_DATATYPE_NULL);
        xbarrier(j);
    }
    return (MPI_Wtime() - t0) / reps;
}

static const kernel K_COMET_BCAST = {prep_bcast, run_comet_bcast, check_bcast, T_ROOT, 0, 1};

/* Combine (sum): in the verification run every process contributes its
 * pattern and the destinations check the exact sum; timed runs sum zeros,
 * which stay zeros however many repetitions (and never overflow). */
static void prep_sum(job *j)
{
    if (!j->s)
        j->s = dalloc(j->n);
    if (j->verifying) {
        fill_pat(j->s, j->n, j->g->me, j->salt);
        inject(j, j->n ? &j->s[j->n / 2] : NULL);
    } else {
        fill_val(j->s, j->n, 0.0);
    }
}

static double run_sum(job *j, int reps)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        xsum(j, j->s, j->n);
    return (MPI_Wtime() - t0) / reps;
}

static long check_sum(job *j)
{
    const grid *g = j->g;
    if (!j->verifying || (j->param && !scope_root(j))) /* leave-on-one: others unspecified */
        return 0;
    long bad = 0;
    for (int i = 0; i < j->n; i++) {
        double want = 0;
        for (int p = 0; p < g->np; p++) {
            int in = j->scope == 'R' ? p / g->Q == g->myrow : j->scope == 'C' ? p % g->Q == g->mycol : 1;
            if (in)
                want += pat(p, (size_t)i, j->salt);
        }
        bad += mismatch(j, "sum", i, j->s[i], want);
    }
    return bad;
}

static const kernel K_COMB = {prep_sum, run_sum, check_sum, T_MAX, 0, 0};
static const kernel K_GSUM = {prep_sum, run_sum, check_sum, T_ROOT, 0, 0}; /* CoMet: test node's time */

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
        xbarrier(j);
        j->aux = MPI_Wtime() - t0;
        return j->aux;
    }
    xbarrier(j);
    double best = INFINITY, sum = 0;
    for (int i = 0; i < reps; i++) {
        double t0 = MPI_Wtime();
        xbarrier(j);
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
    return report_bad(j, "left the barrier after %.1f ms, but rank 0 entered it %.0f ms late", j->aux * 1e3,
                      BARRIER_DELAY * 1e3);
}

static const kernel K_BARRIER = {prep_barrier, run_barrier, check_barrier, T_ROOT, 0, 0};

/* Pairwise exchange (CoMet): rank 0 and the peer both send, then receive. */

static double run_exchange(job *j, int reps)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return -1;
    int other = me == 0 ? j->peer : 0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        xexchange(j, j->s, j->r, j->n, other);
    return me == 0 ? (MPI_Wtime() - t0) / reps : -1;
}

static long check_exchange(job *j)
{
    int me = j->g->me;
    if (me != 0 && me != j->peer)
        return 0;
    return check_pat(j, "received", j->r, j->n, me == 0 ? j->peer : 0);
}

static const kernel K_EXCHANGE = {prep_pair, run_exchange, check_exchange, T_ROOT, 0, 1};

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
            j->x = dalloc(nl);
            j->y = dalloc(nl);
        }
        fill_pat(j->x, nl, me, j->salt);
        fill_val(j->y, nl, SENTINEL);
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
        xexchange(j, j->x, j->y, nl, partner);
        if (j->y[0] != 0 && j->y[0] != 1)
            j->bad += report_bad(j, "load flag = %g, expected 0 or 1", j->y[0]);
        for (int i = 1; i < nl; i++)
            j->bad += mismatch(j, "load", i, j->y[i], pat(partner, (size_t)i, j->salt));
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

static const kernel K_CONTENTION = {prep_contention, run_contention, check_contention, T_ROOT, 0, 1};

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
        j->x = dalloc((size_t)j->param);
        j->y = dalloc((size_t)j->param);
    }
    fill_val(j->x, (size_t)j->param, 1.0);
    fill_val(j->y, (size_t)j->param, 0.0);
}

static double run_overlap(job *j, int reps)
{
    int me = j->g->me, peer = 1 - me, len = (int)j->param;
    if (me > 1)
        return -1;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (j->mode == OV_SYNC) {
            xexchange(j, j->s, j->r, j->n, peer);
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
            xsend(j, j->s, j->n, peer);
            cblas_daxpy(len, 1.0, j->x, 1, j->y, 1);
            xrecv(j, j->r, j->n, peer);
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
        bad += check_pat(j, "received", j->r, j->n, 1 - me);
    for (long i = 0; i < j->param; i++)
        bad += mismatch(j, "daxpy y", i, j->y[i], (double)j->total);
    return bad;
}

static const kernel K_OVERLAP = {prep_overlap, run_overlap, check_overlap, T_ROOT, 0, 1};

/* ---------------------------------------------------------------------------
 * Matrix kernels on the P x Q grid: a global matrix of (P nl) x (Q nl)
 * elements gmat(i, j), block-distributed, nl x nl per process.  Rows report
 * the maximum time over the grid.
 * ------------------------------------------------------------------------ */
static int north(const grid *g) { return ((g->myrow + g->P - 1) % g->P) * g->Q + g->mycol; }
static int south(const grid *g) { return ((g->myrow + 1) % g->P) * g->Q + g->mycol; }
static int east(const grid *g) { return g->myrow * g->Q + (g->mycol + 1) % g->Q; }
static int west(const grid *g) { return g->myrow * g->Q + (g->mycol + g->Q - 1) % g->Q; }

/* The same strided send/receive for both variants: BLACS take (m, n, lda);
 * MPI gets the row datatype for 1 x n rows. */
static void msend(job *j, double *a, int m, int n, int lda, int to, int tag, MPI_Request *rq)
{
    const grid *g = j->g;
    if (j->mpi)
        MPI_Isend(a, m == 1 ? 1 : m * n, m == 1 ? j->vec : MPI_DOUBLE, to, tag, g->comm, rq);
    else
        Cdgesd2d(g->ctxt, m, n, a, lda, to / g->Q, to % g->Q);
}

static void mrecv(job *j, double *a, int m, int n, int lda, int from, int tag, MPI_Request *rq)
{
    const grid *g = j->g;
    if (j->mpi)
        MPI_Irecv(a, m == 1 ? 1 : m * n, m == 1 ? j->vec : MPI_DOUBLE, from, tag, g->comm, rq);
    else
        Cdgerv2d(g->ctxt, m, n, a, lda, from / g->Q, from % g->Q);
}

/* Guard-strip update (CoMet figure 11): the local block lives inside a
 * one-element guard wrapper, (nl+2) x (nl+2); the first and last interior
 * rows go north and south, the first and last interior columns west and
 * east (periodic neighbours), and come back into the guard strips. */
static void prep_guard(job *j)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2;
    if (!j->s) {
        j->s = dalloc((size_t)ld * ld);
        if (j->mpi) {
            MPI_Type_vector(nl, 1, ld, MPI_DOUBLE, &j->vec);
            MPI_Type_commit(&j->vec);
        }
    }
    fill_val(j->s, (size_t)ld * ld, SENTINEL);
    fill_block(j->s + 1 + ld, ld, nl, g->myrow, g->mycol);
    inject(j, &j->s[1 + ld]); /* in the north row and the west column */
}

static double run_guard(job *j, int reps)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2;
    double *a = j->s;
    int N = north(g), S = south(g), E = east(g), W = west(g);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        MPI_Request rq[8];
        /* Receives first for MPI (posted non-blocking); the BLACS send
         * first and receive after, in an order that also matches when two
         * neighbours are the same process (P or Q = 1 or 2): messages
         * between two processes arrive in the order sent. */
        if (j->mpi) {
            mrecv(j, &a[nl + 1 + ld], 1, nl, ld, S, TAG_N, &rq[0]);
            mrecv(j, &a[0 + ld], 1, nl, ld, N, TAG_S, &rq[1]);
            mrecv(j, &a[1], nl, 1, ld, W, TAG_E, &rq[2]);
            mrecv(j, &a[1 + (size_t)(nl + 1) * ld], nl, 1, ld, E, TAG_W, &rq[3]);
        }
        msend(j, &a[1 + ld], 1, nl, ld, N, TAG_N, &rq[4]);              /* north row */
        msend(j, &a[nl + ld], 1, nl, ld, S, TAG_S, &rq[5]);             /* south row */
        msend(j, &a[1 + (size_t)nl * ld], nl, 1, ld, E, TAG_E, &rq[6]); /* east column */
        msend(j, &a[1 + ld], nl, 1, ld, W, TAG_W, &rq[7]);              /* west column */
        if (j->mpi) {
            MPI_Status st[8]; /* not MPI_STATUSES_IGNORE (see run_overlap) */
            MPI_Waitall(8, rq, st);
        } else {
            mrecv(j, &a[nl + 1 + ld], 1, nl, ld, S, 0, NULL);               /* south guard */
            mrecv(j, &a[0 + ld], 1, nl, ld, N, 0, NULL);                    /* north guard */
            mrecv(j, &a[1], nl, 1, ld, W, 0, NULL);                         /* west guard */
            mrecv(j, &a[1 + (size_t)(nl + 1) * ld], nl, 1, ld, E, 0, NULL); /* east guard */
        }
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_guard(job *j)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2, P = g->P, Q = g->Q;
    long r0 = (long)g->myrow * nl, c0 = (long)g->mycol * nl;
    long up = ((long)(g->myrow + P - 1) % P) * nl + nl - 1, down = ((long)(g->myrow + 1) % P) * nl;
    long left = ((long)(g->mycol + Q - 1) % Q) * nl + nl - 1, right = ((long)(g->mycol + 1) % Q) * nl;
    const double *a = j->s;
    long bad = 0;
    for (int k = 0; k < nl; k++) {
        bad += mismatch(j, "north guard", k, a[0 + (size_t)(k + 1) * ld], gmat(up, c0 + k));
        bad += mismatch(j, "south guard", k, a[nl + 1 + (size_t)(k + 1) * ld], gmat(down, c0 + k));
        bad += mismatch(j, "west guard", k, a[k + 1], gmat(r0 + k, left));
        bad += mismatch(j, "east guard", k, a[k + 1 + (size_t)(nl + 1) * ld], gmat(r0 + k, right));
    }
    return bad;
}

static const kernel K_GUARD = {prep_guard, run_guard, check_guard, T_MAX, 0, 1};

/* Shift (CoMet figure 12): every process sends its block north (param 0)
 * or east (param 1) and receives its neighbour's; after k shifts north a
 * process holds the block of the process k rows below it. */
static void prep_block2(job *j)
{
    const grid *g = j->g;
    size_t nn = (size_t)j->n * j->n;
    if (!j->s) {
        j->s = dalloc(nn);
        j->r = dalloc(nn);
    }
    fill_block(j->s, j->n, j->n, g->myrow, g->mycol);
    inject(j, j->s);
    fill_val(j->r, nn, SENTINEL);
}

/* Send block s to `to`, receive the block from `from` into r. */
static void block_exchange(job *j, int to, int from)
{
    const grid *g = j->g;
    int nl = j->n, nn = nl * nl;
    if (j->mpi) {
        MPI_Sendrecv(j->s, nn, MPI_DOUBLE, to, TAG_P2P, j->r, nn, MPI_DOUBLE, from, TAG_P2P, g->comm,
                     MPI_STATUS_IGNORE);
    } else {
        Cdgesd2d(g->ctxt, nl, nl, j->s, nl, to / g->Q, to % g->Q);
        Cdgerv2d(g->ctxt, nl, nl, j->r, nl, from / g->Q, from % g->Q);
    }
}

static double run_shift(job *j, int reps)
{
    const grid *g = j->g;
    int to = j->param ? east(g) : north(g), from = j->param ? west(g) : south(g);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        block_exchange(j, to, from);
        double *t = j->s; /* what came in is my block now */
        j->s = j->r;
        j->r = t;
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_shift(job *j)
{
    const grid *g = j->g;
    int pr = g->myrow, pc = g->mycol;
    if (j->param)
        pc = (int)(((long)pc - j->total % g->Q + g->Q) % g->Q);
    else
        pr = (int)((pr + j->total) % g->P);
    return check_block(j, "block", j->s, j->n, j->n, pr, pc);
}

static const kernel K_SHIFT = {prep_block2, run_shift, check_shift, T_MAX, 0, 1};

/* Transpose (CoMet figure 13), square grids: exchange the block with the
 * process at the transposed position, then transpose it locally (the
 * diagonal only transposes).  After an odd number of transposes process
 * (r, c) holds block (c, r) of the matrix, transposed. */
static void local_transpose(double *dst, const double *src, int nl)
{
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            dst[i + (size_t)jj * nl] = src[jj + (size_t)i * nl];
}

static double run_transpose(job *j, int reps)
{
    const grid *g = j->g;
    int partner = g->mycol * g->Q + g->myrow, nl = j->n;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (partner != g->me) {
            block_exchange(j, partner, partner);
            local_transpose(j->s, j->r, nl);
        } else {
            local_transpose(j->r, j->s, nl);
            double *t = j->s;
            j->s = j->r;
            j->r = t;
        }
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_transpose(job *j)
{
    const grid *g = j->g;
    int nl = j->n;
    if (j->total % 2 == 0)
        return check_block(j, "block", j->s, nl, nl, g->myrow, g->mycol);
    long bad = 0;
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            bad += mismatch(j, "transposed block", i + (long)jj * nl, j->s[i + (size_t)jj * nl],
                            gmat((long)g->mycol * nl + jj, (long)g->myrow * nl + i));
    return bad;
}

static const kernel K_TRANSPOSE = {prep_block2, run_transpose, check_transpose, T_MAX, 0, 1};

/* Row broadcast (param 0): global row nl/2 lives in process row 0; each
 * process of row 0 broadcasts its piece (1 x nl, stride nl) down its
 * column, scope 'Column'.  Column broadcast (param 1): global column nl/2
 * lives in process column 0, broadcast along the rows, scope 'Row'. */
static void prep_rowcol(job *j)
{
    const grid *g = j->g;
    int nl = j->n;
    if (!j->s) {
        j->s = dalloc((size_t)nl * nl);
        j->r = dalloc(nl);
        if (j->mpi && !j->param) {
            MPI_Type_vector(nl, 1, nl, MPI_DOUBLE, &j->vec);
            MPI_Type_commit(&j->vec);
        }
    }
    fill_block(j->s, nl, nl, g->myrow, g->mycol);
    inject(j, j->param ? &j->s[(size_t)(nl / 2) * nl] : &j->s[nl / 2]);
    fill_val(j->r, nl, SENTINEL);
}

static double run_rowcol(job *j, int reps)
{
    int nl = j->n, l = nl / 2, root = scope_root(j);
    double *v = !root ? j->r : j->param ? &j->s[(size_t)l * nl] : &j->s[l];
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (j->param) /* a column: nl x 1, contiguous */
            xbcast(j, v, nl, 1, nl, MPI_DATATYPE_NULL);
        else /* a row: 1 x nl with stride nl on the root */
            xbcast(j, v, 1, nl, root ? nl : 1, root && j->mpi ? j->vec : MPI_DATATYPE_NULL);
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_rowcol(job *j)
{
    const grid *g = j->g;
    int nl = j->n, l = nl / 2, root = scope_root(j);
    long bad = 0;
    for (int k = 0; k < nl; k++) {
        /* Receivers got the piece; the root's own copy must be intact. */
        double got = !root ? j->r[k] : j->param ? j->s[k + (size_t)l * nl] : j->s[l + (size_t)k * nl];
        double want = j->param ? gmat((long)g->myrow * nl + k, l) : gmat(l, (long)g->mycol * nl + k);
        bad += mismatch(j, root ? "source piece" : "received piece", k, got, want);
    }
    return bad;
}

static const kernel K_ROWCOL = {prep_rowcol, run_rowcol, check_rowcol, T_MAX, 0, 1};

/* ---------------------------------------------------------------------------
 * The engine: verify, decide the repetitions, run the trials, write rows
 * ------------------------------------------------------------------------ */
static void job_free(job *j)
{
    free(j->s);
    free(j->r);
    free(j->x);
    free(j->y);
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
                j->series, j->op, impl_of(j), top_char(j), j->bytes, j->g->name, when, all);
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
    fprintf(j->b->csv, "%s,%s,%s,%c,%d,%s,%zu,%d,%d,%.3f,", impl_of(j), j->series, j->op, top_char(j), g->np,
            g->name, j->bytes, j->reps, trial, v * 1e6);
    if (j->k->src_time)
        fprintf(j->b->csv, "%.3f", tl * 1e6);
    fputc('\n', j->b->csv);
    fflush(j->b->csv);
}

/* One size of one series: every variant is verified and calibrated, then
 * the variants take turns trial by trial, so that noise hits them alike.
 * Every fifth size (index % 5 == 0) runs re_trials trials (LAWN's RE). */
static void run_point(bench *b, job *jobs, int nj, int index)
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

/* ---------------------------------------------------------------------------
 * Series: what to measure at each size
 * ------------------------------------------------------------------------ */
typedef struct {
    job j[MAX_JOBS];
    int n;
} jobset;

static job proto(bench *b, grid *g, const kernel *k, const char *series, const char *op, size_t bytes, int n,
                 int index)
{
    job j;
    memset(&j, 0, sizeof j);
    j.b = b;
    j.g = g;
    j.k = k;
    j.series = series;
    snprintf(j.op, sizeof j.op, "%s", op);
    j.bytes = bytes;
    j.n = n;
    j.peer = 1;
    j.scope = 'A';
    j.vec = MPI_DATATYPE_NULL;
    j.salt = (unsigned)bytes * 7u + (unsigned)index;
    return j;
}

/* Adds the BLACS variant (with TOP top) or the MPI one, as --mpi allows. */
static void push(jobset *js, const job *p, int mpi, char top)
{
    int mode = p->b->cfg.mpi_mode;
    if ((mpi && mode == MPI_NO) || (!mpi && mode == MPI_ONLY))
        return;
    if (js->n == MAX_JOBS)
        die("too many variants in one point");
    job *j = &js->j[js->n++];
    *j = *p;
    j->mpi = mpi;
    j->top = mpi ? 0 : top;
}

static void push_both(jobset *js, const job *p, char top)
{
    push(js, p, 0, top);
    push(js, p, 1, 0);
}

/* Broadcasts and combines on --scope: All of the 1 x np grid, or the rows /
 * columns of the P x Q grid. */
static grid *scope_grid(bench *b) { return b->cfg.scope == 'A' ? &b->row : &b->mat; }

static const char *scope_suffix(char scope) { return scope == 'R' ? "_row" : scope == 'C' ? "_col" : ""; }

/* Every TOP of --tops, then the MPI collective. */
static void push_tops(jobset *js, const job *p)
{
    for (const char *t = p->b->cfg.tops; *t; t++)
        push(js, p, 0, *t);
    push(js, p, 1, 0);
}

/* Builders: add the jobs of one size (message of n doubles, or local block
 * nl x nl for the matrix kernels) to js. */
typedef void (*builder)(bench *b, jobset *js, const char *series, size_t bytes, int n, int index);

static void b_tc(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &K_ECHO, series, "tc", bytes, n, i);
    push_both(js, &p, 0);
}

static void b_ts(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &K_TS, series, "ts", bytes, n, i);
    size_t cap = b->cfg.ts_cap / (bytes ? bytes : 1);
    p.max_reps = bytes == 0 ? 0 : cap < 1 ? 1 : cap > 0x7fffffff ? 0x7fffffff : (int)cap;
    push_both(js, &p, 0);
}

static void b_tm(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &K_TM, series, "tm", bytes, n, i);
    push(js, &p, 0, 0); /* no communication: under the binary's label only */
}

static void b_bcast(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    char scope = b->cfg.scope;
    job p = proto(b, scope_grid(b), &K_BCAST, series,
                  scope == 'R'   ? "row"
                  : scope == 'C' ? "col"
                                 : "all",
                  bytes, n, i);
    p.scope = scope;
    p.fixed_reps = !strcmp(series, "bcast1"); /* LAWN 4.4.2: single repetitions */
    push_tops(js, &p);
}

static void b_comb(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int one = 0; one <= 1; one++) {
        char op[32];
        snprintf(op, sizeof op, "%s%s", one ? "reduce" : "allreduce", scope_suffix(b->cfg.scope));
        job p = proto(b, scope_grid(b), &K_COMB, series, op, bytes, n, i);
        p.scope = b->cfg.scope;
        p.param = one;
        push_tops(js, &p);
    }
}

/* The user-defined combine's cost: the same sum through vGSUM2D (op
 * "gsum") and through vTUOP2D with an element-wise sum (op "tuop"), TOP
 * ' ', leave-on-all and leave-on-one, side by side. */
static void b_uop(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int one = 0; one <= 1; one++)
        for (int user = 0; user <= 1; user++) {
            char op[32];
            snprintf(op, sizeof op, "%s%s", user ? "tuop" : "gsum", one ? "-one" : "-all");
            job p = proto(b, &b->row, &K_COMB, series, op, bytes, n, i);
            p.param = one;
            p.mode = user ? UOP_SUM : 0;
            push(js, &p, 0, ' ');
        }
}

/* Echo and exchange: rank 0 with every other rank, op "dK" = K columns
 * away on the 1 x np grid. */
static void b_pairs(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int peer = 1; peer < b->row.np; peer++) {
        char op[16];
        snprintf(op, sizeof op, "d%d", peer);
        job p = proto(b, &b->row, !strcmp(series, "echo") ? &K_ECHO : &K_EXCHANGE, series, op, bytes, n, i);
        p.peer = peer;
        push_both(js, &p, 0);
    }
}

static void b_comet_bcast(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &K_COMET_BCAST, series, "bcast", bytes, n, i);
    push_both(js, &p, ' ');
}

static void b_gsum(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &K_GSUM, series, "gsum", bytes, n, i);
    push_both(js, &p, ' ');
}

static void b_barrier(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int mode = 0; mode <= 1; mode++) {
        job p = proto(b, &b->row, &K_BARRIER, series, mode ? "avg" : "best", bytes, n, i);
        p.mode = mode;
        push_both(js, &p, 0);
    }
}

static void b_contention(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int loaded = 0; loaded <= 1; loaded++) {
        job p = proto(b, &b->row, &K_CONTENTION, series, loaded ? "loaded" : "quiet", bytes, n, i);
        p.param = loaded;
        push_both(js, &p, 0);
    }
}

static void b_overlap(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    static const char *names[] = {"sync", "ovl", "comp"};
    for (int d = 0; d < b->cfg.ndaxpy; d++)
        for (int mode = OV_SYNC; mode <= OV_COMPUTE; mode++) {
            char op[32];
            snprintf(op, sizeof op, "%s_v%ld", names[mode], b->cfg.daxpy[d]);
            job p = proto(b, &b->row, &K_OVERLAP, series, op, bytes, n, i);
            p.param = b->cfg.daxpy[d];
            p.mode = mode;
            if (mode == OV_COMPUTE) /* no communication: once, under the binary's label */
                push(js, &p, b->cfg.mpi_mode == MPI_ONLY, 0);
            else
                push_both(js, &p, 0);
        }
}

/* Matrix kernels on the P x Q grid (n = local dimension). */
static void b_matrix(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    static const struct {
        const char *series, *op[2];
        const kernel *k;
        char scope;
    } M[] = {
        {"guard", {"nsew", NULL}, &K_GUARD, 'A'},
        {"shift", {"north", "east"}, &K_SHIFT, 'A'},
        {"transpose", {"block", NULL}, &K_TRANSPOSE, 'A'},
        {"rowbcast", {"row", NULL}, &K_ROWCOL, 'C'}, /* param 0: a row, down the columns */
        {"colbcast", {"col", NULL}, &K_ROWCOL, 'R'}, /* param 1: a column, along the rows */
    };
    for (size_t m = 0; m < sizeof M / sizeof M[0]; m++) {
        if (strcmp(series, M[m].series))
            continue;
        for (int v = 0; v < 2 && M[m].op[v]; v++) {
            job p = proto(b, &b->mat, M[m].k, series, M[m].op[v], bytes, n, i);
            p.param = M[m].scope == 'R' ? 1 : v; /* shift: 0 north, 1 east */
            p.scope = M[m].scope;
            push_both(js, &p, ' ');
        }
    }
}

/* Why a series cannot run on this job, or NULL. */
static const char *need2(const bench *b) { return b->row.np < 2 ? "needs 2 processes" : NULL; }
static const char *need4(const bench *b)
{
    return b->row.np < 4 ? "needs 4 processes: 0-1 echo while 2-3 exchange" : NULL;
}
static const char *need_ext(const bench *b)
{
    (void)b;
#ifdef BENCH_EXTENSIONS
    return NULL;
#else
    return "vTUOP2D is an extension of this library";
#endif
}
static const char *need_square(const bench *b)
{
    return b->mat.P != b->mat.Q ? "the grid is not square" : NULL;
}

enum { SZ_VECTOR, SZ_MATRIX, SZ_NONE };

static const struct series {
    const char *name, *group;
    builder build;
    int sizing;
    const char *(*cannot)(const bench *b);
    const char *what;
} SERIES[] = {
    {"tc", "lawn", b_tc, SZ_VECTOR, need2, "LAWN T_c: echo {0,0} <-> {0,1}; t = round trip / reps / 2"},
    {"ts", "lawn", b_ts, SZ_VECTOR, need2, "LAWN T_s: time to return from a send, {0,0} -> {0,1}"},
    {"tm", "lawn", b_tm, SZ_VECTOR, NULL, "LAWN T_m: malloc + copy + free of the message, rank 0"},
    {"bcast", "lawn", b_bcast, SZ_VECTOR, NULL,
     "LAWN broadcast survey per TOP + MPI_Bcast; t = max, t_src = source"},
    {"bcast1", "lawn", b_bcast, SZ_VECTOR, NULL, "the same with reps = 1 (no pipelining between broadcasts)"},
    {"comb", "lawn", b_comb, SZ_VECTOR, NULL,
     "LAWN combine survey: DGSUM2D leave-on-all / -one per TOP; t = max"},
    {"echo", "comet", b_pairs, SZ_VECTOR, need2, "CoMet echo, rank 0 with every rank (op dK); one-way time"},
    {"exchange", "comet", b_pairs, SZ_VECTOR, need2, "CoMet pairwise exchange, rank 0 with every rank"},
    {"comet_bcast", "comet", b_comet_bcast, SZ_VECTOR, NULL,
     "CoMet broadcast: broadcast + barrier, on rank 0"},
    {"gsum", "comet", b_gsum, SZ_VECTOR, NULL, "CoMet global sum (leave on all), time on rank 0"},
    {"uop", "lawn", b_uop, SZ_VECTOR, need_ext,
     "vTUOP2D (a user-defined sum) against DGSUM2D, TOP ' '; t = max"},
    {"barrier", "comet", b_barrier, SZ_NONE, NULL, "CoMet barrier: best (op best) and average (op avg)"},
    {"contention", "comet", b_contention, SZ_VECTOR, need4,
     "CoMet echo 0<->1, quiet and while 2<->3 exchange"},
    {"overlap", "comet", b_overlap, SZ_VECTOR, need2,
     "CoMet overlap: exchange 0<->1 + DAXPY, sync vs overlapped"},
    {"guard", "comet", b_matrix, SZ_MATRIX, NULL, "CoMet guard-strip update, periodic N/S/E/W; t = max"},
    {"shift", "comet", b_matrix, SZ_MATRIX, NULL, "CoMet shift of the local blocks north and east; t = max"},
    {"transpose", "comet", b_matrix, SZ_MATRIX, need_square, "CoMet transpose, square grids; t = max"},
    {"rowbcast", "comet", b_matrix, SZ_MATRIX, NULL, "CoMet row broadcast down the columns ('C'); t = max"},
    {"colbcast", "comet", b_matrix, SZ_MATRIX, NULL, "CoMet column broadcast along the rows ('R'); t = max"},
};
#define NSERIES (sizeof SERIES / sizeof SERIES[0])

/* Runs one series over the sizes.  Matrix kernels read a size as the
 * bytes of the local block: nl = floor(sqrt(bytes / 8)), reported as
 * nl * nl * 8; sizes giving no new nl are skipped. */
static void run_series(bench *b, const struct series *s)
{
    const config *c = &b->cfg;
    const char *why = s->cannot ? s->cannot(b) : NULL;
    if (why) {
        if (b->wrank == 0)
            fprintf(stderr, "[%s np=%d] %s: skipped (%s, grid %s)\n", c->impl, b->wsize, s->name, why,
                    s->sizing == SZ_MATRIX ? b->mat.name : b->row.name);
        return;
    }
    int last_nl = -1;
    for (int i = 0; i < (s->sizing == SZ_NONE ? 1 : c->nsizes); i++) {
        if (c->re_only && i % 5 != 0)
            continue;
        size_t bytes = s->sizing == SZ_NONE ? 0 : c->sizes[i];
        int n = (int)(bytes / sizeof(double));
        if (s->sizing == SZ_MATRIX) {
            int nl = (int)sqrt((double)n);
            while ((long)(nl + 1) * (nl + 1) <= n)
                nl++;
            while ((long)nl * nl > n)
                nl--;
            if (nl < 1 || nl == last_nl)
                continue;
            last_nl = n = nl;
            bytes = (size_t)nl * nl * sizeof(double);
        }
        jobset js = {.n = 0};
        s->build(b, &js, s->name, bytes, n, i);
        if (js.n == 0 || js.j[0].g->ctxt < 0) /* nothing to run, or outside the grid */
            continue;
        if (b->wrank == 0 && !c->quiet) {
            fprintf(stderr, "[%s np=%d %6.1fs] %-11s %9zu B  grid %s, %d variant%s\n", c->impl, b->wsize,
                    MPI_Wtime() - b->t0, s->name, bytes, js.j[0].g->name, js.n, js.n == 1 ? "" : "s");
            fflush(stderr);
        }
        run_point(b, js.j, js.n, i);
    }
}

/* ---------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------ */
static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -np NP blacsbench [options]\n"
            "  --series LIST    series or groups (all, lawn, comet), comma-separated [all]\n"
            "  --sizes LIST     message sizes: bytes with optional K/M/G (x1024), 'd' suffix = doubles\n"
            "                   (1000d), ranges A:B:STEP or A:B:xFACTOR [8,1K,16K,64K,256K,1M,8M]\n"
            "  --lawn           LAWN 73's range: N = 0..50000 doubles every 1000\n"
            "  --tops LETTERS   broadcast/combine TOPs, '_' = the blank default TOP [_ISH1F]\n"
            "  --grid PxQ       grid of the matrix kernels and of --scope R/C [squarest]\n"
            "  --scope A|R|C    scope of bcast, bcast1, comb: All of a 1 x np grid, or the rows /\n"
            "                   columns of the P x Q grid [A]\n"
            "  --reps N|auto    repetitions inside the timing loop [auto]\n"
            "  --target-ms T    auto: one timing takes about T ms [10]\n"
            "  --max-reps N     at most N repetitions [100000]\n"
            "  --trials N       timings per size [3]\n"
            "  --re-trials N    timings of every fifth size (index %% 5 == 0), for LAWN's RE [10]\n"
            "  --round R        number trials from R*trials+1 (for drivers that alternate runs) [0]\n"
            "  --re-only        run only every fifth size\n"
            "  --daxpy LIST     DAXPY lengths of the overlap kernel [10000,1000000]\n"
            "  --ts-cap BYTES   T_s: reps * bytes at most [64M]\n"
            "  --set W=V,...    BLACS_SET on every grid before timing, W in 11..14: rings of 'M'\n"
            "                   broadcasts (11) and combines (13), branches of 'T' broadcasts\n"
            "                   (12) and combines (14) [library defaults]\n"
            "  --mpi yes|no|only  raw MPI variants too / not / only [yes]\n"
            "  --impl LABEL     label of the BLACS rows [%s]\n"
            "  --csv PATH       append rows to PATH (header if new) [blacsbench.csv]\n"
            "  --inject-fault   corrupt data in the verification runs (tests the checks)\n"
            "  --quiet          no progress on stderr\n"
            "  --list-series    print the names of the selected series and exit\n"
            "series:\n",
            BENCH_IMPL);
    for (size_t i = 0; i < NSERIES; i++)
        fprintf(f, "  %-12s %-6s %s\n", SERIES[i].name, SERIES[i].group, SERIES[i].what);
}

static size_t parse_amount(const char *s, const char *what)
{
    char *end;
    double v = strtod(s, &end);
    double mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1024, end++;
    else if (*end == 'M' || *end == 'm')
        mult = 1024.0 * 1024, end++;
    else if (*end == 'G' || *end == 'g')
        mult = 1024.0 * 1024 * 1024, end++;
    if (*end == 'd' || *end == 'D')
        mult *= sizeof(double), end++;
    if (end == s || *end || v < 0)
        die("bad %s '%s'", what, s);
    return (size_t)(v * mult + 0.5);
}

static void add_size(config *c, size_t bytes)
{
    if (bytes % sizeof(double))
        die("size %zu bytes is not a whole number of doubles", bytes);
    if (bytes / sizeof(double) > 0x7fffffff / 2)
        die("size %zu bytes is too large", bytes);
    if (c->nsizes == MAX_SIZES)
        die("too many sizes (at most %d)", MAX_SIZES);
    c->sizes[c->nsizes++] = bytes;
}

static void parse_sizes(config *c, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    c->nsizes = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *c1 = strchr(tok, ':');
        if (!c1) {
            add_size(c, parse_amount(tok, "size"));
            continue;
        }
        char *c2 = strchr(c1 + 1, ':');
        if (!c2)
            die("bad size range '%s' (A:B:STEP or A:B:xFACTOR)", tok);
        *c1 = *c2 = 0;
        size_t a = parse_amount(tok, "size"), z = parse_amount(c1 + 1, "size");
        if (c2[1] == 'x') {
            double f = strtod(c2 + 2, NULL);
            if (f <= 1 || a == 0)
                die("bad geometric range: factor must be > 1, start > 0");
            for (double s = (double)a; s <= (double)z * (1 + 1e-12); s *= f)
                add_size(c, ((size_t)(s + 0.5) / sizeof(double)) * sizeof(double));
        } else {
            size_t st = parse_amount(c2 + 1, "step");
            if (st == 0)
                die("bad range step 0");
            for (size_t s = a; s <= z; s += st)
                add_size(c, s);
        }
    }
    free(copy);
    if (c->nsizes == 0)
        die("no sizes");
}

static void parse_tops(config *c, const char *s)
{
    int n = 0;
    for (; *s; s++) {
        char t = *s == '_' ? ' ' : (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
        if (!strchr(VALID_TOPS, t) || t == 0)
            die("unknown TOP '%c' (valid: _ I D S M F H T 1-9)", *s);
        if (!memchr(c->tops, t, (size_t)n)) {
            if (n + 1 >= (int)sizeof c->tops)
                die("too many TOPs");
            c->tops[n++] = t;
        }
    }
    c->tops[n] = 0;
}

static unsigned long parse_series(const char *list)
{
    unsigned long mask = 0;
    char *copy = strdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (size_t i = 0; i < NSERIES; i++)
            if (!strcmp(tok, "all") || !strcmp(tok, SERIES[i].name) || !strcmp(tok, SERIES[i].group)) {
                mask |= 1ul << i;
                found = 1;
            }
        if (!found)
            die("unknown series '%s' (see --help)", tok);
    }
    free(copy);
    return mask;
}

static int parse_int(const char *s, const char *what, int lo)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > 0x7fffffff)
        die("bad %s '%s'", what, s);
    return (int)v;
}

/* --set W=V[,W=V...]: the topology parameters of BLACS_SET (codes 11-14). */
static void parse_set(config *c, const char *val)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", val);
    c->nset = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int w, v, n = 0;
        if (sscanf(t, "%d=%d%n", &w, &v, &n) != 2 || t[n] || w < 11 || w > 14)
            die("bad --set '%s': want WHAT=VALUE with WHAT in 11..14", t);
        if (c->nset == 4)
            die("--set: at most 4 settings");
        c->set_what[c->nset] = w;
        c->set_val[c->nset++] = v;
    }
}

static void parse_args(config *c, int argc, char **argv)
{
    *c = (config){.impl = BENCH_IMPL,
                  .csv = "blacsbench.csv",
                  .scope = 'A',
                  .target_ms = 10,
                  .max_reps = 100000,
                  .trials = 3,
                  .re_trials = 10,
                  .ts_cap = 64u << 20,
                  .mpi_mode = MPI_YES,
                  .series = ~0ul >> (sizeof(long) * 8 - NSERIES)};
    parse_sizes(c, "8,1K,16K,64K,256K,1M,8M");
    parse_tops(c, "_ISH1F");
    c->daxpy[0] = 10000;
    c->daxpy[1] = 1000000;
    c->ndaxpy = 2;
    /* Long options only (the letters are just switch labels), plus -h. */
    static const struct option opts[] = {{"series", required_argument, NULL, 's'},
                                         {"sizes", required_argument, NULL, 'z'},
                                         {"lawn", no_argument, NULL, 'l'},
                                         {"tops", required_argument, NULL, 't'},
                                         {"grid", required_argument, NULL, 'g'},
                                         {"scope", required_argument, NULL, 'o'},
                                         {"reps", required_argument, NULL, 'r'},
                                         {"target-ms", required_argument, NULL, 'T'},
                                         {"max-reps", required_argument, NULL, 'M'},
                                         {"trials", required_argument, NULL, 'n'},
                                         {"re-trials", required_argument, NULL, 'N'},
                                         {"round", required_argument, NULL, 'R'},
                                         {"re-only", no_argument, NULL, 'O'},
                                         {"daxpy", required_argument, NULL, 'd'},
                                         {"ts-cap", required_argument, NULL, 'C'},
                                         {"set", required_argument, NULL, 'S'},
                                         {"mpi", required_argument, NULL, 'm'},
                                         {"impl", required_argument, NULL, 'i'},
                                         {"csv", required_argument, NULL, 'c'},
                                         {"inject-fault", no_argument, NULL, 'F'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"list-series", no_argument, NULL, 'L'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    opterr = 0; /* our messages, through die() */
    for (int o; (o = getopt_long(argc, argv, "+:h", opts, NULL)) != -1;) {
        const char *val = optarg;
        switch (o) {
        case 'h': {
            int me;
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
            if (me == 0)
                usage(stdout);
            MPI_Finalize();
            exit(0);
        }
        case 'L': c->list = 1; break;
        case 's': c->series = parse_series(val); break;
        case 'z': parse_sizes(c, val); break;
        case 'l': parse_sizes(c, "0:50000d:1000d"); break;
        case 't': parse_tops(c, val); break;
        case 'g':
            if (sscanf(val, "%dx%d", &c->P, &c->Q) != 2 || c->P < 1 || c->Q < 1)
                die("bad grid '%s' (PxQ)", val);
            break;
        case 'o':
            c->scope = (char)(val[0] >= 'a' ? val[0] - 32 : val[0]);
            if (!strchr("ARC", c->scope) || !c->scope)
                die("bad scope '%s' (A, R or C)", val);
            break;
        case 'r': c->reps = !strcmp(val, "auto") ? 0 : parse_int(val, "reps", 1); break;
        case 'T':
            c->target_ms = strtod(val, NULL);
            if (c->target_ms <= 0)
                die("bad target '%s'", val);
            break;
        case 'M': c->max_reps = parse_int(val, "max-reps", 1); break;
        case 'n': c->trials = parse_int(val, "trials", 1); break;
        case 'N': c->re_trials = parse_int(val, "re-trials", 0); break;
        case 'R': c->round = parse_int(val, "round", 0); break;
        case 'O': c->re_only = 1; break;
        case 'd': {
            char *copy = strdup(val), *save = NULL;
            c->ndaxpy = 0;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                if (c->ndaxpy == 16)
                    die("too many DAXPY lengths");
                c->daxpy[c->ndaxpy++] = parse_int(t, "DAXPY length", 0);
            }
            free(copy);
            break;
        }
        case 'C': c->ts_cap = parse_amount(val, "ts-cap"); break;
        case 'S': parse_set(c, val); break;
        case 'm':
            c->mpi_mode = !strcmp(val, "yes")    ? MPI_YES
                          : !strcmp(val, "no")   ? MPI_NO
                          : !strcmp(val, "only") ? MPI_ONLY
                                                 : -1;
            if (c->mpi_mode < 0)
                die("bad --mpi '%s' (yes, no, only)", val);
            break;
        case 'i': c->impl = val; break;
        case 'c': c->csv = val; break;
        case 'F': c->inject = 1; break;
        case 'q': c->quiet = 1; break;
        case ':': die("option %s needs a value (see --help)", argv[optind - 1]);
        default: die("unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die("unknown option '%s' (see --help)", argv[optind]);
}

/* ---------------------------------------------------------------------------
 * Grids
 * ------------------------------------------------------------------------ */
static void grid_init(grid *g, int P, int Q)
{
    memset(g, 0, sizeof *g);
    Cblacs_get(0, 0, &g->ctxt); /* default system context: MPI_COMM_WORLD */
    Cblacs_gridinit(&g->ctxt, "Row", P, Q);
    Cblacs_gridinfo(g->ctxt, &g->P, &g->Q, &g->myrow, &g->mycol);
    snprintf(g->name, sizeof g->name, "%dx%d", P, Q);
    g->np = P * Q;
    g->comm = g->rowcomm = g->colcomm = MPI_COMM_NULL;
    if (g->myrow < 0 || g->myrow >= P) { /* outside the grid */
        g->ctxt = -1;
        return;
    }
    int h;
    Cblacs_get(g->ctxt, 10, &h); /* the grid's own (point-to-point) communicator */
    MPI_Comm_dup(Cblacs2sys_handle(h), &g->comm);
    MPI_Comm_rank(g->comm, &g->me);
    if (g->me != Cblacs_pnum(g->ctxt, g->myrow, g->mycol))
        die("grid %s: MPI rank %d is not blacs_pnum %d", g->name, g->me,
            Cblacs_pnum(g->ctxt, g->myrow, g->mycol));
    MPI_Comm_split(g->comm, g->myrow, g->mycol, &g->rowcomm);
    MPI_Comm_split(g->comm, g->mycol, g->myrow, &g->colcomm);
}

/* Applies --set to a grid (after the library has checked the values). */
static void grid_settings(const grid *g, const config *c)
{
    for (int i = 0; g->ctxt >= 0 && i < c->nset; i++) {
        int v = c->set_val[i], got = 0;
        Cblacs_set(g->ctxt, c->set_what[i], &v);
        Cblacs_get(g->ctxt, c->set_what[i], &got);
        if (got != c->set_val[i])
            die("grid %s: BLACS_SET %d = %d did not take (BLACS_GET gives %d)", g->name, c->set_what[i],
                c->set_val[i], got);
    }
}

static void grid_exit(grid *g)
{
    if (g->ctxt < 0)
        return;
    MPI_Comm_free(&g->rowcomm);
    MPI_Comm_free(&g->colcomm);
    MPI_Comm_free(&g->comm);
    Cblacs_gridexit(g->ctxt);
}

static void squarest(int np, int *P, int *Q)
{
    int p = (int)sqrt((double)np);
    while (p > 1 && np % p)
        p--;
    *P = p < 1 ? 1 : p;
    *Q = np / *P;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    bench *b = &B;
    int me, np;
    Cblacs_pinfo(&me, &np);
    b->wrank = me;
    b->wsize = np;
    parse_args(&b->cfg, argc, argv);
    config *c = &b->cfg;
    if (c->list) { /* for drivers: expand groups into series names */
        for (size_t i = 0; i < NSERIES && me == 0; i++)
            if (c->series & (1ul << i))
                printf("%s\n", SERIES[i].name);
        MPI_Finalize();
        return 0;
    }
    if (c->P == 0)
        squarest(np, &c->P, &c->Q);
    if (c->P * c->Q > np)
        die("grid %dx%d needs %d processes, have %d", c->P, c->Q, c->P * c->Q, np);
    b->t0 = MPI_Wtime();

    if (me == 0) {
        b->csv = fopen(c->csv, "a");
        if (!b->csv)
            die("cannot open %s", c->csv);
        if (ftell(b->csv) == 0)
            fprintf(b->csv, "impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us\n");
        if (!c->quiet) {
            char tops[32];
            snprintf(tops, sizeof tops, "%s", c->tops);
            for (char *t = tops; *t; t++)
                *t = *t == ' ' ? '_' : *t;
            char set[64] = "";
            for (int i = 0, n = 0; i < c->nset; i++)
                n += snprintf(set + n, sizeof set - (size_t)n, ", set %d=%d", c->set_what[i], c->set_val[i]);
            fprintf(stderr,
                    "blacsbench (%s): %d processes, grid %dx%d, %d sizes, TOPs %s, reps %s, %d trials%s, csv "
                    "%s\n",
                    c->impl, np, c->P, c->Q, c->nsizes, tops, c->reps ? "fixed" : "auto", c->trials, set,
                    c->csv);
        }
    }
    grid_init(&b->row, 1, np);
    grid_init(&b->mat, c->P, c->Q);
    grid_settings(&b->row, c);
    grid_settings(&b->mat, c);

    for (size_t i = 0; i < NSERIES; i++)
        if (c->series & (1ul << i)) {
            double t = MPI_Wtime();
            run_series(b, &SERIES[i]);
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 0 && !c->quiet)
                fprintf(stderr, "[%s np=%d %6.1fs] %s done in %.1f s\n", c->impl, np, MPI_Wtime() - b->t0,
                        SERIES[i].name, MPI_Wtime() - t);
        }

    if (me == 0)
        fclose(b->csv);
    grid_exit(&b->mat);
    grid_exit(&b->row);
    Cblacs_exit(0); /* also finalizes MPI */
    return 0;
}
