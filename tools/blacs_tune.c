/*
 * tools/blacs_tune.c - blacs-tune: measures the machine it runs on and
 * writes the cost model (topologies/model.h) as a tuning file, which the
 * library reads when a grid is made (BLACS_MODEL_FILE, or the default place
 * it was built with), so that a job pays nothing to learn the machine.
 *
 *   mpirun -np P blacs-tune [-o FILE]
 *
 * Run it once per machine, with the processes placed as jobs place them:
 * two or more on a node (the node's model) and two or more nodes (the
 * network's).  Process 0 times messages to the others:
 *   alpha, beta   round trips of 8 bytes and of 1 MiB to one process (the
 *                 library's own probe, probe.h): 2 alpha, 2 alpha + n beta
 *   overhead      the time a send of 8 bytes keeps its sender, to a process
 *                 that has posted its receives (a stream of 100)
 *   window        1 MiB to k processes at once, k = 1, 2, 4, ... (up to 64):
 *                 the most transfers' worth the link carries, k t(1) / t(k),
 *                 rounded (needs 2 or more processes there)
 *   gamma         a sum of vectors of doubles (both levels)
 * on its own node (node.*) and to other nodes (net.*).  Every value is the
 * fastest of 4 tries, rounded to two significant digits.  BLACS_NODES (a
 * testing aid, doc/guide.md) splits the processes into "nodes" as for a grid.
 *
 * Then MPI's own collectives against the library's default TOP ' ' (which
 * plans with the model just measured): broadcast, sum to one and sum to
 * all of doubles, at 8 B, 4 KiB, 64 KiB, 1 MiB and 8 MiB, on three shapes
 * of grid: every process, the processes of process 0's node, and one
 * process per node (the shapes of a grid's whole, its rows and its
 * columns where a row fills a node).  Each time is the slowest member's,
 * the fastest of 4 tries; the file keeps MPI's time over ours, as lines
 * mpi.OP.NPxNN (model.h), and the default then runs MPI's collective where
 * that is below 1.  --no-mpi leaves this out.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../blacs/internal.h"
#include "../blacs/probe.h"

#define ME "blacs-tune"
#define TAG 7
#define STREAM 100 /* sends timed for the overhead */
#define WINDOW_MAX 64

typedef struct level {
    const char *name; /* "node" or "net" */
    int peers[WINDOW_MAX];
    int npeers;
    double alpha, beta, overhead;
    int window; /* 0: not measured */
} level;

static int me, np;
static char *buf;

/* alpha and beta to the level's first peer. */
static void link_times(level *l)
{
    int peer = l->peers[0];
    if (me == peer)
        blx_probe_answer(ME, MPI_COMM_WORLD, 0, TAG, buf, 2 * BLX_PROBE_TRIES);
    if (me == 0) {
        double small = blx_probe_round_trip(ME, MPI_COMM_WORLD, peer, TAG, buf, 8),
               large = blx_probe_round_trip(ME, MPI_COMM_WORLD, peer, TAG, buf, BLX_PROBE_BYTES);
        blx_probe_link(small, large, &l->alpha, &l->beta);
    }
}

/* The time a stream of 8-byte sends keeps process 0 per send, to the first
 * peer, which has posted its receives and said so. */
