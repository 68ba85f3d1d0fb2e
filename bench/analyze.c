/*
 * bench/analyze.c - turns the CSV files of a benchmark run into a report.
 *
 *   build/bench/analyze RUN_DIR [--gp bench/plots.gp] [--no-plots]
 *
 * Reads every file NAME.csv of RUN_DIR written by blacsbench (rows
 * impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us), and, if
 * present, RUN_DIR/meta.txt (how the run was made) and the drivers' logs
 * NAME.log (for the series that were skipped).  Writes, in RUN_DIR:
 *
 *   summary.md        key numbers; per series and impl the least-squares
 *                     fit T = alpha + beta*N (N = doubles, T = us) and
 *                     LAWN 73's RE; ratio tables ours/ref and ours/mpi per
 *                     size and TOP from the medians over trials
 *   data/NAME.dat     one file per curve (and per ratio curve) for gnuplot
 *   plots/NAME.gp     the gnuplot scripts (they load bench/plots.gp)
 *   NAME.png          the plots, made by running gnuplot on the scripts
 *
 * A curve is one (series, op, top, np, grid, impl); a point is one size of
 * a curve, with every trial's time.  No MPI here.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fit.h"

#define PATHLEN 1024

typedef struct {
    char impl[16], series[24], op[32], top[4], grid[16];
    int np;
    long bytes, reps;
    int trial;
    double t, tsrc;
} row;

typedef struct {
    long bytes;
    int n;                        /* trials */
    double med, lo, hi, srcmed;   /* median, minimum, maximum of t; median of t_src */
} point;

typedef struct {
    const row *key;  /* first row: identifies the curve */
    point *pts;
    int npts;
    int nraw;        /* data points (trials) in the fit */
    int fit_ok;
    fit_line fit;
    double re;       /* LAWN RE in percent, -1 if no repeated set */
    char file[160];  /* data file, relative to the run directory */
} curve;

static row *rows;
static size_t nrows, cap_rows;
static curve *curves;
static size_t ncurves;
static const char *dir;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "analyze: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fail("out of memory");
    return p;
}

static FILE *open_out(const char *rel)
{
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    if (!f)
        fail("cannot write %s", path);
    return f;
}

/* ---------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */
/* Copies field k (0-based) of a comma-separated line into out. */
static int field(const char *line, int k, char *out, size_t len)
{
    const char *p = line;
    for (int i = 0; i < k; i++) {
        p = strchr(p, ',');
        if (!p)
            return -1;
        p++;
    }
    size_t n = strcspn(p, ",\r\n");
    if (n >= len)
        n = len - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return 0;
}

static void read_csv(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail("cannot read %s", path);
    char *line = NULL;
    size_t len = 0;
    long lineno = 0;
    while (getline(&line, &len, f) > 0) {
        lineno++;
        if (!strncmp(line, "impl,", 5) || line[0] == '\n' || line[0] == '#')
            continue;
        row r;
        char num[8][40];
        memset(&r, 0, sizeof r);
        if (field(line, 0, r.impl, sizeof r.impl) || field(line, 1, r.series, sizeof r.series) ||
            field(line, 2, r.op, sizeof r.op) || field(line, 3, r.top, sizeof r.top) ||
            field(line, 4, num[0], sizeof num[0]) || field(line, 5, r.grid, sizeof r.grid) ||
            field(line, 6, num[1], sizeof num[1]) || field(line, 7, num[2], sizeof num[2]) ||
            field(line, 8, num[3], sizeof num[3]) || field(line, 9, num[4], sizeof num[4]) ||
            field(line, 10, num[5], sizeof num[5])) {
            fprintf(stderr, "analyze: %s:%ld: not a benchmark row, ignored\n", path, lineno);
            continue;
        }
        char *end;
        r.np = atoi(num[0]);
        r.bytes = atol(num[1]);
        r.reps = atol(num[2]);
        r.trial = atoi(num[3]);
        r.t = strtod(num[4], &end);
        if (end == num[4] || !(r.t >= 0)) {
            fprintf(stderr, "analyze: %s:%ld: bad time, ignored\n", path, lineno);
            continue;
        }
        r.tsrc = num[5][0] ? strtod(num[5], NULL) : NAN;
        if (nrows == cap_rows) {
            cap_rows = cap_rows ? 2 * cap_rows : 4096;
            rows = realloc(rows, cap_rows * sizeof *rows);
            if (!rows)
                fail("out of memory");
        }
        rows[nrows++] = r;
    }
    free(line);
    fclose(f);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Calls fn on every file of the run directory ending in suffix, in name order. */
static void each_file(const char *suffix, void (*fn)(const char *path, void *arg), void *arg)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    if (n < 0)
        fail("cannot read directory %s", dir);
    for (int i = 0; i < n; i++) {
        if (ends_with(list[i]->d_name, suffix)) {
            char path[PATHLEN];
            snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
            fn(path, arg);
        }
        free(list[i]);
    }
    free(list);
}

static void read_csv_cb(const char *path, void *arg)
{
    (void)arg;
    read_csv(path);
}

/* ---------------------------------------------------------------------------
 * Curves
 * ------------------------------------------------------------------------ */
static const char *SERIES_ORDER[] = {"tc",   "ts",      "tm",         "bcast",   "bcast1", "comb",
                                     "echo", "exchange", "comet_bcast", "gsum",    "barrier", "contention",
                                     "overlap", "guard", "shift",      "transpose", "rowbcast", "colbcast"};
#define NORDER (int)(sizeof SERIES_ORDER / sizeof SERIES_ORDER[0])

