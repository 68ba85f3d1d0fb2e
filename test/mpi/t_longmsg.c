/*
 * test/mpi/t_longmsg.c - the algorithms the default TOP ' ' chooses by size,
 * each proven to run where it is chosen.
 *
 * The default picks an algorithm from the scope size and the message size
 * (topologies/registry.c): trees and the bidirectional exchange for short
 * messages, scatter + allgather broadcasts and reduce-scatter based
 * combines for long ones.  For every scope of the grid (each set of
 * members once) this test asks the registry where its choice changes,
 * scanning every element count up to MAX_BYTES, and runs each operation
 * one element below and at every change, inside every region and at the
 * largest size.  Before each call it asks
 * which algorithm the registry picks for that call's bytes; after it, that
 * algorithm's run counter must have advanced by exactly one.  And the long
 * algorithms must be among those chosen on a network's model (argument
 * "network": BLACS_MODEL as in the simulated cluster of `make sim`; on 3 or
 * more processes, every operation): moving a threshold moves the test's
 * sizes with it, and a default that stopped choosing them fails here.
 * Rank 0 prints how often each algorithm ran.
 *
 * Checked element by element: broadcasts from sources 0, 1 and np - 1,
 * contiguous at every size, with LDA > M and trapezoidal inside the regions;
 * ZGSUM2D of exact values and DGAMX2D without locations to every destination
 * (0, 1, np - 1 and everywhere); DGAMX2D with locations, which cannot be cut
 * between elements, with its RA/CA; DGSUM2D giving the same bits twice with
 * staggered entries, and the same bits on every process of a leave-on-all
 * combine; a non-destination's A untouched; a broadcast from a read-only
 * matrix.  And ZGSUM2D to one along two trees on every scope of 3 or more,
 * the default made to take them where the model would not.
 */
#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../blacs/internal.h"
#include "../../topologies/topology.h"
#include "mpitest.h"
#include "typed.h"

#define MAX_BYTES ((size_t)4 << 20)
#define MAX_POINTS 12

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
} grid;

enum op { BCAST, ALLREDUCE, REDUCE };
static const char *const op_name[] = {"broadcast", "leave-on-all combine", "leave-on-one combine"};

static int scope_size(const grid *g, char scope)
{
    return scope == 'R' ? g->npcol : scope == 'C' ? g->nprow : g->nprow * g->npcol;
}
static int scope_me(const grid *g, char scope)
{
    return scope == 'R' ? g->mycol : scope == 'C' ? g->myrow : g->myrow * g->npcol + g->mycol;
}
static void coords(const grid *g, char scope, int k, int *r, int *c)
{
    *r = scope == 'R' ? g->myrow : scope == 'C' ? k : k / g->npcol;
    *c = scope == 'R' ? k : scope == 'C' ? g->mycol : k % g->npcol;
}
static int vpid_of(const grid *g, char scope, int k)
{
    int r, c;
    coords(g, scope, k, &r, &c);
    return r * g->npcol + c;
}

static double val(int who, long k) { return (double)((who * 131 + k * 7) % 1001 - 500); }

/* The grid's cost model (the default, or BLACS_MODEL) and trees to cost. */
static const blx_model *model;
static blx_tree_cache trees;

/* The algorithm the default picks, as the library will for this call. */
static const blx_algorithm *choice(enum op op, int np, size_t bytes, int splittable)
{
    blx_route r;
    blx_route_in in = {np, bytes, op == ALLREDUCE, splittable, 1, 1, model, &trees, NULL, NULL, NULL, 0, NULL,
                       0,  NULL};
    int rc = op == BCAST ? blx_route_bcast(&r, ' ', &in) : blx_route_combine(&r, ' ', &in);
    return rc == 0 ? r.alg : NULL;
}

/* Run on a network's model, where the long-message algorithms must win. */
static int network;
#define NETWORK_MODEL "alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=1"

/* The library's synchronous sends, counted through MPI's profiling
 * interface.  A scatter's sends go one after the other: synchronous on a
 * network's model, where MPI would otherwise buffer the shorter ones and
 * send them beside the largest (topologies/scatter_allgather.c), buffered
 * on this machine's. */
static unsigned long issends;
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    issends++;
    return PMPI_Issend(buf, count, type, dest, tag, comm, req);
}

/* The source's sends of a scatter + allgather: one per halving of the scope. */
static void check_scatter_sends(const char *what, const blx_algorithm *t, int np, unsigned long before)
{
    if (t != &blx_alg_scatter_ring && t != &blx_alg_scatter_doubling)
        return;
    unsigned long want = 0;
    if (network)
        for (int half = 1; half < np; half *= 2)
            want++;
    CHECK(issends - before == want, "%s: the source made %lu synchronous sends, not %lu", what,
          issends - before, want);
}

