/*
 * sim/simbench.c - broadcasts and combines at scale, under SimGrid's SMPI.
 *
 * On a 1 x p grid, scope All, for every TOP letter asked for: the broadcast
 * DGEBS2D/DGEBR2D from {0,0}, the sum DGSUM2D leaving the result on all
 * (RDEST = -1) and on one process ({0,0}), of a contiguous vector of doubles;
 * then MPI_Bcast, MPI_Allreduce and MPI_Reduce (sum) of the same vector on
 * the same processes, timed the same way.  Only the public C interface of the
 * BLACS and MPI are used, so the same source links against this library or a
 * reference BLACS built with smpicc.
 *
 *   smpirun -np 64 -platform sim/cluster.xml -hostfile H build/sim/simbench \
 *       --sizes 8,64K,1M,8M --tops _IDSMFH123456789T --csv out.csv
 *
 * Timing: every operation runs once as a warm-up, then once more from a
 * start that all processes share to the last (simulated) instant
 * MPI_Wtime() tells one of them it is done: max over the processes of
 * (end - start), the start being an MPI_Barrier followed by a sleep until a
 * common simulated time (start_together).  In simulation MPI_Wtime is the
 * simulated clock, so one run is enough: the same run gives the same times
 * to the last bit (see sim/README.md).
 *
 * Checks: both runs of every operation check their data.  A broadcast: every
 * element on every process (receivers are cleared to -1 first).  A sum:
 * process r contributes integers whose total is exact in any order, so the
 * result is compared for equality with its closed form.
 * Leave-on-one is checked on the destination only (elsewhere the BLACS leave
 * A undefined).  A wrong element prints "VERIFY FAILED" and ends the
 * simulation with status 3; a complete run ends with the line
 * "simbench: done, N measurements" on rank 0's stderr.
 *
 * Memory: when p * bytes exceeds --private-max, the vectors are allocated
 * with SMPI_PARTIAL_SHARED_MALLOC: their first MiB is private to each
 * process, the rest one block of memory shared by all simulated processes
 * (its contents are meaningless and SMPI does not copy it).  Then only the
 * first element is filled and checked (check = "first"): SimGrid 3.32 copies
 * the private part of a message only if the message starts at or before it
 * (shift_and_frame_private_blocks underflows otherwise), so in the private
 * head only what messages starting at offset 0 deliver can be trusted, and
 * element 0 always travels that way.  The library's own buffers stay private
 * unless the run is started with smpi/auto-shared-malloc-thresh; then sums
 * cannot be checked at all (--unchecked-combines, check = "none").
 *
 * Output (rank 0, appended to --csv or written to stdout, header once):
 *
 *   impl,op,top,np,bytes,t_us,check
 *
 * impl: "ours"/"ref" (the BLACS linked in, --impl) or "mpi" (--mpi-impl: e.g.
 * "mpi-mpich", the collectives of SMPI's mpich selector); op: bcast,
 * allreduce (leave-on-all), reduce (leave-on-one); top: the TOP letter, '_'
 * for the blank default, '-' for MPI; t_us: microseconds of simulated time;
 * check: all, first or none.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <simgrid/actor.h>

#include "blacs.h"

#ifndef SIM_IMPL
#define SIM_IMPL "ours"
#endif

#define ALL_TOPS " IDSMFH123456789T"
#define MAX_SIZES 64
#define HEAD ((size_t)1 << 20) /* private head of a partially shared vector: one shared-malloc block */
#define CLEARED (-1.0)         /* no pattern value is negative */

enum { OP_BCAST, OP_ALLREDUCE, OP_REDUCE, NOPS };
static const char *const op_name[NOPS] = {"bcast", "allreduce", "reduce"};

typedef struct {
    size_t sizes[MAX_SIZES];
    int nsizes;
    char tops[32];
    int ops[NOPS];
    int mpi; /* 0: BLACS only, 1: BLACS and MPI, 2: MPI only */
    const char *impl, *mpi_impl, *csv;
    double private_max; /* p * bytes above this: partially shared vectors */
    int unchecked_combines;
    int inject; /* --inject-fault: corrupt one received element, to test the checks;
                   2, --inject-hang: the last process skips a broadcast (a deadlock) */
} config;

static int me, np, ctxt;
static FILE *out;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "simbench: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    exit(2); /* not MPI_Abort: SMPI 3.32 ends an aborted simulation with status 0 */
}