static int series_rank(const char *s)
{
    for (int i = 0; i < NORDER; i++)
        if (!strcmp(s, SERIES_ORDER[i]))
            return i;
    return NORDER;
}

static int impl_rank(const char *s) { return !strcmp(s, "ours") ? 0 : !strcmp(s, "ref") ? 1 : !strcmp(s, "mpi") ? 2 : 3; }

static int top_rank(const char *t) { return t[0] == '_' ? 0 : t[0] == '-' ? 1 : (unsigned char)t[0]; }

#define CMP(a, b)                  \
    do {                           \
        if ((a) != (b))            \
            return (a) < (b) ? -1 : 1; \
    } while (0)

static int cmp_row(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    int c;
    CMP(series_rank(a->series), series_rank(b->series));
    if ((c = strcmp(a->series, b->series)))
        return c;
    CMP(a->np, b->np);
    if ((c = strcmp(a->grid, b->grid)))
        return c;
    if ((c = strcmp(a->op, b->op)))
        return c;
    CMP(top_rank(a->top), top_rank(b->top));
    CMP(impl_rank(a->impl), impl_rank(b->impl));
    if ((c = strcmp(a->impl, b->impl)))
        return c;
    CMP(a->bytes, b->bytes);
    CMP(a->trial, b->trial);
    return 0;
}

static int same_curve(const row *a, const row *b)
{
    return !strcmp(a->series, b->series) && !strcmp(a->op, b->op) && !strcmp(a->top, b->top) &&
           a->np == b->np && !strcmp(a->grid, b->grid) && !strcmp(a->impl, b->impl);
}

/* A TOP for people: ' ' for the blank TOP, '-' for none. */
static const char *top_label(const char *t) { return t[0] == '_' ? "' '" : t; }

/* A TOP for file names. */
static const char *top_file(const char *t) { return t[0] == '_' ? "blank" : t[0] == '-' ? "none" : t; }

static void build_curves(void)
{
    qsort(rows, nrows, sizeof *rows, cmp_row);
    curves = xmalloc(nrows * sizeof *curves);
    double *x = xmalloc(nrows * sizeof *x), *y = xmalloc(nrows * sizeof *y), *tmp = xmalloc(nrows * sizeof *tmp);
    for (size_t i = 0, k; i < nrows; i = k) {
        for (k = i; k < nrows && same_curve(&rows[i], &rows[k]); k++)
            ;
        curve *c = &curves[ncurves++];
        memset(c, 0, sizeof *c);
        c->key = &rows[i];
        c->pts = xmalloc((k - i) * sizeof *c->pts);
        c->nraw = (int)(k - i);
        for (size_t p = i, q; p < k; p = q) {
            for (q = p; q < k && rows[q].bytes == rows[p].bytes; q++)
                ;
            point *pt = &c->pts[c->npts++];
            size_t n = q - p, ns = 0;
            pt->bytes = rows[p].bytes;
            pt->n = (int)n;
            pt->lo = INFINITY;
            pt->hi = -INFINITY;
            for (size_t r = p; r < q; r++) {
                tmp[r - p] = rows[r].t;
                pt->lo = fmin(pt->lo, rows[r].t);
                pt->hi = fmax(pt->hi, rows[r].t);
            }
            pt->med = fit_median(tmp, n);
            for (size_t r = p; r < q; r++)
                if (!isnan(rows[r].tsrc))
                    tmp[ns++] = rows[r].tsrc;
            pt->srcmed = fit_median(tmp, ns);
        }
        for (size_t r = i; r < k; r++) {
            x[r - i] = (double)rows[r].bytes / sizeof(double);
            y[r - i] = rows[r].t;
        }
        c->fit_ok = fit_linear(x, y, k - i, &c->fit) == 0;
        c->re = fit_relerr(x, y, k - i, 0);
        const row *key = c->key;
        snprintf(c->file, sizeof c->file, "data/%s_%s_%s_np%d_%s_%s.dat", key->series, key->op, top_file(key->top),
                 key->np, key->grid, key->impl);
    }
    free(x);
    free(y);
    free(tmp);
}

static const curve *find_curve(const char *series, const char *op, const char *top, int np, const char *grid,
                               const char *impl)
{
    for (size_t i = 0; i < ncurves; i++) {
        const row *k = curves[i].key;
        if (!strcmp(k->series, series) && !strcmp(k->op, op) && !strcmp(k->top, top) && k->np == np &&
            !strcmp(k->grid, grid) && !strcmp(k->impl, impl))
            return &curves[i];
    }
    return NULL;
}

static const point *find_point(const curve *c, long bytes)
{
    if (c)
        for (int i = 0; i < c->npts; i++)
            if (c->pts[i].bytes == bytes)
                return &c->pts[i];
    return NULL;
}

static double med_at(const curve *c, long bytes)
{
    const point *p = find_point(c, bytes);
    return p ? p->med : NAN;
}

static double min_at(const curve *c, long bytes)
{
    const point *p = find_point(c, bytes);
    return p ? p->lo : NAN;
}

static double src_at(const curve *c, long bytes)
{
    const point *p = find_point(c, bytes);
    return p ? p->srcmed : NAN;
}

/* The curve of the same measurement in another implementation: the same
 * TOP for the reference BLACS, no TOP for MPI. */
static const curve *partner(const curve *c, const char *impl)
{
    const row *k = c->key;
    return find_curve(k->series, k->op, !strcmp(impl, "mpi") ? "-" : k->top, k->np, k->grid, impl);
}