/* An algorithm for long messages: not the short-message tree or exchange. */
static int is_long(enum op op, const blx_algorithm *t)
{
    return op == BCAST ? t != &blx_alg_general_tree : t != &blx_alg_general_tree && t != &blx_alg_hypercube;
}

/* Element counts to test: one below and at every change of the default's
 * choice, the middle of every region, the largest count.  Also tells whether
 * 'want' is chosen anywhere. */
static int test_points(enum op op, int np, size_t esz, int splittable, long *pts, int *wanted)
{
    long max = (long)(MAX_BYTES / esz), start = 1;
    int n = 0;
    *wanted = 0;
    const blx_algorithm *prev = choice(op, np, esz, splittable);
    for (long k = 2; k <= max + 1; k++) {
        const blx_algorithm *t = k <= max ? choice(op, np, (size_t)k * esz, splittable) : NULL;
        *wanted |= is_long(op, prev);
        if (t == prev)
            continue;
        if (n + 3 <= MAX_POINTS) {
            pts[n++] = (start + k - 1) / 2; /* inside the region [start, k) */
            if (k <= max) {
                pts[n++] = k - 1;
                pts[n++] = k;
            }
        }
        prev = t;
        start = k;
    }
    if (n < MAX_POINTS)
        pts[n++] = max;
    return n;
}

/* After one call: the algorithm the registry chose for it ran, once. */
static void check_ran(const char *what, const blx_algorithm *t, unsigned long before)
{
    CHECK(blx_algorithm_runs(t) == before + 1, "%s: %s ran %lu times instead of once", what, t->name,
          blx_algorithm_runs(t) - before);
}

static long check_bcast_data(const double *a, int layout, int m, int cols, int lda, int src, int is_source)
{
    long bad = 0;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < lda; i++) {
            size_t k = (size_t)i + (size_t)j * lda;
            int inside = i < m && (layout < 2 || in_shape('L', 'N', m, cols, i, j));
            double want = (inside || is_source) ? val(src, (long)k) : -9999.0;
            bad += a[k] != want;
        }
    return bad;
}

/* One broadcast of about n doubles from member 'root': layout 0 contiguous,
 * 1 with LDA > M, 2 a lower trapezoid. */
static void bcast_one(const grid *g, char scope, int root, long n, int layout)
{
    char sc[] = {scope, 0};
    int np = scope_size(g, scope), me = scope_me(g, scope), r, c;
    int m = layout == 0 ? (int)n : 509, cols = layout == 0 ? 1 : (int)((n + 508) / 509);
    int lda = layout == 1 ? m + 5 : m;
    size_t cells = (size_t)lda * cols;
    double *a = malloc(cells * sizeof *a);
    coords(g, scope, root, &r, &c);
    int src = r * g->npcol + c;
    for (size_t k = 0; k < cells; k++)
        a[k] = me == root ? val(src, (long)k) : -9999.0;
    size_t count = layout < 2 ? (size_t)m * cols : 0;
    for (int j = 0; layout == 2 && j < cols; j++)
        for (int i = 0; i < m; i++)
            count += in_shape('L', 'N', m, cols, i, j);
    const blx_algorithm *t = choice(BCAST, np, count * sizeof(double), 1);
    char what[128];
    snprintf(what, sizeof what, "broadcast scope %c from %d, %zu doubles, layout %d", scope, root, count,
             layout);
    unsigned long before = blx_algorithm_runs(t), sync_before = issends;
    if (layout < 2 && me == root)
        Cdgebs2d(g->ctxt, sc, " ", m, cols, a, lda);
    else if (layout < 2)
        Cdgebr2d(g->ctxt, sc, " ", m, cols, a, lda, r, c);
    else if (me == root)
        Cdtrbs2d(g->ctxt, sc, " ", "L", "N", m, cols, a, lda);
    else
        Cdtrbr2d(g->ctxt, sc, " ", "L", "N", m, cols, a, lda, r, c);
    check_ran(what, t, before);
    if (me == root)
        check_scatter_sends(what, t, np, sync_before);
    long bad = check_bcast_data(a, layout, m, cols, lda, src, me == root);
    CHECK(bad == 0, "%s: %ld wrong", what, bad);
    free(a);
}