/* Element i of the vector of process `owner` is owner * 2^30 + h(i): an
 * integer below 2^40, different for every owner, index and salt (so that a
 * stale vector from the previous operation never passes), never negative.
 * The sum over p <= 4096 processes, 2^30 p(p-1)/2 + p h(i), stays below
 * 2^53: exact whatever the order of the additions. */
#define OWNER 1073741824.0 /* 2^30 */

static inline double h(size_t i, uint32_t s)
{
    return (double)(int32_t)(((uint32_t)i * 2654435761u + s) >> 2); /* below 2^30 */
}

/* The checks touch every element of every simulated process, twice per
 * operation: plain loops without early exits, so that they vectorize. */
static void fill(double *a, size_t n, int op, int source, unsigned salt)
{
    uint32_t s = salt * 40503u;
    if (op == OP_BCAST && !source) {
        for (size_t i = 0; i < n; i++)
            a[i] = CLEARED;
        return;
    }
    double base = op == OP_BCAST ? 0 : OWNER * me;
    for (size_t i = 0; i < n; i++)
        a[i] = base + h(i, s);
}

static void verify(const double *a, size_t n, int op, unsigned salt, const char *what)
{
    if (op == OP_REDUCE && me != 0)
        return;
    uint32_t s = salt * 40503u;
    double base = op == OP_BCAST ? 0 : OWNER * ((double)np * (np - 1) / 2);
    double mult = op == OP_BCAST ? 1 : np;
    /* bit patterns: the values are exact integers (never -0), and integer
     * xor vectorizes where a double compare does not */
    uint64_t diff = 0;
    for (size_t i = 0; i < n; i++) {
        double want = base + mult * h(i, s);
        uint64_t x, y;
        memcpy(&x, &a[i], sizeof x);
        memcpy(&y, &want, sizeof y);
        diff |= x ^ y;
    }
    for (size_t i = 0; diff && i < n; i++) {
        double want = base + mult * h(i, s);
        if (memcmp(&a[i], &want, sizeof want) != 0) {
            fprintf(stderr,
                    "simbench: VERIFY FAILED %s on process %d of %d, element %zu of the %zu checked: "
                    "got %.17g, want %.17g\n",
                    what, me, np, i, n, a[i], want);
            fflush(stderr);
            exit(3);
        }
    }
}

