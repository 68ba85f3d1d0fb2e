/*
 * bench/bench.h - what the files of the BLACS benchmark share: the
 * configuration, the grids, the jobs and the kernels, and the functions
 * that more than one file calls (bench_ prefix).  What the benchmark
 * measures, its CSV rows and its checks: the head comment of blacsbench.c.
 *
 *   blacsbench.c    main, grids, bench_die
 *   options.c       the command line, --help
 *   series.c        what to measure at each size: the table SERIES, its builders
 *   engine.c        verify, decide the repetitions, run the trials, write rows
 *   patterns.c      data patterns and checks, bench_dalloc
 *   comm.c          the communication wrappers (BLACS and raw MPI variants)
 *   k_p2p.c         kernels between rank 0 and a peer: T_c, T_s, T_m, echo,
 *                   exchange, contention, overlap
 *   k_collective.c  broadcast, combine (sum), barrier
 *   k_matrix.c      matrix kernels on the P x Q grid: guard, shift, transpose,
 *                   row and column broadcast
 *
 * The same sources build both binaries: BENCH_IMPL names the BLACS rows'
 * default label ("ours" or "ref"), BENCH_EXTENSIONS enables what only this
 * library has (vTUOP2D: the "uop" series).
 */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdio.h>

#include <mpi.h>

#ifndef BENCH_IMPL
#define BENCH_IMPL "ours"
#endif

enum { TAG_P2P = 11, TAG_READY, TAG_STOP, TAG_N, TAG_S, TAG_E, TAG_W };
enum { T_ROOT, T_MAX };             /* whose time a row reports */
enum { MPI_NO, MPI_YES, MPI_ONLY }; /* which variants run */
enum { OV_SYNC, OV_OVERLAP, OV_COMPUTE };

/* vTUOP2D's operation for the "uop" series: the sum vGSUM2D computes.
 * (Only this library has the extension: BENCH_EXTENSIONS.) */
enum { UOP_SUM = 1 };

#define MAX_SIZES 512
#define SENTINEL (-1.0) /* destinations are cleared to this; no pattern value is negative */

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
 * calls differ (the bench_x* wrappers of comm.c). */
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

/* blacsbench.c */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* options.c */
void bench_parse_args(config *c, int argc, char **argv);

/* series.c */
unsigned long bench_parse_series(const char *list);
void bench_usage_series(FILE *f);
void bench_list_series(unsigned long mask);
void bench_run_selected(bench *b);

/* engine.c */
void bench_run_point(bench *b, job *jobs, int nj, int index);

/* patterns.c */
double *bench_dalloc(size_t n); /* from mmap (patterns.c); freed by bench_dfree */
void bench_dfree(double *p);
double bench_pat(int owner, size_t i, unsigned salt);
double bench_gmat(long i, long j);
void bench_fill_pat(double *v, size_t n, int owner, unsigned salt);
void bench_fill_val(double *v, size_t n, double x);
void bench_fill_block(double *a, int ld, int nl, int pr, int pc);
const char *bench_impl_of(const job *j);
char bench_top_char(const job *j);
long bench_report_bad(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
long bench_mismatch(job *j, const char *what, long idx, double got, double want);
long bench_check_pat(job *j, const char *what, const double *v, size_t n, int owner);
long bench_check_block(job *j, const char *what, const double *a, int ld, int nl, int pr, int pc);
void bench_inject(job *j, double *p);

/* comm.c */
static inline int bench_ld1(int n) { return n > 0 ? n : 1; }
void bench_xsend(job *j, double *v, int n, int to);
void bench_xrecv(job *j, double *v, int n, int from);
void bench_xexchange(job *j, double *s, double *r, int n, int peer);
void bench_xbarrier(job *j);
int bench_scope_root(const job *j);
int bench_scope_root_rank(const job *j);
void bench_xbcast(job *j, double *v, int m, int n, int lda, MPI_Datatype vec);
void bench_xsum(job *j, double *v, int n);

/* The kernels: k_p2p.c */
extern const kernel bench_k_echo, bench_k_ts, bench_k_tm, bench_k_exchange, bench_k_contention,
    bench_k_overlap;
/* k_collective.c */
extern const kernel bench_k_bcast, bench_k_comet_bcast, bench_k_comb, bench_k_gsum, bench_k_barrier;
extern const kernel bench_k_panel_sum, bench_k_panel_bcast;
/* k_matrix.c */
extern const kernel bench_k_guard, bench_k_shift, bench_k_transpose, bench_k_rowcol;

#endif