static void overhead(level *l)
{
    int peer = l->peers[0];
    double best = 1e30;
    for (int t = 0; t < BLX_PROBE_TRIES; t++) {
        if (me == peer) {
            MPI_Request rq[STREAM];
            for (int i = 0; i < STREAM; i++)
                MPI_Irecv(buf + 8 * i, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &rq[i]);
            MPI_Send(buf, 0, MPI_BYTE, 0, TAG + 1, MPI_COMM_WORLD);
            for (int i = 0; i < STREAM; i++) /* (not MPI_Waitall with MPI_STATUSES_IGNORE: gcc's
                                                  bounds check trips on MPICH's) */
                MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        }
        if (me == 0) {
            MPI_Recv(buf, 0, MPI_BYTE, peer, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double t0 = MPI_Wtime();
            for (int i = 0; i < STREAM; i++)
                MPI_Send(buf, 8, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            double dt = (MPI_Wtime() - t0) / STREAM;
            best = dt < best ? dt : best;
        }
    }
    l->overhead = blx_probe_digits(best);
}

/* The fastest of the tries of 1 MiB from process 0 to the first k peers at
 * once, each answering 8 bytes. */
static double fan_out(const level *l, int k)
{
    double best = 1e30;
    int mine = -1;
    for (int i = 0; i < k; i++)
        mine = l->peers[i] == me ? i : mine;
    if (mine >= 0)
        blx_probe_answer(ME, MPI_COMM_WORLD, 0, TAG, buf, BLX_PROBE_TRIES);
    for (int t = 0; me == 0 && t < BLX_PROBE_TRIES; t++) {
        MPI_Request rq[WINDOW_MAX];
        double t0 = MPI_Wtime();
        for (int i = 0; i < k; i++)
            MPI_Isend(buf, (int)BLX_PROBE_BYTES, MPI_BYTE, l->peers[i], TAG, MPI_COMM_WORLD, &rq[i]);
        for (int i = 0; i < k; i++)
            MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        for (int i = 0; i < k; i++)
            MPI_Recv(buf + BLX_PROBE_BYTES + 8 * i, 8, MPI_BYTE, l->peers[i], TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double dt = MPI_Wtime() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

/* The transfers' worth the link carries at once: k t(1) / t(k) at its
 * largest, k = 1, 2, 4, ... the peers, rounded (at least 1). */
static void window(level *l)
{
    double t1 = fan_out(l, 1), most = 1;
    for (int k = 2;; k *= 2) {
        k = k < l->npeers ? k : l->npeers;
        most = fmax(most, k * t1 / fan_out(l, k));
        if (k == l->npeers)
            break;
    }
    l->window = (int)fmin(WINDOW_MAX, fmax(1, round(most)));
}

static void measure(level *l)
{
    if (l->npeers == 0)
        return;
    link_times(l);
    overhead(l);
    if (l->npeers >= 2)
        window(l);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void write_level(FILE *f, const level *l)
{
    if (l->npeers == 0) {
        fprintf(f, "# %s: not measured (no second process %s); the library's default stays\n", l->name,
                strcmp(l->name, "node") == 0 ? "on process 0's node" : "on another node");
        return;
    }
    fprintf(f, "%s.alpha=%.2g\n%s.overhead=%.2g\n", l->name, l->alpha, l->name, l->overhead);
    if (l->beta > 0)
        fprintf(f, "%s.beta=%.2g\n", l->name, l->beta);
    else
        fprintf(f, "# %s.beta: 1 MiB came back no slower than 8 bytes (a busy machine?); the default stays\n",
                l->name);
    if (l->window > 0)
        fprintf(f, "%s.window=%d\n", l->name, l->window);
    else
        fprintf(f, "# %s.window: not measured (one process to send to); the library's default stays\n",
                l->name);
}

/* ---- MPI's collectives against ours ---- */

static const size_t coll_sizes[] = {8, 4096, 65536, 1 << 20, 8 << 20};
#define NSIZES (sizeof coll_sizes / sizeof coll_sizes[0])
static const char *const coll_ops[] = {"bcast", "reduce", "allreduce"};

/* One operation on the grid (ours: TOP ' '; else MPI's on its communicator). */
static void coll_once(int ctxt, MPI_Comm comm, int op, int mpi, double *v, size_t count, int member)
{
    blacs_int n = (blacs_int)count;
    if (mpi && op == 0)
        MPI_Bcast(v, (int)count, MPI_DOUBLE, 0, comm);
    else if (mpi)
        (op == 1 ? MPI_Reduce(member == 0 ? MPI_IN_PLACE : v, v, (int)count, MPI_DOUBLE, MPI_SUM, 0, comm)
                 : MPI_Allreduce(MPI_IN_PLACE, v, (int)count, MPI_DOUBLE, MPI_SUM, comm));
    else if (op == 0 && member == 0)
        Cdgebs2d(ctxt, "All", " ", n, 1, v, n);
    else if (op == 0)
        Cdgebr2d(ctxt, "All", " ", n, 1, v, n, 0, 0);
    else
        Cdgsum2d(ctxt, "All", " ", n, 1, v, n, op == 1 ? 0 : -1, op == 1 ? 0 : -1);
}

/* The slowest member's time per operation, the fastest of the tries. */
static double coll_time(int ctxt, MPI_Comm comm, int op, int mpi, double *v, size_t bytes, int member)
{
    int reps = bytes >= (1 << 20) ? 1 : bytes >= 65536 ? 4 : 20;
    double best = 1e30;
    for (int t = 0; t < BLX_PROBE_TRIES; t++) {
        for (size_t i = 0; i < bytes / 8; i++)
            v[i] = 1.0;
        MPI_Barrier(comm);
        double t0 = MPI_Wtime(), dt, slowest;
        for (int r = 0; r < reps; r++)
            coll_once(ctxt, comm, op, mpi, v, bytes / 8, member);
        dt = (MPI_Wtime() - t0) / reps;
        MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        best = slowest < best ? slowest : best;
    }
    return best;
}

/* The shape's lines (process 0 writes them to f; members of the shape
 * measure, the others only make and leave the grid with them). */
static void coll_shape(FILE *f, const int *ranks, int k, int nn, double *v)
{
    int ctxt, member = -1;
    for (int i = 0; i < k; i++)
        member = ranks[i] == me ? i : member;
    blacs_int *map = malloc((size_t)k * sizeof *map);
    for (int i = 0; i < k; i++)
        map[i] = ranks[i];
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridmap(&ctxt, map, 1, 1, k);
    free(map);
    if (member >= 0) {
        MPI_Comm comm = blx_ctx_find(ctxt)->comm;
        for (int op = 0; op < 3; op++) {
            double ratio[NSIZES];
            for (size_t z = 0; z < NSIZES; z++) {
                double ours = coll_time(ctxt, comm, op, 0, v, coll_sizes[z], member),
                       theirs = coll_time(ctxt, comm, op, 1, v, coll_sizes[z], member);
                ratio[z] = theirs / ours;
            }
            if (member == 0) {
                fprintf(f, "mpi.%s.%dx%d=", coll_ops[op], k, nn);
                for (size_t z = 0; z < NSIZES; z++)
                    fprintf(f, "%zu:%.2g%s", coll_sizes[z], fmax(ratio[z], 0.01),
                            z + 1 < NSIZES ? "," : "\n");
            }
        }
        Cblacs_gridexit(ctxt);
    }
}

/* Every shape; process 0 writes to f.  The grids plan with the model
 * measured (model, a file process 0 reads while they are made). */
static void coll_measure(FILE *f, const char *model, const int *id)
{
    double *v = malloc((8 << 20) + 8);
    int *ranks = malloc((size_t)np * sizeof *ranks), k, nn;
    if (v == NULL || ranks == NULL) {
        fprintf(stderr, ME ": out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (me == 0)
        setenv("BLACS_MODEL_FILE", model, 1);
    unsetenv("BLACS_ALGORITHM");
    unsetenv("BLACS_MODEL");
    for (int shape = 0; shape < 3; shape++) {
        k = nn = 0;
        for (int r = 0; r < np; r++) {
            int first = 1; /* the first process of its node */
            for (int s = 0; s < r; s++)
                first &= id[s] != id[r];
            nn += first;
            if (shape == 0 || (shape == 1 && id[r] == id[0]) || (shape == 2 && first))
                ranks[k++] = r;
        }
        nn = shape == 0 ? nn : shape == 1 ? 1 : k;
        if (k >= 2 && !(shape > 0 && k == np)) /* a shape of its own */
            coll_shape(f, ranks, k, nn, v);
    }
    free(v);
    free(ranks);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np P " ME " [-o FILE] [--no-mpi]\n"
               "Measures this machine's cost model (on a node, with two or more processes on process 0's\n"
               "node; between nodes, with processes on two or more nodes) and writes it to FILE (default:\n"
               "standard output).  The library reads it from BLACS_MODEL_FILE, or from\n"
               "  " BLX_MODEL_FILE_DEFAULT "\n"
               "when that variable is not set; BLACS_MODEL overrides any of its values.  Then it times\n"
               "MPI's own broadcast and sums against the library's default TOP on the whole job, process\n"
               "0's node and one process per node, and writes MPI's time over the library's (lines\n"
               "mpi.OP.NPxNN): the default runs MPI's collective where it is below 1.  --no-mpi leaves\n"
               "that out.\n");
}

/* Process 0, before measuring: can OUT be written?  Nothing is created
 * (a file that exists must be writable, else its folder).  0 yes, else
 * an error printed. */
static int output_fails(const char *out)
{
    if (out == NULL)
        return 0;
    if (access(out, F_OK) == 0) {
        if (access(out, W_OK) == 0)
            return 0;
    } else {
        char *copy = strdup(out);
        const char *dir = copy != NULL ? dirname(copy) : ".";
        int ok = access(dir, W_OK | X_OK) == 0;
        int err = errno;
        if (!ok)
            fprintf(stderr, ME ": cannot write '%s': %s%s%s%s\n", out, strerror(err),
                    err == ENOENT ? " (make its folder first: mkdir -p " : "", err == ENOENT ? dir : "",
                    err == ENOENT ? ")" : "");
        free(copy);
        return !ok;
    }
    fprintf(stderr, ME ": cannot write '%s': %s\n", out, strerror(errno));
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *out = NULL;
    int with_mpi = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--no-mpi") == 0) {
            with_mpi = 0;
        } else {
            if (me == 0)
                usage(strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 ? stdout : stderr);
            MPI_Finalize();
            return strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    /* a file that cannot be written fails now, not after the measuring */
    if (me == 0 && output_fails(out))
        MPI_Abort(MPI_COMM_WORLD, 1);
    buf = malloc(BLX_PROBE_BYTES + 8 * WINDOW_MAX);
    if (buf == NULL) {
        fprintf(stderr, ME ": out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int *id = blx_machine_nodes(ME, MPI_COMM_WORLD, np, me), nodes = 0, most = 0,
        local = blx_machine_node_processes(); /* as the library counts them */
    level lv[2] = {{.name = "node"}, {.name = "net"}};
    for (int r = 0; r < np; r++) {
        int here = 0, first = 1;
        for (int s = 0; s < np; s++) {
            here += id[s] == id[r];
            first &= s >= r || id[s] != id[r];
        }
        most = here > most ? here : most;
        nodes += first;
        level *l = &lv[id[r] != id[0]];
        if (r > 0 && l->npeers < WINDOW_MAX)
            l->peers[l->npeers++] = r;
    }
    double gamma = me == 0 ? blx_probe_fold(buf) : 0;
    measure(&lv[0]);
    measure(&lv[1]);

    /* the model, into a file of its own that the grids of MPI's measurements read */
    char model[] = "/tmp/blacs-tune.XXXXXX";
    if (me == 0) {
        int fd = mkstemp(model);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (f == NULL) {
            fprintf(stderr, ME ": cannot write a file in /tmp\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
        int len;
        MPI_Get_library_version(version, &len);
        version[strcspn(version, "\n,")] = '\0';
        time_t now = time(NULL);
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
        fprintf(f,
                "# BLACS cost model, written by " ME " on %s\n"
                "# %d processes on %d nodes (at most %d on one); %s\n"
                "# seconds, seconds per byte; the library reads this from BLACS_MODEL_FILE or\n"
                "# " BLX_MODEL_FILE_DEFAULT ", and BLACS_MODEL overrides any value\n",
                when, np, nodes, most, version);
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (cpus > 0 && local > cpus) {
            fprintf(f, "# measured with more processes than processors on a node: alpha holds waits to be "
                       "scheduled\n");
            fprintf(stderr,
                    ME ": warning: %d processes on a node of %ld processors; measure with a "
                       "processor per process\n",
                    local, cpus);
        }
        fprintf(f, "gamma=%.2g\n", gamma);
        write_level(f, &lv[0]);
        write_level(f, &lv[1]);
        if (fclose(f) != 0) {
            fprintf(stderr, ME ": cannot write '%s'\n", model);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    /* then MPI's collectives, appended to it, and the whole copied out */
    FILE *f = me == 0 ? fopen(model, "a") : NULL;
    if (with_mpi)
        coll_measure(f, model, id);
    if (me == 0) {
        FILE *to = out != NULL ? fopen(out, "w") : stdout;
        int c, failed = f == NULL || fclose(f) != 0 || to == NULL;
        f = failed ? NULL : fopen(model, "r");
        failed |= f == NULL;
        while (!failed && (c = getc(f)) != EOF)
            failed = putc(c, to) == EOF;
        if (f != NULL)
            failed |= fclose(f) != 0;
        if (to != NULL && to != stdout)
            failed |= fclose(to) != 0;
        unlink(model);
        if (failed) {
            fprintf(stderr, ME ": cannot write '%s'\n", out != NULL ? out : "(standard output)");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (out != NULL)
            fprintf(stderr, ME ": wrote %s (%d processes, %d nodes)\n", out, np, nodes);
    }
    free(id);
    free(buf);
    if (with_mpi)
        Cblacs_exit(1); /* MPI stays */
    MPI_Finalize();
    return 0;
}