/* One operation: the BLACS with TOP letter `top`, or MPI when top == 0. */
static void run_op(int op, char top, double *a, size_t n)
{
    char t[2] = {top, '\0'};
    int m = (int)n;
    if (top == 0) {
        if (op == OP_BCAST)
            MPI_Bcast(a, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        else if (op == OP_ALLREDUCE)
            MPI_Allreduce(MPI_IN_PLACE, a, m, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Reduce(me == 0 ? MPI_IN_PLACE : a, me == 0 ? a : NULL, m, MPI_DOUBLE, MPI_SUM, 0,
                       MPI_COMM_WORLD);
    } else if (op == OP_BCAST) {
        if (me == 0)
            Cdgebs2d(ctxt, "All", t, m, 1, a, m);
        else
            Cdgebr2d(ctxt, "All", t, m, 1, a, m, 0, 0);
    } else {
        Cdgsum2d(ctxt, "All", t, m, 1, a, m, op == OP_ALLREDUCE ? -1 : 0, 0);
    }
}

/* Returns when every process has reached the same simulated time, and that
 * time.  A barrier alone releases the processes a few alpha apart (more than
 * a whole 8-byte broadcast at p = 256, hidden by eager sends), so after it
 * everyone agrees on a start `margin` seconds later and sleeps until then.
 * The margin must exceed the spread of the allreduce's exit times: about
 * 10 us at p = 1024 once SMPI has set up the communicator, but the first
 * collective on MPI_COMM_WORLD also pays that setup (0.5 ms at p = 256 after
 * the reference BLACS' grid creation, which had made none), so the first call
 * gets a wide margin.  Simulated waiting costs nothing. */
static double start_together(double margin)
{
    double now, latest;
    MPI_Barrier(MPI_COMM_WORLD);
    now = MPI_Wtime();
    MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double start = latest + margin, late = MPI_Wtime() - start;
    if (late >= 0)
        die("process %d left the start allreduce %.1f us after the common start", me, late * 1e6);
    sg_actor_sleep_until(start); /* MPI_Wtime() is SimGrid's clock */
    return start;
}

/* Warm-up and timed run of one operation, both checked; returns the largest
 * time over the processes (rank 0 only). */
static double measure(const config *c, int op, char top, double *a, size_t n, int shared, unsigned *salt,
                      const char **check)
{
    char what[64];
    snprintf(what, sizeof what, "%s %s TOP '%c' %zu bytes", top ? c->impl : "mpi", op_name[op],
             top ? top : '-', n * sizeof(double));
    int unchecked = op != OP_BCAST && c->unchecked_combines;
    size_t nc = shared ? 1 : n; /* the elements filled and checked */
    *check = unchecked ? "none" : shared ? "first" : "all";
    double t = 0;
    for (int timed = 0; timed < 2; timed++) {
        unsigned s = ++*salt;
        fill(a, nc, op, me == 0, s);
        double t0 = start_together(1e-3);
        if (c->inject == 2 && op == OP_BCAST && me == np - 1) /* waits for a message never sent */
            MPI_Recv(a, 1, MPI_DOUBLE, 0, 12345, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        run_op(op, top, a, n);
        t = MPI_Wtime() - t0;
        if (c->inject == 1 && timed && me == (op == OP_REDUCE ? 0 : np - 1))
            a[0] += 1; /* the first element: checked in every layout */
        if (!unchecked)
            verify(a, nc, op, s, what);
    }
    double tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return tmax;
}

static void row(const char *impl, int op, char top, size_t bytes, double t, const char *check)
{
    if (me != 0)
        return;
    fprintf(out, "%s,%s,%c,%d,%zu,%.6f,%s\n", impl, op_name[op],
            top == ' ' ? '_'
            : top      ? top
                       : '-',
            np, bytes, t * 1e6, check);
    fflush(out);
}

static double *valloc_(size_t bytes, int shared)
{
    double *a;
    if (shared && bytes > HEAD) {
        size_t block[2] = {HEAD, bytes};
        a = SMPI_PARTIAL_SHARED_MALLOC(bytes, block, 1);
    } else {
        a = malloc(bytes ? bytes : sizeof(double));
    }
    if (a == NULL)
        die("out of memory (%zu bytes)", bytes);
    return a;
}

static size_t parse_amount(const char *s)
{
    char *end;
    double v = strtod(s, &end), mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1024, end++;
    else if (*end == 'M' || *end == 'm')
        mult = 1024.0 * 1024, end++;
    else if (*end == 'G' || *end == 'g')
        mult = 1024.0 * 1024 * 1024, end++;
    if (end == s || *end || v < 0)
        die("bad size '%s'", s);
    return (size_t)(v * mult + 0.5);
}

static void parse_sizes(config *c, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    c->nsizes = 0;
    for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        size_t b = parse_amount(tok);
        if (b == 0 || b % sizeof(double) || b / sizeof(double) > 0x7fffffff)
            die("size '%s' is not a positive whole number of doubles (below 2^31)", tok);
        if (c->nsizes == MAX_SIZES)
            die("too many sizes (at most %d)", MAX_SIZES);
        c->sizes[c->nsizes++] = b;
    }
    free(copy);
}

static void parse_tops(config *c, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < sizeof c->tops; s++) {
        char t = *s == '_' ? ' ' : *s;
        if (strchr(ALL_TOPS, t) == NULL || t == '\0')
            die("unknown TOP '%c'", *s);
        c->tops[k++] = t;
    }
    c->tops[k] = '\0';
}

static void parse_ops(config *c, const char *s)
{
    memset(c->ops, 0, sizeof c->ops);
    char *copy = strdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NOPS && strcmp(tok, op_name[k]) != 0)
            k++;
        if (k == NOPS)
            die("unknown operation '%s' (bcast, allreduce, reduce)", tok);
        c->ops[k] = 1;
    }
    free(copy);
}

static void usage(void)
{
    if (me == 0)
        printf("usage: simbench [--sizes 8,64K,1M,8M] [--tops _IDSMFH123456789T] [--ops "
               "bcast,allreduce,reduce]\n"
               "                [--mpi yes|no|only] [--impl NAME] [--mpi-impl NAME] [--csv FILE]\n"
               "                [--private-max BYTES]\n"
               "                [--unchecked-combines] [--inject-fault] [--inject-hang]\n"
               "  '_' in --tops is the blank (default) TOP.  Vectors of p * bytes > --private-max\n"
               "  (default 2G) are partially shared: only their first element is checked.\n"
               "  --mpi only: the MPI collectives alone; --mpi-impl: their impl column (default mpi).\n"
               "  --unchecked-combines: the run shares the library's buffers, sums cannot be checked.\n"
               "  --inject-fault: corrupt one element after the first timed operation (must fail).\n"
               "  --inject-hang: the last process skips its first broadcast (a deadlock: must fail).\n");
}