static void write_data(void)
{
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/data", dir);
    mkdir(path, 0777);
    for (size_t i = 0; i < ncurves; i++) {
        const curve *c = &curves[i];
        const row *k = c->key;
        FILE *f = open_out(c->file);
        fprintf(f, "# %s %s top=%s np=%d grid=%s impl=%s: times in us per operation\n", k->series, k->op, k->top,
                k->np, k->grid, k->impl);
        fprintf(f, "# N(doubles) bytes median min max src_median trials\n");
        for (int p = 0; p < c->npts; p++) {
            const point *pt = &c->pts[p];
            fprintf(f, "%ld %ld %.6g %.6g %.6g %.6g %d\n", pt->bytes / (long)sizeof(double), pt->bytes, pt->med,
                    pt->lo, pt->hi, isnan(pt->srcmed) ? -1.0 : pt->srcmed, pt->n);
        }
        fclose(f);
    }
}

/* ---------------------------------------------------------------------------
 * Summary
 * ------------------------------------------------------------------------ */
static void fmt_size(char *out, size_t len, long bytes)
{
    if (bytes >= 1048576 && bytes % 1048576 == 0)
        snprintf(out, len, "%ld MiB", bytes / 1048576);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(out, len, "%ld KiB", bytes / 1024);
    else
        snprintf(out, len, "%ld B", bytes);
}

static void fmt_num(char *out, size_t len, double v)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else if (fabs(v) >= 100)
        snprintf(out, len, "%.0f", v);
    else if (fabs(v) >= 10)
        snprintf(out, len, "%.1f", v);
    else
        snprintf(out, len, "%.2f", v);
}

static void fmt_ratio(char *out, size_t len, double a, double b)
{
    if (isnan(a) || isnan(b) || b <= 0)
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%.2f", a / b);
}