static void bcasts(const grid *g, char scope)
{
    int np = scope_size(g, scope), wanted;
    long pts[MAX_POINTS];
    int n = test_points(BCAST, np, sizeof(double), 1, pts, &wanted);
    CHECK(!network || np < 3 || wanted,
          "scope %c of %d: the default never chooses a long-message broadcast up to %zu bytes", scope, np,
          MAX_BYTES);
    for (int p = 0; p < n; p++) {
        int roots[3] = {0, 1 % np, np - 1};
        for (int k = 0; k < 3; k++) {
            if (k > 0 && roots[k] == roots[k - 1])
                continue;
            int layout = (p % 2 == 0) ? (p / 2 + k) % 3 : 0; /* inside a region: every layout in turn */
            bcast_one(g, scope, roots[k], pts[p], layout);
        }
    }
}

/* ZGSUM2D of exact values to member 'dest' (-1: everywhere), n complex,
 * along the default's choice or, if not NULL, along 'forced'. */
static void zsum_one(const grid *g, char scope, int dest, long n, const blx_algorithm *forced)
{
    char sc[] = {scope, 0}, what[128];
    int np = scope_size(g, scope), me = scope_me(g, scope), rd = -1, cd = -1;
    if (dest >= 0)
        coords(g, scope, dest, &rd, &cd);
    double *a = malloc((size_t)n * 2 * sizeof *a);
    int mine = g->myrow * g->npcol + g->mycol;
    for (long k = 0; k < 2 * n; k++)
        a[k] = val(mine, k);
    const blx_algorithm *t = forced ? forced : choice(dest < 0 ? ALLREDUCE : REDUCE, np, (size_t)n * 16, 1);
    snprintf(what, sizeof what, "zgsum2d scope %c dest %d, %ld elements, %s", scope, dest, n, t->name);
    unsigned long before = blx_algorithm_runs(t);
    Czgsum2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, rd, cd);
    check_ran(what, t, before);
    long bad = 0;
    for (long k = 0; k < 2 * n; k++) {
        double want = val(mine, k); /* a non-destination's A is lent read-only */
        if (dest < 0 || me == dest) {
            want = 0;
            for (int q = 0; q < np; q++)
                want += val(vpid_of(g, scope, q), k);
        }
        bad += a[k] != want;
    }
    CHECK(bad == 0, "%s: %ld wrong", what, bad);
    free(a);
}

/* DGSUM2D twice, the members entering at staggered times: the same bits. */
static void repeat_one(const grid *g, char scope, int dest, long n)
{
    char sc[] = {scope, 0};
    int np = scope_size(g, scope), me = scope_me(g, scope), rd = -1, cd = -1;
    if (dest >= 0)
        coords(g, scope, dest, &rd, &cd);
    double *a = malloc((size_t)n * sizeof *a), *first = malloc((size_t)n * sizeof *a);
    int mine = g->myrow * g->npcol + g->mycol;
    for (int run = 0; run < 2; run++) {
        for (long k = 0; k < n; k++)
            a[k] = val(mine, k) * 1.000000001 + 1e-7 * k;
        if (run == 1 && me % 3 == 1)
            nanosleep(&(struct timespec){0, 30000000}, NULL);
        Cdgsum2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, rd, cd);
        if (run == 0)
            memcpy(first, a, (size_t)n * sizeof *a);
    }
    if (dest < 0 || me == dest)
        CHECK(memcmp(first, a, (size_t)n * sizeof *a) == 0,
              "dgsum2d scope %c dest %d (%d members) not repeatable", scope, dest, np);
    free(a);
    free(first);
}

/* DGAMX2D of n doubles, with locations (located) or without: every value
 * and location against the spec's rule. */
