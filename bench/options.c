/*
 * bench/options.c - the command line: every option, its default and its
 * check, and --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define VALID_TOPS " IDSMFHT123456789"

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
    bench_usage_series(f);
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
        bench_die("bad %s '%s'", what, s);
    return (size_t)(v * mult + 0.5);
}

static void add_size(config *c, size_t bytes)
{
    if (bytes % sizeof(double))
        bench_die("size %zu bytes is not a whole number of doubles", bytes);
    if (bytes / sizeof(double) > 0x7fffffff / 2)
        bench_die("size %zu bytes is too large", bytes);
    if (c->nsizes == MAX_SIZES)
        bench_die("too many sizes (at most %d)", MAX_SIZES);
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
            bench_die("bad size range '%s' (A:B:STEP or A:B:xFACTOR)", tok);
        *c1 = *c2 = 0;
        size_t a = parse_amount(tok, "size"), z = parse_amount(c1 + 1, "size");
        if (c2[1] == 'x') {
            double f = strtod(c2 + 2, NULL);
            if (f <= 1 || a == 0)
                bench_die("bad geometric range: factor must be > 1, start > 0");
            for (double s = (double)a; s <= (double)z * (1 + 1e-12); s *= f)
                add_size(c, ((size_t)(s + 0.5) / sizeof(double)) * sizeof(double));
        } else {
            size_t st = parse_amount(c2 + 1, "step");
            if (st == 0)
                bench_die("bad range step 0");
            for (size_t s = a; s <= z; s += st)
                add_size(c, s);
        }
    }
    free(copy);
    if (c->nsizes == 0)
        bench_die("no sizes");
}

static void parse_tops(config *c, const char *s)
{
    int n = 0;
    for (; *s; s++) {
        char t = *s == '_' ? ' ' : (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
        if (!strchr(VALID_TOPS, t) || t == 0)
            bench_die("unknown TOP '%c' (valid: _ I D S M F H T 1-9)", *s);
        if (!memchr(c->tops, t, (size_t)n)) {
            if (n + 1 >= (int)sizeof c->tops)
                bench_die("too many TOPs");
            c->tops[n++] = t;
        }
    }
    c->tops[n] = 0;
}

static int parse_int(const char *s, const char *what, int lo)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > 0x7fffffff)
        bench_die("bad %s '%s'", what, s);
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
            bench_die("bad --set '%s': want WHAT=VALUE with WHAT in 11..14", t);
        if (c->nset == 4)
            bench_die("--set: at most 4 settings");
        c->set_what[c->nset] = w;
        c->set_val[c->nset++] = v;
    }
}

/* The defaults of every option. */
static void defaults(config *c)
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
                  .series = bench_parse_series("all")};
    parse_sizes(c, "8,1K,16K,64K,256K,1M,8M");
    parse_tops(c, "_ISH1F");
    c->daxpy[0] = 10000;
    c->daxpy[1] = 1000000;
    c->ndaxpy = 2;
}

/* --help: rank 0 prints the usage; every process leaves. */
static void help(void) __attribute__((noreturn));
static void help(void)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        usage(stdout);
    MPI_Finalize();
    exit(0);
}

static void parse_daxpy(config *c, const char *val)
{
    char *copy = strdup(val), *save = NULL;
    c->ndaxpy = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (c->ndaxpy == 16)
            bench_die("too many DAXPY lengths");
        c->daxpy[c->ndaxpy++] = parse_int(t, "DAXPY length", 0);
    }
    free(copy);
}

static void parse_mpi(config *c, const char *val)
{
    c->mpi_mode = !strcmp(val, "yes")    ? MPI_YES
                  : !strcmp(val, "no")   ? MPI_NO
                  : !strcmp(val, "only") ? MPI_ONLY
                                         : -1;
    if (c->mpi_mode < 0)
        bench_die("bad --mpi '%s' (yes, no, only)", val);
}

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

/* One option: o is its label in opts, val its value. */
static void parse_option(config *c, int o, const char *val, char **argv)
{
    switch (o) {
    case 'h': help();
    case 'L': c->list = 1; break;
    case 's': c->series = bench_parse_series(val); break;
    case 'z': parse_sizes(c, val); break;
    case 'l': parse_sizes(c, "0:50000d:1000d"); break;
    case 't': parse_tops(c, val); break;
    case 'g':
        if (sscanf(val, "%dx%d", &c->P, &c->Q) != 2 || c->P < 1 || c->Q < 1)
            bench_die("bad grid '%s' (PxQ)", val);
        break;
    case 'o':
        c->scope = (char)(val[0] >= 'a' ? val[0] - 32 : val[0]);
        if (!strchr("ARC", c->scope) || !c->scope)
            bench_die("bad scope '%s' (A, R or C)", val);
        break;
    case 'r': c->reps = !strcmp(val, "auto") ? 0 : parse_int(val, "reps", 1); break;
    case 'T':
        c->target_ms = strtod(val, NULL);
        if (c->target_ms <= 0)
            bench_die("bad target '%s'", val);
        break;
    case 'M': c->max_reps = parse_int(val, "max-reps", 1); break;
    case 'n': c->trials = parse_int(val, "trials", 1); break;
    case 'N': c->re_trials = parse_int(val, "re-trials", 0); break;
    case 'R': c->round = parse_int(val, "round", 0); break;
    case 'O': c->re_only = 1; break;
    case 'd': parse_daxpy(c, val); break;
    case 'C': c->ts_cap = parse_amount(val, "ts-cap"); break;
    case 'S': parse_set(c, val); break;
    case 'm': parse_mpi(c, val); break;
    case 'i': c->impl = val; break;
    case 'c': c->csv = val; break;
    case 'F': c->inject = 1; break;
    case 'q': c->quiet = 1; break;
    case ':': bench_die("option %s needs a value (see --help)", argv[optind - 1]);
    default: bench_die("unknown option '%s' (see --help)", argv[optind - 1]);
    }
}

void bench_parse_args(config *c, int argc, char **argv)
{
    defaults(c);
    opterr = 0; /* our messages, through bench_die() */
    for (int o; (o = getopt_long(argc, argv, "+:h", opts, NULL)) != -1;)
        parse_option(c, o, optarg, argv);
    if (optind < argc)
        bench_die("unknown option '%s' (see --help)", argv[optind]);
}