/* Distinct process counts, ascending. */
static int nps(int *out, int max)
{
    int n = 0;
    for (size_t i = 0; i < ncurves; i++) {
        int np = curves[i].key->np, seen = 0;
        for (int j = 0; j < n; j++)
            seen |= out[j] == np;
        if (!seen && n < max)
            out[n++] = np;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The first curve of series/impl/np, to find its grid and op. */
static const curve *first_curve(const char *series, const char *op_prefix, const char *impl, int np)
{
    for (size_t i = 0; i < ncurves; i++) {
        const row *k = curves[i].key;
        if (!strcmp(k->series, series) && !strcmp(k->impl, impl) && k->np == np &&
            !strncmp(k->op, op_prefix, strlen(op_prefix)))
            return &curves[i];
    }
    return NULL;
}

/* Whether this run measured ours in the given series (and op prefix), at any np. */
static int in_run(const char *series, const char *op_prefix)
{
    int np[64], nnp = nps(np, 64);
    for (int i = 0; i < nnp; i++)
        if (first_curve(series, op_prefix, "ours", np[i]))
            return 1;
    return 0;
}

static const long KEY_TC[] = {8, 65536, 1048576, 8388608};
static const long KEY_COLL[] = {65536, 1048576};

static int any_impl(const char *impl)
{
    for (size_t i = 0; i < ncurves; i++)
        if (!strcmp(curves[i].key->impl, impl))
            return 1;
    return 0;
}

/* The six cells every key-table row ends with, at size b: median time of
 * ours, ref and mpi, then ours/ref, ours/mpi and ours/ref of the fastest
 * trials.  0 when none of the three measured that size. */
static int key_cells(char cell[6][32], const curve *o, const curve *r, const curve *m, long b)
{
    fmt_num(cell[0], 32, med_at(o, b));
    fmt_num(cell[1], 32, med_at(r, b));
    fmt_num(cell[2], 32, med_at(m, b));
    fmt_ratio(cell[3], 32, med_at(o, b), med_at(r, b));
    fmt_ratio(cell[4], 32, med_at(o, b), med_at(m, b));
    fmt_ratio(cell[5], 32, min_at(o, b), min_at(r, b));
    return !(isnan(med_at(o, b)) && isnan(med_at(r, b)) && isnan(med_at(m, b)));
}

/* Whether curve c is one of ours in the same series, op, np and grid as
 * first (one curve per TOP). */
static int same_table(size_t c, const curve *first)
{
    const row *k = curves[c].key, *f = first->key;
    return !strcmp(k->series, f->series) && !strcmp(k->impl, "ours") && k->np == f->np && !strcmp(k->op, f->op) &&
           !strcmp(k->grid, f->grid);
}

/* The rows of a collective's key table: one per np, TOP and KEY_COLL size;
 * with_src adds the source times (broadcasts) before each max time. */
static void coll_rows(FILE *f, const char *series, const char *op_prefix, int with_src)
{
    int np[64], nnp = nps(np, 64);
    char a[6][32], src[3][32], s[32];
    for (int i = 0; i < nnp; i++) {
        const curve *first = first_curve(series, op_prefix, "ours", np[i]);
        for (size_t c = 0; first && c < ncurves; c++) {
            if (!same_table(c, first))
                continue;
            const curve *o = &curves[c], *r = partner(o, "ref"), *m = partner(o, "mpi");
            for (size_t z = 0; z < sizeof KEY_COLL / sizeof KEY_COLL[0]; z++) {
                long b = KEY_COLL[z];
                if (!key_cells(a, o, r, m, b))
                    continue;
                fmt_size(s, sizeof s, b);
                fprintf(f, "| %d | %s | %s |", np[i], top_label(o->key->top), s);
                if (with_src) {
                    fmt_num(src[0], 32, src_at(o, b));
                    fmt_num(src[1], 32, src_at(r, b));
                    fmt_num(src[2], 32, src_at(m, b));
                    fprintf(f, " %s | %s | %s | %s | %s | %s |", src[0], a[0], src[1], a[1], src[2], a[2]);
                } else
                    fprintf(f, " %s | %s | %s |", a[0], a[1], a[2]);
                fprintf(f, " %s | %s | %s |\n", a[3], a[4], a[5]);
            }
        }
    }
}

static void key_tables(FILE *f)
{
    int np[64], nnp = nps(np, 64);
    char a[6][32], s[32];
    int tc = in_run("tc", "tc"), bc = in_run("bcast", ""), cb = in_run("comb", "allreduce");
    if (!tc && !bc && !cb)
        return; /* a run of other series only: no key table applies */
    fprintf(f, "## Key numbers\n\nMedians over trials, microseconds per operation; a ratio below 1 means ours is faster.  "
               "\"best\" ratios compare the fastest trials instead: on a shared or virtual machine whole runs land in "
               "slow and fast periods, and the best trial is the least disturbed estimate of what each "
               "implementation costs.\n\n");

    if (tc) {
        fprintf(f, "### T_c (one-way: echo round trip / 2)\n\n| np | size | ours | ref | mpi | ours/ref | ours/mpi | "
                   "ours/ref (best) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < nnp; i++) {
            const curve *o = first_curve("tc", "tc", "ours", np[i]);
            if (!o)
                continue;
            const curve *r = partner(o, "ref"), *m = partner(o, "mpi");
            for (size_t z = 0; z < sizeof KEY_TC / sizeof KEY_TC[0]; z++) {
                long b = KEY_TC[z];
                fmt_size(s, sizeof s, b);
                if (key_cells(a, o, r, m, b))
                    fprintf(f, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", np[i], s, a[0], a[1], a[2], a[3],
                            a[4], a[5]);
            }
        }
    }
    if (bc) {
        fprintf(f, "\n### Broadcast: source and maximum time per TOP (MPI: MPI_Bcast)\n\n"
                   "| np | TOP | size | ours src | ours max | ref src | ref max | mpi src | mpi max | ours/ref (max) | "
                   "ours/mpi (max) | ours/ref (best max) |\n|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        coll_rows(f, "bcast", "", 1);
    }
    if (cb) {
        fprintf(f, "\n### Combine: DGSUM2D leave-on-all, maximum time per TOP (MPI: MPI_Allreduce)\n\n"
                   "| np | TOP | size | ours | ref | mpi | ours/ref | ours/mpi | ours/ref (best) |\n"
                   "|---:|:---:|---:|---:|---:|---:|---:|---:|---:|\n");
        coll_rows(f, "comb", "allreduce", 0);
    }
    fprintf(f, "\n");
}

static void fit_tables(FILE *f)
{
    fprintf(f, "## Least-squares fits T = alpha + beta*N\n\n"
               "N = message size in doubles (matrix kernels: doubles of the local block), T in microseconds per "
               "operation, fitted through every trial of every size.  RE = LAWN 73's relative error of the "
               "repeated sizes (every fifth size, N = 0 excluded): max over those sizes of (max - min) / average, "
               "in percent; `-` when no size was repeated.\n\n");
    const char *last = "";
    for (size_t i = 0; i < ncurves; i++) {
        const curve *c = &curves[i];
        const row *k = c->key;
        if (strcmp(k->series, last)) {
            fprintf(f, "### %s\n\n| impl | op | TOP | np | grid | alpha (us) | beta (us/double) | RE (%%) | points "
                       "|\n|:---|:---|:---:|---:|:---:|---:|---:|---:|---:|\n",
                    k->series);
            last = k->series;
        }
        char al[32] = "-", be[32] = "-", re[32] = "-";
        if (c->fit_ok) {
            snprintf(al, sizeof al, "%.3g", c->fit.alpha);
            snprintf(be, sizeof be, "%.4g", c->fit.beta);
        }
        if (c->re >= 0)
            snprintf(re, sizeof re, "%.1f", c->re);
        fprintf(f, "| %s | %s | %s | %d | %s | %s | %s | %s | %d |\n", k->impl, k->op, top_label(k->top), k->np, k->grid,
                al, be, re, c->nraw);
        if (i + 1 == ncurves || strcmp(curves[i + 1].key->series, k->series))
            fprintf(f, "\n");
    }
}

/* Ratio tables: for each series, process count and grid, ours against
 * denominator `den` ("ref" or "mpi").  Series with TOP letters get one
 * table per op with a column per TOP; the others one table with a column
 * per op.  Rows: sizes. */
static void ratio_tables(FILE *f, const char *den)
{
    fprintf(f, "## Ratios ours/%s\n\nMedian time of ours divided by the median time of %s at the same size (and "
               "TOP), per series; below 1 = ours faster.\n\n",
            den, !strcmp(den, "ref") ? "the reference BLACS" : "raw MPI");
    int printed = 0;
    for (size_t i = 0; i < ncurves;) {
        const row *k = curves[i].key;
        /* [i, e): the curves of one series, np and grid */
        size_t e = i;
        while (e < ncurves && !strcmp(curves[e].key->series, k->series) && curves[e].key->np == k->np &&
               !strcmp(curves[e].key->grid, k->grid))
            e++;
        int has_tops = 0;
        for (size_t c = i; c < e; c++)
            has_tops |= !strcmp(curves[c].key->impl, "ours") && strcmp(curves[c].key->top, "-");
        /* one table per op if has_tops, else one for all */
        for (size_t t0 = i; t0 < e;) {
            size_t t1 = t0;
            while (t1 < e && (!has_tops || !strcmp(curves[t1].key->op, curves[t0].key->op)))
                t1++;
            const curve *col[64];
            const curve *dcol[64];
            int ncol = 0, any = 0;
            for (size_t c = t0; c < t1 && ncol < 64; c++)
                if (!strcmp(curves[c].key->impl, "ours")) {
                    col[ncol] = &curves[c];
                    dcol[ncol] = partner(&curves[c], den);
                    any |= dcol[ncol] != NULL;
                    ncol++;
                }
            if (any) {
                printed = 1;
                fprintf(f, "#### %s%s%s, np=%d, grid %s: ours/%s\n\n| size |", k->series, has_tops ? " " : "",
                        has_tops ? curves[t0].key->op : "", k->np, k->grid, den);
                for (int c = 0; c < ncol; c++)
                    fprintf(f, " %s |", has_tops ? top_label(col[c]->key->top) : col[c]->key->op);
                fprintf(f, "\n|---:|");
                for (int c = 0; c < ncol; c++)
                    fprintf(f, "---:|");
                fprintf(f, "\n");
                /* sizes: union over the columns, ascending */
                long sizes[1024];
                int ns = 0;
                for (int c = 0; c < ncol; c++)
                    for (int p = 0; p < col[c]->npts; p++) {
                        long b = col[c]->pts[p].bytes;
                        int at = 0;
                        while (at < ns && sizes[at] < b)
                            at++;
                        if ((at < ns && sizes[at] == b) || ns == 1024)
                            continue;
                        memmove(&sizes[at + 1], &sizes[at], (size_t)(ns - at) * sizeof *sizes);
                        sizes[at] = b;
                        ns++;
                    }
                for (int z = 0; z < ns; z++) {
                    char s[32], q[32];
                    fmt_size(s, sizeof s, sizes[z]);
                    fprintf(f, "| %s |", s);
                    for (int c = 0; c < ncol; c++) {
                        fmt_ratio(q, sizeof q, med_at(col[c], sizes[z]), med_at(dcol[c], sizes[z]));
                        fprintf(f, " %s |", q);
                    }
                    fprintf(f, "\n");
                }
                fprintf(f, "\n");
            }
            t0 = t1;
        }
        i = e;
    }
    if (!printed)
        fprintf(f, "No %s measurements in this run.\n\n", den);
}

static void copy_meta(FILE *f)
{
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    FILE *m = fopen(path, "r");
    if (!m)
        return;
    fprintf(f, "```text\n");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, m)) > 0)
        fwrite(buf, 1, n, f);
    fprintf(f, "```\n\n");
    fclose(m);
}

