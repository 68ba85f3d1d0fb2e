/*
 * test/mpi/t_streams.c - the two trees' streams (topologies/stream.c):
 * a process that forwards in both trees sends each tree's pieces as they
 * come, never waiting for the other tree's.
 *
 * On a 1 x np grid, the default TOP is made to take the two trees
 * (topologies/two_tree.c, through BLACS_ALGORITHM) for a broadcast of 4 MiB from member 0 and from
 * member np - 1, on the cost model of a network (pieces of about 100 KiB,
 * sent synchronously two at a time).  Where tree B is tree A shifted (np
 * even), one process X forwards in both.  X's parent in tree B enters the
 * call 1 s late, and X's sends are watched through MPI's profiling
 * interface: X must have sent more pieces of tree A before its first of
 * tree B than its window holds (two): in piece order across both trees, it
 * sent one piece of A, or the two its window holds, and then waited the
 * second for B's first.  (On an idle machine X sends all of A's pieces
 * within that second; on a loaded one, where 8 processes share 2 cores
 * with other work, some of A's pieces may come after B's first, which is
 * no fault: the check asks only that A did not wait for B.)  And every
 * element must arrive.
 * The late process must not be a child of the source, whose window it
 * would fill, nor X's child in A: np = 8, 12 and 16 are such.
 *
 * The sum to one along the two trees (the same streams, upwards) cannot be
 * watched so: every process feeds both trees, and one that comes late
 * holds both.  Its gain shows in simulation (sim/results-history.md), its
 * repeatable folding in t_longmsg.  Here it runs with far more pieces than
 * its receive slots hold, processes coming late: it must end, and right.
 *
 * A fan-in of whole vectors larger than a node's slots hold for all its
 * children (TOP '1', binomial, 4 MiB on 8 processes: two slots for three
 * children; 12 MiB: one, above the budget) takes the children one after the other, the smallest subtree
 * first, as they are ready: the destination's receives, watched, must be
 * of whole vectors and posted in that order, folding as they arrive and
 * repeatably, and the sum right.  (Cut into pieces of BLX_FANIN_BUDGET / 2d,
 * as before, every receive was of a piece.)
 */
#include <time.h>

#include "../../topologies/topology.h"
#include "mpitest.h"

#define BYTES ((size_t)4 << 20)
#define BIG_BYTES ((size_t)48 << 20)
#define LATE_S 1 /* X's parent in tree B enters the call this many seconds late */
#define WINDOW 2 /* pieces a stream has in flight */

/* X's sends during the watched call: to its destinations in tree A and in
 * tree B (communicator ranks), and how many of A's went before B's first. */
typedef struct {
    int on, to_a, to_b, sent_a, sent_b, a_before_b;
} watch;
static watch w;

/* The destination's receives during a watched fan-in: source and size. */
#define MAX_RECVS 64
static struct {
    int on, n, from[MAX_RECVS], count[MAX_RECVS];
} rw;

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    if (rw.on && rw.n < MAX_RECVS) {
        rw.from[rw.n] = source;
        rw.count[rw.n++] = count;
    }
    return PMPI_Irecv(buf, count, type, source, tag, comm, req);
}