static void amx_one(const grid *g, char scope, int dest, long n, int located)
{
    char sc[] = {scope, 0}, what[128];
    int np = scope_size(g, scope), me = scope_me(g, scope), rd = -1, cd = -1;
    if (dest >= 0)
        coords(g, scope, dest, &rd, &cd);
    double *a = malloc((size_t)n * sizeof *a);
    int *ra = located ? malloc((size_t)n * sizeof *ra) : NULL,
        *ca = located ? malloc((size_t)n * sizeof *ca) : NULL;
    for (long k = 0; k < n; k++)
        a[k] = val(g->myrow * g->npcol + g->mycol, k);
    size_t bytes = (size_t)n * (sizeof(double) + (located ? sizeof(int) : 0));
    const blx_algorithm *t = choice(dest < 0 ? ALLREDUCE : REDUCE, np, bytes, !located);
    snprintf(what, sizeof what, "dgamx2d scope %c dest %d, %ld elements, %s locations", scope, dest, n,
             located ? "with" : "without");
    unsigned long before = blx_algorithm_runs(t);
    Cdgamx2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, ra, ca, located ? (int)n : -1, rd, cd);
    check_ran(what, t, before);
    long bad = 0;
    for (long k = 0; (dest < 0 || me == dest) && k < n; k++) {
        int best = -1; /* member with the largest |value|; ties: smaller distance, or larger value */
        for (int q = 0; q < np; q++) {
            double v = val(vpid_of(g, scope, q), k), b = best < 0 ? 0 : val(vpid_of(g, scope, best), k);
            int dq = dest < 0 ? q : (q - dest + np) % np, db = dest < 0 ? best : (best - dest + np) % np;
            int tie_wins = located ? dq < db : v > b;
            if (best < 0 || fabs(v) > fabs(b) || (fabs(v) == fabs(b) && tie_wins))
                best = q;
        }
        int br, bc;
        coords(g, scope, best, &br, &bc);
        bad += a[k] != val(vpid_of(g, scope, best), k);
        bad += located && (ra[k] != br || ca[k] != bc);
    }
    CHECK(bad == 0, "%s: %ld wrong", what, bad);
    free(a);
    free(ra);
    free(ca);
}

static void combines(const grid *g, char scope)
{
    int np = scope_size(g, scope), wanted;
    long pts[MAX_POINTS];
    for (enum op op = ALLREDUCE; op <= REDUCE; op++) {
        int dests[4] = {-1, 0, 1 % np, np - 1}, first = op == ALLREDUCE ? 0 : 1,
            last = op == ALLREDUCE ? 0 : 3;
        int n = test_points(op, np, 16, 1, pts, &wanted);
        CHECK(!network || np < 3 || wanted,
              "scope %c of %d: no %s chooses a long-message algorithm up to %zu bytes", scope, np,
              op_name[op], MAX_BYTES);
        for (int p = 0; p < n; p++)
            for (int d = first; d <= last; d++)
                if (d == first || dests[d] != dests[d - 1])
                    zsum_one(g, scope, dests[d], pts[p], NULL);
        n = test_points(op, np, 8, 1, pts, &wanted);
        for (int p = 0; p < n; p++)
            for (int d = first; d <= last; d++)
                if (d == first || dests[d] != dests[d - 1]) {
                    amx_one(g, scope, dests[d], pts[p], 0);
                    if (p == n - 1 || p % 3 == 2)
                        repeat_one(g, scope, dests[d], pts[p]);
                }
        /* with locations the vector cannot be cut: the choice must differ */
        const blx_algorithm *t = choice(op, np, MAX_BYTES / 12 * 12, 0);
        CHECK(t != &blx_alg_rabenseifner, "located combines must not be cut: %s chosen", t->name);
        amx_one(g, scope, dests[last], (long)(MAX_BYTES / 12), 1);
    }
}

/* The sum to one along two trees on every scope of 3 or more members,
 * wherever the model would take it: on a grid whose default TOP is made to
 * take them for every sum to one (BLACS_ALGORITHM=reduce=two_tree), with the
 * shape of g.  On 4 members one process has the same parent in both trees,
 * which must get both trees' pieces in piece order.  Exact values, and the
 * same bits twice with staggered entries (each piece folds its children's
 * contributions in the tree's order, whatever order the pieces come in). */
static void two_tree_sums(const grid *forced, char scope)
{
    int np = scope_size(forced, scope), dests[3] = {0, 1, np - 1};
    long sizes[3] = {np + 1, 20011, (long)(MAX_BYTES / 16)}; /* complex elements */
    if (np < 3)
        return;
    const blx_algorithm *t = &blx_alg_two_tree;
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 3; d++) {
            zsum_one(forced, scope, dests[d], sizes[i], t);
            unsigned long before = blx_algorithm_runs(t);
            repeat_one(forced, scope, dests[d], sizes[i]); /* doubles: repeatable whatever the order */
            CHECK(blx_algorithm_runs(t) == before + 2,
                  "dgsum2d scope %c along two trees: ran %lu times, not 2", scope,
                  blx_algorithm_runs(t) - before);
        }
}

/* A broadcast only reads the source's matrix: a read-only one works. */
static void readonly_source(const grid *g)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = (size_t)1 << 20;
    char *raw = malloc(bytes + page);
    double *a = (double *)(((uintptr_t)raw + page - 1) / page * page);
    int n = (int)(bytes / sizeof(double)), me = g->mycol, src = g->npcol - 1;
    for (int k = 0; k < n; k++)
        a[k] = me == src ? k : -1;
    if (me == src) {
        CHECK(mprotect(a, bytes, PROT_READ) == 0, "mprotect: the source's matrix is not read-only");
        Cdgebs2d(g->ctxt, "Row", " ", n, 1, a, n);
        mprotect(a, bytes, PROT_READ | PROT_WRITE);
    } else {
        Cdgebr2d(g->ctxt, "Row", " ", n, 1, a, n, g->myrow, src);
    }
    long bad = 0;
    for (int k = 0; k < n; k++)
        bad += a[k] != k;
    CHECK(bad == 0, "broadcast from a read-only matrix: %ld wrong", bad);
    free(raw);
}