/* The drivers' logs: lines saying a series was skipped, once each. */
static char *notes[256];
static int nnotes;

static void notes_cb(const char *path, void *arg)
{
    FILE *f = arg, *l = fopen(path, "r");
    if (!l)
        return;
    char *line = NULL;
    size_t len = 0;
    while (getline(&line, &len, l) > 0) {
        line[strcspn(line, "\n")] = 0;
        if (!strstr(line, "skipped"))
            continue;
        int seen = 0;
        for (int i = 0; i < nnotes && !seen; i++)
            seen = !strcmp(notes[i], line);
        if (seen || nnotes == 256)
            continue;
        notes[nnotes++] = strdup(line);
        fprintf(f, "- `%s`\n", line);
    }
    free(line);
    fclose(l);
}

/* ---------------------------------------------------------------------------
 * Plots
 * ------------------------------------------------------------------------ */
typedef struct {
    const curve *c;
    char title[96];
    int style;
} pcurve;

/* Line styles (bench/plots.gp): 1 = MPI (14, 15 more MPI curves), 2 =
 * reference ' ', 3..13 ours by TOP, 20.. the reference's other TOPs. */
static int style_of(const curve *c, int index)
{
    if (!strcmp(c->key->impl, "mpi"))
        return 1;
    if (!strcmp(c->key->impl, "ref"))
        return c->key->top[0] == '_' || c->key->top[0] == '-' ? 2 : 20 + index % 8;
    return 3 + index % 11;
}

/* One plot command: y column ycol (3 = median, with min/max error bars;
 * 6 = source time; 2 for ratio files). */
static void gp_plot(FILE *g, const char *title, const char *ylabel, const pcurve *pc, int n, int ycol, int errbars)
{
    fprintf(g, "set title \"%s\"\nset ylabel \"%s\"\n", title, ylabel);
    if (n == 0) {
        /* an empty frame (gnuplot refuses a plot without any valid point) */
        fprintf(g, "set label 1 'no data' at graph 0.5, graph 0.5 center\nset xrange [1:2]\nset yrange [1:2]\n"
                   "plot 1.5 notitle lc rgb 'white'\nunset label 1\nset autoscale xy\n");
        return;
    }
    fprintf(g, "plot ");
    for (int i = 0; i < n; i++)
        fprintf(g, "%s'%s' using (($2>0)?$2:1/0):%d%s with %s ls %d title \"%s\"", i ? ", \\\n     " : "",
                pc[i].c ? pc[i].c->file : "", ycol, errbars ? ":4:5" : "", errbars ? "yerrorlines" : "linespoints",
                pc[i].style, pc[i].title);
    fprintf(g, "\n");
}

static void add_pc(pcurve *pc, int *n, const curve *c, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_pc(pcurve *pc, int *n, const curve *c, const char *fmt, ...)
{
    if (!c || *n >= 64)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pc[*n].title, sizeof pc[*n].title, fmt, ap);
    va_end(ap);
    pc[*n].c = c;
    pc[*n].style = style_of(c, *n);
    (*n)++;
}

/* Curves of series/op at np: ours per TOP, the reference's blank TOP (or
 * every reference TOP when all_ref), MPI. */