static void parse(config *c, int argc, char **argv)
{
    parse_sizes(c, "8,64K,1M,8M");
    parse_tops(c, "_IDSMFH123456789T");
    parse_ops(c, "bcast,allreduce,reduce");
    c->mpi = 1;
    c->impl = SIM_IMPL;
    c->mpi_impl = "mpi";
    c->csv = NULL;
    c->private_max = 2.0 * 1024 * 1024 * 1024;
    c->unchecked_combines = 0;
    c->inject = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            MPI_Finalize();
            exit(0);
        } else if (strcmp(o, "--unchecked-combines") == 0) {
            c->unchecked_combines = 1;
            continue;
        } else if (strcmp(o, "--inject-fault") == 0) {
            c->inject = 1;
            continue;
        } else if (strcmp(o, "--inject-hang") == 0) {
            c->inject = 2;
            continue;
        }
        if (v == NULL)
            die("option '%s' needs a value (--help)", o);
        i++;
        if (strcmp(o, "--sizes") == 0)
            parse_sizes(c, v);
        else if (strcmp(o, "--tops") == 0)
            parse_tops(c, v);
        else if (strcmp(o, "--ops") == 0)
            parse_ops(c, v);
        else if (strcmp(o, "--impl") == 0)
            c->impl = v;
        else if (strcmp(o, "--mpi-impl") == 0)
            c->mpi_impl = v;
        else if (strcmp(o, "--csv") == 0)
            c->csv = v;
        else if (strcmp(o, "--private-max") == 0)
            c->private_max = (double)parse_amount(v);
        else if (strcmp(o, "--mpi") == 0) {
            c->mpi = strcmp(v, "no") == 0 ? 0 : strcmp(v, "only") == 0 ? 2 : 1;
            if (strcmp(v, "no") && strcmp(v, "yes") && strcmp(v, "only"))
                die("--mpi '%s': yes, no or only", v);
        } else
            die("unknown option '%s' (--help)", o);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    config c;
    parse(&c, argc, argv);
    if (np > 4096)
        die("%d processes: sums of more than 4096 would not be exact", np);

    /* The grid: 1 x p, process (0, j) is rank j of MPI_COMM_WORLD, so the
     * MPI collectives run on the same processes in the same order. */
    int bme, bnp, nprow, npcol, myrow, mycol;
    Cblacs_pinfo(&bme, &bnp);
    Cblacs_get(0, 0, &ctxt);
    double t0 = MPI_Wtime();
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    if (me == 0) /* its nodes and, unless told (BLACS_MODEL, a tuning file), the network measured */
        fprintf(stderr, "simbench: Cblacs_gridinit took %.1f us on process 0\n", (MPI_Wtime() - t0) * 1e6);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow != 1 || npcol != np || myrow != 0 || mycol != me || bme != me)
        die("unexpected grid on process %d", me);

    start_together(1.0); /* SMPI's set-up of the collectives, once */

    out = stdout;
    if (me == 0 && c.csv != NULL) {
        out = fopen(c.csv, "a");
        if (out == NULL)
            die("cannot open '%s'", c.csv);
        fseek(out, 0, SEEK_END);
        if (ftell(out) == 0)
            fprintf(out, "impl,op,top,np,bytes,t_us,check\n");
    } else if (me == 0) {
        fprintf(out, "impl,op,top,np,bytes,t_us,check\n");
    }

    unsigned salt = 0;
    int rows = 0;
    for (int s = 0; s < c.nsizes; s++) {
        size_t bytes = c.sizes[s], n = bytes / sizeof(double);
        int shared = (double)np * (double)bytes > c.private_max;
        double *a = valloc_(bytes, shared);
        for (int op = 0; op < NOPS; op++) {
            if (!c.ops[op])
                continue;
            const char *check;
            for (const char *t = c.tops; *t && c.mpi != 2; t++) {
                double sec = measure(&c, op, *t, a, n, shared, &salt, &check);
                row(c.impl, op, *t, bytes, sec, check);
                rows++;
            }
            if (c.mpi) {
                double sec = measure(&c, op, 0, a, n, shared, &salt, &check);
                row(c.mpi_impl, op, 0, bytes, sec, check);
                rows++;
            }
        }
        if (shared && bytes > HEAD)
            SMPI_SHARED_FREE(a);
        else
            free(a);
    }

    if (out != stdout)
        fclose(out);
    if (me == 0)
        fprintf(stderr, "simbench: done, %d measurements\n", rows);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(1);
    MPI_Finalize();
    return 0;
}
