/*
 * bench/series.c - what to measure at each size: the table SERIES (name,
 * group, builder, how sizes are read, when it cannot run), the builders
 * that make the jobs of one size (every variant: TOPs, raw MPI), and the
 * loop over the sizes of a series.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_JOBS 64

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
        bench_die("too many variants in one point");
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
    job p = proto(b, &b->row, &bench_k_echo, series, "tc", bytes, n, i);
    push_both(js, &p, 0);
}

static void b_ts(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &bench_k_ts, series, "ts", bytes, n, i);
    size_t cap = b->cfg.ts_cap / (bytes ? bytes : 1);
    p.max_reps = bytes == 0 ? 0 : cap < 1 ? 1 : cap > 0x7fffffff ? 0x7fffffff : (int)cap;
    push_both(js, &p, 0);
}

static void b_tm(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &bench_k_tm, series, "tm", bytes, n, i);
    push(js, &p, 0, 0); /* no communication: under the binary's label only */
}

static void b_bcast(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    char scope = b->cfg.scope;
    job p = proto(b, scope_grid(b), &bench_k_bcast, series,
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
        job p = proto(b, scope_grid(b), &bench_k_comb, series, op, bytes, n, i);
        p.scope = b->cfg.scope;
        p.param = one;
        push_tops(js, &p);
    }
}

/* A panel's loop (k_collective.c): sums to all and to one and broadcasts
 * whose size shrinks at every call, TOP ' ' and MPI's collective. */
static void b_panel(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    static const char *const ops[] = {"allreduce", "reduce", "bcast"};
    for (int k = 0; k < 3; k++) {
        char op[32];
        snprintf(op, sizeof op, "%s%s", ops[k], scope_suffix(b->cfg.scope));
        job p = proto(b, scope_grid(b), k < 2 ? &bench_k_panel_sum : &bench_k_panel_bcast, series, op, bytes,
                      n, i);
        p.scope = b->cfg.scope;
        p.param = k == 1;
        p.mode = k == 2;
        push_both(js, &p, ' ');
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
            job p = proto(b, &b->row, &bench_k_comb, series, op, bytes, n, i);
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
        job p = proto(b, &b->row, !strcmp(series, "echo") ? &bench_k_echo : &bench_k_exchange, series, op,
                      bytes, n, i);
        p.peer = peer;
        push_both(js, &p, 0);
    }
}

static void b_comet_bcast(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &bench_k_comet_bcast, series, "bcast", bytes, n, i);
    push_both(js, &p, ' ');
}

static void b_gsum(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    job p = proto(b, &b->row, &bench_k_gsum, series, "gsum", bytes, n, i);
    push_both(js, &p, ' ');
}

static void b_barrier(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int mode = 0; mode <= 1; mode++) {
        job p = proto(b, &b->row, &bench_k_barrier, series, mode ? "avg" : "best", bytes, n, i);
        p.mode = mode;
        push_both(js, &p, 0);
    }
}

static void b_contention(bench *b, jobset *js, const char *series, size_t bytes, int n, int i)
{
    for (int loaded = 0; loaded <= 1; loaded++) {
        job p = proto(b, &b->row, &bench_k_contention, series, loaded ? "loaded" : "quiet", bytes, n, i);
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
            job p = proto(b, &b->row, &bench_k_overlap, series, op, bytes, n, i);
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
        {"guard", {"nsew", NULL}, &bench_k_guard, 'A'},
        {"shift", {"north", "east"}, &bench_k_shift, 'A'},
        {"transpose", {"block", NULL}, &bench_k_transpose, 'A'},
        {"rowbcast", {"row", NULL}, &bench_k_rowcol, 'C'}, /* param 0: a row, down the columns */
        {"colbcast", {"col", NULL}, &bench_k_rowcol, 'R'}, /* param 1: a column, along the rows */
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
    {"panel", "lawn", b_panel, SZ_VECTOR, NULL,
     "a panel's loop: sums to all / one and broadcasts, n down to n/2 doubles, one less each call; t = max"},
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
        bench_run_point(b, js.j, js.n, i);
    }
}

/* --series: the mask of the series named in LIST (names, groups, "all"). */
unsigned long bench_parse_series(const char *list)
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
            bench_die("unknown series '%s' (see --help)", tok);
    }
    free(copy);
    return mask;
}

/* The series lines of --help. */
void bench_usage_series(FILE *f)
{
    for (size_t i = 0; i < NSERIES; i++)
        fprintf(f, "  %-12s %-6s %s\n", SERIES[i].name, SERIES[i].group, SERIES[i].what);
}

/* --list-series (for drivers: expand groups into series names). */
void bench_list_series(unsigned long mask)
{
    for (size_t i = 0; i < NSERIES; i++)
        if (mask & (1ul << i))
            printf("%s\n", SERIES[i].name);
}

/* Runs the selected series, in the order of the table. */
void bench_run_selected(bench *b)
{
    const config *c = &b->cfg;
    for (size_t i = 0; i < NSERIES; i++)
        if (c->series & (1ul << i)) {
            double t = MPI_Wtime();
            run_series(b, &SERIES[i]);
            MPI_Barrier(MPI_COMM_WORLD);
            if (b->wrank == 0 && !c->quiet)
                fprintf(stderr, "[%s np=%d %6.1fs] %s done in %.1f s\n", c->impl, b->wsize,
                        MPI_Wtime() - b->t0, SERIES[i].name, MPI_Wtime() - t);
        }
}