static int survey(pcurve *pc, const char *series, const char *op, int np, int all_ref)
{
    int n = 0, nours = 0, nref = 0;
    for (size_t i = 0; i < ncurves; i++) {
        const row *k = curves[i].key;
        if (strcmp(k->series, series) || strcmp(k->op, op) || k->np != np)
            continue;
        if (!strcmp(k->impl, "mpi"))
            continue;
        if (!strcmp(k->impl, "ref") && !all_ref && k->top[0] != '_')
            continue;
        add_pc(pc, &n, &curves[i], "%s TOP %s", k->impl, top_label(k->top));
        pc[n - 1].style = !strcmp(k->impl, "ref") ? (k->top[0] == '_' ? 2 : 20 + nref++ % 8) : 3 + nours++ % 11;
    }
    for (size_t i = 0; i < ncurves; i++) {
        const row *k = curves[i].key;
        if (!strcmp(k->series, series) && !strcmp(k->op, op) && k->np == np && !strcmp(k->impl, "mpi"))
            add_pc(pc, &n, &curves[i], "MPI");
    }
    return n;
}

/* The op of the first curve of a series at np (e.g. "all" for bcast). */
static const char *op_of(const char *series, const char *prefix, int np)
{
    const curve *c = first_curve(series, prefix, "ours", np);
    if (!c)
        c = first_curve(series, prefix, "ref", np);
    if (!c)
        c = first_curve(series, prefix, "mpi", np);
    return c ? c->key->op : NULL;
}

static int run_gnuplot(const char *script)
{
    char cmd[PATHLEN * 2];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s' 2>>plots/gnuplot.log", dir, script);
    int st = system(cmd);
    if (st != 0)
        fprintf(stderr, "analyze: gnuplot failed on %s/%s (status %d, see %s/plots/gnuplot.log)\n", dir, script, st,
                dir);
    return st == 0;
}

/* Opens plots/NAME.gp for NAME.png. */
static FILE *gp_open(const char *gp, const char *name, int w, int h)
{
    char rel[256];
    snprintf(rel, sizeof rel, "plots/%s.gp", name);
    FILE *g = open_out(rel);
    fprintf(g, "# generated by bench/analyze\nW = %d\nH = %d\nload '%s'\nset output '%s.png'\n", w, h, gp, name);
    return g;
}

/* Ratio curves ours/den for one panel: the listed (series, op, top) at np. */
typedef struct {
    const char *series, *op, *top;
} sel;

static int ratio_curves(pcurve *pc, const sel *list, int nlist, const char *den, int np)
{
    int n = 0;
    for (int s = 0; s < nlist; s++) {
        const char *op = list[s].op ? list[s].op : op_of(list[s].series, "", np);
        if (!op)
            continue;
        const curve *o = NULL;
        for (size_t i = 0; i < ncurves && !o; i++) {
            const row *k = curves[i].key;
            if (!strcmp(k->series, list[s].series) && !strncmp(k->op, op, strlen(op)) && !strcmp(k->top, list[s].top) &&
                k->np == np && !strcmp(k->impl, "ours"))
                o = &curves[i];
        }
        const curve *d = o ? partner(o, den) : NULL;
        if (!d)
            continue;
        /* a ratio curve is written as its own data file, in the slot of pc[n].c */
        curve *rc = xmalloc(sizeof *rc);
        memset(rc, 0, sizeof *rc);
        rc->key = o->key;
        snprintf(rc->file, sizeof rc->file, "data/ratio-%s_%s_%s_%s_np%d_%s.dat", den, o->key->series, o->key->op,
                 top_file(o->key->top), np, o->key->grid);
        FILE *f = open_out(rc->file);
        fprintf(f, "# ours/%s, medians: N(doubles) bytes ratio\n", den);
        int pts = 0;
        for (int p = 0; p < o->npts; p++) {
            double a = o->pts[p].med, b = med_at(d, o->pts[p].bytes);
            if (!isnan(b) && b > 0 && a > 0) {
                fprintf(f, "%ld %ld %.6g\n", o->pts[p].bytes / 8, o->pts[p].bytes, a / b);
                pts++;
            }
        }
        fclose(f);
        if (pts == 0) {
            free(rc);
            continue;
        }
        add_pc(pc, &n, rc, "%s%s%s%s%s", o->key->series, strcmp(o->key->series, o->key->op) ? " " : "",
               strcmp(o->key->series, o->key->op) ? o->key->op : "", o->key->top[0] == '-' ? "" : " TOP ",
               o->key->top[0] == '-' ? "" : top_label(o->key->top));
        pc[n - 1].style = 3 + (n - 1) % 11;
    }
    return n;
}

static void free_ratio_curves(pcurve *pc, int n)
{
    for (int i = 0; i < n; i++)
        free((void *)pc[i].c);
}

static int plots_failed;