static void note(int dest)
{
    if (!w.on)
        return;
    if (dest == w.to_a)
        w.sent_a++;
    else if (dest == w.to_b && w.sent_b++ == 0)
        w.a_before_b = w.sent_a;
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    note(dest);
    return PMPI_Issend(buf, count, type, dest, tag, comm, req);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    note(dest);
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

/* Member 'rel' places after 'root' among np. */
static int member(int root, int rel, int np) { return (root + rel) % np; }

/* One broadcast along the two trees from 'root', X's parent in tree B
 * late: X's sends to its children in A and in B are counted. */
static void run(int ctxt, int np, int me, int root)
{
    const blx_algorithm *t = &blx_alg_two_tree;
    blx_tree *a = blx_tree_build(np, t->tree, 0, 0), *b = blx_tree_build(np, t->tree2, 0, 0);
    CHECK(a != NULL && b != NULL, "the two trees of %d could not be built", np);
    if (a == NULL || b == NULL)
        return;
    int x = -1; /* relative to the root: forwards in both trees */
    for (int v = 1; v < np && x < 0; v++)
        if (blx_tree_nkids(a, v) > 0 && blx_tree_nkids(b, v) > 0)
            x = v;
    CHECK(x > 0, "no process forwards in both trees on %d processes", np);
    if (x < 0)
        return;
    int to_a = blx_tree_kids(a, x)[0], to_b = blx_tree_kids(b, x)[0], late = b->parent[x];
    CHECK(late != 0 && a->parent[late] != 0 && b->parent[late] != 0 && a->parent[late] != x && to_a != to_b,
          "on %d processes X's parent in tree B is a child of the source or of X", np);

    long n = (long)(BYTES / sizeof(double));
    double *v = malloc(BYTES);
    for (long k = 0; k < n; k++)
        v[k] = me == root ? (double)k : -1;
    int rel = (me - root + np) % np;
    w = (watch){rel == x, member(root, to_a, np), member(root, to_b, np), 0, 0, -1};
    if (rel == late)
        nanosleep(&(struct timespec){LATE_S, 0}, NULL);
    unsigned long before = blx_algorithm_runs(t);
    if (me == root)
        Cdgebs2d(ctxt, "A", " ", (int)n, 1, v, (int)n);
    else
        Cdgebr2d(ctxt, "A", " ", (int)n, 1, v, (int)n, 0, root);
    int on = w.on;
    w.on = 0;
    CHECK(blx_algorithm_runs(t) == before + 1, "broadcast from %d: the two trees did not run", root);
    long bad = -1;
    for (long k = 0; k < n && bad < 0; k++)
        if (v[k] != (double)k)
            bad = k;
    CHECK(bad < 0, "broadcast from %d: element %ld is %g", root, bad, bad < 0 ? 0 : v[bad]);
    if (on) {
        CHECK(w.sent_a >= 2 && w.sent_b >= 1,
              "broadcast from %d: X sent %d pieces along tree A and %d along B", root, w.sent_a, w.sent_b);
        CHECK(w.a_before_b > WINDOW,
              "broadcast from %d: X sent only %d of its %d pieces of tree A before its first of tree B, %d s "
              "late (tree A waited for tree B)",
              root, w.a_before_b, w.sent_a, LATE_S);
    }
    free(v);
    blx_tree_free(a);
    blx_tree_free(b);
}

/* A sum's vector: process me holds (me + 1) (k mod 1000) at k. */
static double *sum_vector(size_t bytes, int me)
{
    long n = (long)(bytes / sizeof(double));
    double *v = malloc(bytes);
    for (long k = 0; k < n; k++)
        v[k] = (double)(me + 1) * (double)(k % 1000);
    return v;
}

/* The first element of the sum over np processes that is wrong, or -1. */
static long sum_wrong(const double *v, size_t bytes, int np)
{
    long n = (long)(bytes / sizeof(double));
    double sum = (double)np * (np + 1) / 2;
    for (long k = 0; k < n; k++)
        if (v[k] != sum * (double)(k % 1000))
            return k;
    return -1;
}

/* A sum to one along the two trees of far more pieces than a node's
 * receive slots hold (BLX_FANIN_BUDGET, fanin.h: 48 MiB in pieces of about
 * 250 KiB on 8 processes, 32 slots), every third process entering late:
 * the slots are reused while pieces of both trees are in flight (where a
 * window taken whole by one tree's pieces could leave the other's waiting,
 * the reserve of the stream in stream.c).  It must end, with every
 * element right.  (It ends too with the reserve kept only for a leaf's own
 * pieces, as before it was general, on 8, 12 and 16 processes: the cycle
 * that reserve breaks needs a skew between the trees this run does not
 * make.) */
static void big_sum(int ctxt, int np, int me, int dest)
{
    const blx_algorithm *t = &blx_alg_two_tree;
    long n = (long)(BIG_BYTES / sizeof(double));
    double *v = sum_vector(BIG_BYTES, me);
    if (me % 3 == 1)
        nanosleep(&(struct timespec){0, 100000000L}, NULL); /* every third process 100 ms late */
    unsigned long before = blx_algorithm_runs(t);
    Cdgsum2d(ctxt, "A", " ", (int)n, 1, v, (int)n, 0, dest);
    CHECK(blx_algorithm_runs(t) == before + 1, "sum to %d: the two trees did not run", dest);
    long bad = me == dest ? sum_wrong(v, BIG_BYTES, np) : -1;
    CHECK(bad < 0, "sum to %d: element %ld is %g", dest, bad, bad < 0 ? 0 : v[bad]);
    free(v);
}

/* Members in the subtree of node v (relative) of tree t. */
static int subtree(const blx_tree *t, int v)
{
    int size = 0;
    for (int u = 0; u < t->np; u++) {
        int a = u;
        while (a >= 0 && a != v)
            a = t->parent[a];
        size += a == v;
    }
    return size;
}

/* A sum to 'dest' along TOP '1' of 'bytes', repeatable or not: the
 * destination's children come whole, the smallest subtree first. */
static void whole_sum(int ctxt, int np, int me, int dest, size_t bytes, int repeatable)
{
    const blx_algorithm *t = blx_algorithm_find('1');
    blx_tree *tree = blx_tree_build(np, t->combine_tree, '1', 0);
    CHECK(tree != NULL, "the 1-tree of %d could not be built", np);
    if (tree == NULL)
        return;
    Cblacs_set(ctxt, BLACS_SGET_TOPSREPEAT, &repeatable);
    long n = (long)(bytes / sizeof(double));
    double *v = sum_vector(bytes, me);
    rw.on = me == dest, rw.n = 0;
    unsigned long before = blx_algorithm_runs(t);
    Cdgsum2d(ctxt, "A", "1", (int)n, 1, v, (int)n, 0, dest);
    rw.on = 0;
    CHECK(blx_algorithm_runs(t) == before + 1, "sum to %d along '1': the 1-tree did not run", dest);
    if (me == dest) {
        int d = blx_tree_nkids(tree, 0), last = 0;
        CHECK(rw.n == d, "sum to %d (repeatable %d): %d receives for %d children", dest, repeatable, rw.n, d);
        for (int i = 0; i < rw.n; i++) {
            int rel = (rw.from[i] - dest + np) % np, size = tree->parent[rel] == 0 ? subtree(tree, rel) : -1;
            CHECK(rw.count[i] == (int)bytes,
                  "sum to %d (repeatable %d): receive %d of %d bytes, not the whole vector of %zu", dest,
                  repeatable, i, rw.count[i], bytes);
            CHECK(size >= last,
                  "sum to %d (repeatable %d): receive %d from a child of subtree %d after one of %d", dest,
                  repeatable, i, size, last);
            last = size;
        }
    }
    long bad = me == dest ? sum_wrong(v, bytes, np) : -1;
    CHECK(bad < 0, "sum to %d along '1': element %ld is %g", dest, bad, bad < 0 ? 0 : v[bad]);
    int off = 0;
    Cblacs_set(ctxt, BLACS_SGET_TOPSREPEAT, &off);
    free(v);
    blx_tree_free(tree);
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    setenv("BLACS_MODEL", "alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=1", 1);
    mpitest_start();
    int np = mt_size, ctxt = mpitest_grid_forcing("bcast=two_tree,reduce=two_tree", 1, np);
    run(ctxt, np, mt_rank, 0);
    run(ctxt, np, mt_rank, np - 1);
    big_sum(ctxt, np, mt_rank, 0);
    big_sum(ctxt, np, mt_rank, np / 2);
    for (int repeatable = 0; repeatable < 2; repeatable++) {
        whole_sum(ctxt, np, mt_rank, 0, (size_t)4 << 20, repeatable);
        whole_sum(ctxt, np, mt_rank, np - 1, (size_t)4 << 20, repeatable);
        whole_sum(ctxt, np, mt_rank, np / 2, (size_t)12 << 20, repeatable);
    }
    Cblacs_gridexit(ctxt);
    return mpitest_finish("t_streams");
}