/* Leave-on-all results are bitwise equal on every process of the grid. */
static void coherence(const grid *g)
{
    long n = (300 << 10) / 8 + 7;
    double *a = malloc((size_t)n * sizeof *a);
    for (long k = 0; k < n; k++)
        a[k] = (k % 2 ? 1e16 : 1.0) * (1 + (g->myrow * 7 + g->mycol * 3 + k) % 5) *
               ((k + g->mycol) % 3 ? 1 : -1);
    Cdgsum2d(g->ctxt, "All", " ", (int)n, 1, a, (int)n, -1, -1);
    int np = g->nprow * g->npcol;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, g->myrow * g->npcol + g->mycol, &comm);
    double *all = malloc((size_t)n * np * sizeof *all);
    MPI_Allgather(a, (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, comm);
    for (int p = 1; p < np; p++)
        CHECK(memcmp(all, all + (size_t)p * n, (size_t)n * sizeof *a) == 0, "long sum differs on process %d",
              p);
    MPI_Comm_free(&comm);
    free(all);
    free(a);
}

/* Which algorithms ran, summed over the processes (printed by rank 0). */
static void report_runs(void)
{
    unsigned long mine[BLX_NALGORITHMS], sum[BLX_NALGORITHMS];
    for (int i = 0; i < BLX_NALGORITHMS; i++)
        mine[i] = blx_algorithm_runs(blx_algorithms[i]);
    MPI_Reduce(mine, sum, BLX_NALGORITHMS, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int i = 0; mt_rank == 0 && i < BLX_NALGORITHMS; i++)
        printf("t_longmsg: %-40s ran %lu times (over all processes)\n", blx_algorithms[i]->name, sum[i]);
}

/* Scopes of the same members in the same order run the same algorithms
 * on the same messages, whatever their letter: a 1 x P grid's row and
 * whole grid, a P x 1 grid's column, its whole grid and a 1 x P grid's
 * row are one.  Each such scope (size, and the stride between its
 * members' grid ranks) is tested once; it was 4 times on 8 processes. */
static int tested_before(const grid *g, char scope)
{
    static int done[8][2], n;
    int key[2] = {scope_size(g, scope), scope == 'C' ? g->npcol : 1};
    for (int i = 0; i < n; i++)
        if (done[i][0] == key[0] && done[i][1] == key[1])
            return 1;
    if (n < 8)
        done[n][0] = key[0], done[n][1] = key[1], n++;
    return 0;
}

int main(int argc, char **argv)
{
    network = argc > 1 && strcmp(argv[1], "network") == 0;
    if (network) /* read when the grids are made */
        setenv("BLACS_MODEL", NETWORK_MODEL, 1);
    mpitest_start();
    mt_grid grids[8];
    int ng = mpitest_grids(mt_size, grids);
    for (int gi = 0; gi < ng; gi++) {
        if (grids[gi].p * grids[gi].q != mt_size && gi > 0)
            continue; /* keep it short: the full grid, plus the first shape */
        grid g;
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "Row", grids[gi].p, grids[gi].q);
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        grid forced = g;
        forced.ctxt = mpitest_grid_forcing("reduce=two_tree", grids[gi].p, grids[gi].q);
        int member = g.ctxt >= 0;
        model = member ? &blx_ctx_find(g.ctxt)->model : NULL;
        for (const char *s = "RCA"; member && *s; s++) {
            if (scope_size(&g, *s) == 1 || tested_before(&g, *s))
                continue; /* nothing runs on a scope of one; one like it ran */
            bcasts(&g, *s);
            combines(&g, *s);
            two_tree_sums(&forced, *s);
        }
        if (member && g.nprow == 1)
            readonly_source(&g);
        MPI_Barrier(MPI_COMM_WORLD);
        if (member && grids[gi].p * grids[gi].q == mt_size)
            coherence(&g);
        if (member) {
            Cblacs_gridexit(g.ctxt);
            Cblacs_gridexit(forced.ctxt);
        }
    }
    blx_tree_cache_free(&trees);
    report_runs();
    return mpitest_finish("t_longmsg");
}