static int make_plots(const char *gp, FILE *summary)
{
    char path[PATHLEN];
    snprintf(path, sizeof path, "%s/plots", dir);
    mkdir(path, 0777);
    int np[64], nnp = nps(np, 64), made = 0, failed = 0;
    pcurve pc[64];
    char name[64], title[160];
    fprintf(summary, "## Plots\n\nLog-log; points are medians over trials, error bars the minimum and maximum.\n\n");
    for (int i = 0; i < nnp; i++) {
        int p = np[i], n;
        const char *op;
        /* T_c, T_s and T_m */
        for (int s = 0; s < 2; s++) {
            const char *series = s ? "ts" : "tc";
            if (!(op = op_of(series, "", p)))
                continue;
            snprintf(name, sizeof name, "%s-np%d", series, p);
            FILE *g = gp_open(gp, name, 900, 650);
            n = 0;
            for (size_t c = 0; c < ncurves; c++) {
                const row *k = curves[c].key;
                if (k->np == p && (!strcmp(k->series, series) || (s && !strcmp(k->series, "tm"))))
                    add_pc(pc, &n, &curves[c], "%s %s", k->impl, !strcmp(k->series, "tm") ? "T_m (malloc+copy)" : "");
            }
            snprintf(title, sizeof title, "%s, np=%d", s ? "T_s: time to return from a send (and T_m)" :
                     "T_c: one-way time (echo round trip / 2)", p);
            gp_plot(g, title, "microseconds", pc, n, 3, 1);
            fclose(g);
            snprintf(path, sizeof path, "plots/%s.gp", name);
            if (run_gnuplot(path))
                fprintf(summary, "- [%s.png](%s.png): %s\n", name, name, title), made++;
            else
                failed++;
        }
        /* broadcast surveys (LAWN figures 20-23) and single repetitions */
        for (int s = 0; s < 2; s++) {
            const char *series = s ? "bcast1" : "bcast";
            if (!(op = op_of(series, "", p)))
                continue;
            snprintf(name, sizeof name, "%s-np%d", series, p);
            FILE *g = gp_open(gp, name, 1300, 600);
            fprintf(g, "set multiplot layout 1,2\n");
            n = survey(pc, series, op, p, 0);
            snprintf(title, sizeof title, "%s (%s) np=%d: maximum time over processes%s", series, op, p,
                     s ? ", reps=1" : "");
            gp_plot(g, title, "microseconds", pc, n, 3, 1);
            snprintf(title, sizeof title, "%s (%s) np=%d: source time", series, op, p);
            gp_plot(g, title, "microseconds", pc, n, 6, 0);
            fprintf(g, "unset multiplot\n");
            fclose(g);
            snprintf(path, sizeof path, "plots/%s.gp", name);
            if (run_gnuplot(path))
                fprintf(summary, "- [%s.png](%s.png): broadcast survey%s, np=%d (max | source)\n", name, name,
                        s ? " with reps=1" : "", p), made++;
            else
                failed++;
        }
        /* combine survey (LAWN figures 40-43): leave-on-all and leave-on-one */
        const char *op_all = op_of("comb", "allreduce", p), *op_one = op_of("comb", "reduce", p);
        if (op_all || op_one) {
            snprintf(name, sizeof name, "comb-np%d", p);
            FILE *g = gp_open(gp, name, 1300, 600);
            fprintf(g, "set multiplot layout 1,2\n");
            n = op_all ? survey(pc, "comb", op_all, p, 0) : 0;
            snprintf(title, sizeof title, "DGSUM2D leave-on-all vs MPI_Allreduce, np=%d: maximum time", p);
            gp_plot(g, title, "microseconds", pc, n, 3, 1);
            n = op_one ? survey(pc, "comb", op_one, p, 0) : 0;
            snprintf(title, sizeof title, "DGSUM2D leave-on-one vs MPI_Reduce, np=%d: maximum time", p);
            gp_plot(g, title, "microseconds", pc, n, 3, 1);
            fprintf(g, "unset multiplot\n");
            fclose(g);
            snprintf(path, sizeof path, "plots/%s.gp", name);
            if (run_gnuplot(path))
                fprintf(summary, "- [%s.png](%s.png): combine survey, np=%d (leave-on-all | leave-on-one)\n", name,
                        name, p), made++;
            else
                failed++;
        }
        /* CoMet kernels: one panel each */
        static const struct {
            const char *series, *op, *title;
        } K[] = {{"echo", "d1", "echo, 1 away (one-way)"},
                 {"exchange", "d1", "pairwise exchange, 1 away"},
                 {"comet_bcast", "bcast", "broadcast + barrier"},
                 {"gsum", "gsum", "global sum"},
                 {"contention", "", "echo quiet / loaded"},
                 {"overlap", "", "overlap (largest DAXPY)"},
                 {"guard", "nsew", "guard-strip update"},
                 {"shift", "", "shift north / east"},
                 {"transpose", "block", "transpose"},
                 {"rowbcast", "row", "row broadcast"},
                 {"colbcast", "col", "column broadcast"}};
        int npanels = 0;
        for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
            npanels += op_of(K[k].series, "", p) != NULL;
        if (npanels) {
            snprintf(name, sizeof name, "comet-np%d", p);
            int cols = npanels < 3 ? npanels : 3, rws = (npanels + cols - 1) / cols;
            FILE *g = gp_open(gp, name, 520 * cols, 400 * rws);
            fprintf(g, "set multiplot layout %d,%d\nset key font ',8'\nset xlabel font ',8'\n", rws, cols);
            long biggest = 0;
            for (size_t c = 0; c < ncurves; c++)
                if (!strcmp(curves[c].key->series, "overlap") && !strncmp(curves[c].key->op, "ovl_v", 5))
                    if (atol(curves[c].key->op + 5) > biggest)
                        biggest = atol(curves[c].key->op + 5);
            for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
                if (!op_of(K[k].series, "", p))
                    continue;
                n = 0;
                int nth[3] = {0, 0, 0}; /* curves so far of ours, ref, mpi: each gets its own style */
                for (size_t c = 0; c < ncurves; c++) {
                    const row *kk = curves[c].key;
                    if (strcmp(kk->series, K[k].series) || kk->np != p || strncmp(kk->op, K[k].op, strlen(K[k].op)))
                        continue;
                    if (!strcmp(kk->series, "overlap") && atol(strrchr(kk->op, 'v') + 1) != biggest)
                        continue;
                    add_pc(pc, &n, &curves[c], "%s %s", kk->impl, kk->op);
                    int im = impl_rank(kk->impl) > 2 ? 0 : impl_rank(kk->impl), m = nth[im]++;
                    pc[n - 1].style = im == 0 ? 3 + m % 11 : im == 1 ? (m ? 20 + m % 8 : 2) : (m ? 14 + (m - 1) % 2 : 1);
                }
                snprintf(title, sizeof title, "%s, np=%d", K[k].title, p);
                gp_plot(g, title, "microseconds", pc, n, 3, 1);
            }
            fprintf(g, "unset multiplot\n");
            fclose(g);
            snprintf(path, sizeof path, "plots/%s.gp", name);
            if (run_gnuplot(path))
                fprintf(summary, "- [%s.png](%s.png): CoMet kernels, np=%d\n", name, name, p), made++;
            else
                failed++;
        }
        /* ratio plots: ours against the reference and against MPI */
        static const sel LAWN[] = {{"tc", "tc", "-"},           {"ts", "ts", "-"},
                                   {"bcast", NULL, "_"},        {"bcast1", NULL, "_"},
                                   {"comb", "allreduce", "_"}, {"comb", "reduce", "_"}};
        static const sel COMET[] = {{"echo", "d1", "-"},    {"exchange", "d1", "-"},     {"comet_bcast", "bcast", "_"},
                                    {"gsum", "gsum", "_"},  {"contention", "loaded", "-"}, {"overlap", "ovl", "-"},
                                    {"guard", "nsew", "_"}, {"shift", "north", "_"},       {"transpose", "block", "_"},
                                    {"rowbcast", "row", "_"}, {"colbcast", "col", "_"}};
        for (int d = 0; d < 2; d++) {
            const char *den = d ? "mpi" : "ref";
            pcurve pl[64], pm[64];
            int nl = ratio_curves(pl, LAWN, 6, den, p), nm = ratio_curves(pm, COMET, 11, den, p);
            if (nl + nm == 0)
                continue;
            snprintf(name, sizeof name, "ratio-%s-np%d", den, p);
            FILE *g = gp_open(gp, name, nl && nm ? 1300 : 800, 600);
            fprintf(g, "set multiplot layout 1,%d\nset logscale y 2\nset format y '%%g'\n"
                       "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb 'black'\n",
                    nl && nm ? 2 : 1);
            snprintf(title, sizeof title, "ours / %s, np=%d: LAWN series (below 1 = ours faster)", den, p);
            if (nl)
                gp_plot(g, title, "ratio of medians", pl, nl, 3, 0);
            snprintf(title, sizeof title, "ours / %s, np=%d: CoMet kernels (below 1 = ours faster)", den, p);
            if (nm)
                gp_plot(g, title, "ratio of medians", pm, nm, 3, 0);
            fprintf(g, "unset multiplot\n");
            fclose(g);
            free_ratio_curves(pl, nl);
            free_ratio_curves(pm, nm);
            snprintf(path, sizeof path, "plots/%s.gp", name);
            if (run_gnuplot(path))
                fprintf(summary, "- [%s.png](%s.png): ratio ours/%s vs size, np=%d\n", name, name, den, p), made++;
            else
                failed++;
        }
    }
    fprintf(summary, "\n");
    if (failed)
        fprintf(stderr, "analyze: %d plot%s failed\n", failed, failed == 1 ? "" : "s");
    plots_failed = failed;
    return made;
}

int main(int argc, char **argv)
{
    const char *gp = "bench/plots.gp";
    int plots = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gp") && i + 1 < argc)
            gp = argv[++i];
        else if (!strcmp(argv[i], "--no-plots"))
            plots = 0;
        else if (argv[i][0] == '-')
            fail("usage: analyze RUN_DIR [--gp PLOTS.GP] [--no-plots]");
        else
            dir = argv[i];
    }
    if (!dir)
        fail("usage: analyze RUN_DIR [--gp PLOTS.GP] [--no-plots]");
    /* The scripts run in RUN_DIR: make the preamble's path absolute. */
    char gpabs[PATHLEN], cwd[PATHLEN / 2];
    if (gp[0] == '/')
        snprintf(gpabs, sizeof gpabs, "%s", gp);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(gpabs, sizeof gpabs, "%s/%s", cwd, gp);
    else
        fail("cannot get the current directory");
    if (plots && access(gpabs, R_OK) != 0)
        fail("cannot read %s (the gnuplot preamble; --gp PATH)", gpabs);

    each_file(".csv", read_csv_cb, NULL);
    if (nrows == 0)
        fail("no benchmark rows in %s/*.csv", dir);
    build_curves();
    write_data();

    FILE *f = open_out("summary.md");
    fprintf(f, "# libblacs benchmark summary\n\n%zu measurements, %zu curves, from `%s`.  Times are microseconds "
               "per operation (see bench/README.md for what each series times); `ours` = this library, `ref` = "
               "the reference BLACS in Debian's ScaLAPACK, `mpi` = raw MPI on the same processes.\n\n",
            nrows, ncurves, dir);
    copy_meta(f);
    fprintf(f, "Notes from the run logs:\n\n");
    long before = ftell(f);
    each_file(".log", notes_cb, f);
    if (ftell(f) == before)
        fprintf(f, "- (none)\n");
    fprintf(f, "\n");
    key_tables(f);
    int made = 0;
    if (plots)
        made = make_plots(gpabs, f);
    fit_tables(f);
    if (any_impl("ref"))
        ratio_tables(f, "ref");
    ratio_tables(f, "mpi");
    fclose(f);
    printf("analyze: %zu rows -> %s/summary.md", nrows, dir);
    if (plots)
        printf(", %d plots%s", made, plots_failed ? " (some failed: see plots/gnuplot.log)" : "");
    printf("\n");
    return plots_failed != 0;
}
