/*
 * test/mpi/t_nodes.c - scopes that span nodes (topologies/nodes.h) and the
 * two-level algorithms (topologies/two_level.c), on one machine split into
 * "nodes" by BLACS_NODES (blacs/machine.c).
 *
 * For each placement (consecutive grid processes together; dealt round
 * robin) and each grid shape: every scope's nodes are those the placement
 * gives its members (counted, numbered by first member, the largest node's
 * size) and the bits of a member's index that cross nodes.  On every
 * scope of a power of two members, hypercube broadcasts ('H') from every
 * source along the tree of those bits.  On every scope that spans nodes with two or more of its members
 * on one: broadcasts from every source, sums to every destination and to
 * all, and absolute maxima with their locations, forced to run in two
 * levels (BLACS_ALGORITHM): the two-level run counter must count each one,
 * every value must be right, a sum to all must give every member the same
 * bits, and the same sum again the same bits.  The same for sums to all
 * forced into slices (node_slices.c), of three types, which must run so
 * exactly where every node holds the same power of two of the scope's
 * members.  Sums to each member and to all forced into Rabenseifner's
 * halving of radix 2, 4 and 8, which takes the dimensions inside a node
 * first: right, the same bits everywhere, and radix 4 or 8 run as such.  Then the default ' ' alone, on a network that BLACS_MODEL makes
 * slow, must choose two levels for a long sum to all (in slices where it
 * can), and on a fast one must not.
 */
#include <math.h>
#include <unistd.h>

#include "../../blacs/internal.h"
#include "mpitest.h"

#define N 3001 /* doubles: cut into pieces by the algorithms that cut */

static int grid(const char *algorithms, int p, int q)
{
    return mpitest_grid_forcing(algorithms != NULL ? algorithms : "bcast=default", p, q);
}

/* Node of grid process r under BLACS_NODES = count[:cyclic]. */
static int node_of(int r, int np, int count, int cyclic)
{
    return cyclic ? r % count : r / ((np + count - 1) / count);
}

static void check_scope(const blx_scope *s, int np, int count, int cyclic)
{
    const blx_nodes *n = s->nodes;
    int first[64], size[64], nn = 0, most = 0;
    for (int k = 0; k < s->np; k++) {
        int id = node_of(s->first + k * s->stride, np, count, cyclic), j = 0;
        while (j < nn && node_of(s->first + first[j] * s->stride, np, count, cyclic) != id)
            j++;
        if (j == nn)
            first[nn] = k, size[nn++] = 0;
        size[j]++;
        most = size[j] > most ? size[j] : most;
        CHECK(n->node[k] == j, "scope %d member %d: node %d, expected %d", s->id, k, n->node[k], j);
    }
    CHECK(n->nn == nn && n->most == most, "scope %d: %d nodes, %d at most; expected %d, %d", s->id, n->nn,
          n->most, nn, most);
    for (int i = 0; i < s->np; i++)
        CHECK(n->order[n->pos[i]] == i, "scope %d: member %d out of place", s->id, i);
    int cross = 0; /* the bits b for which most members k and k ^ b are on different nodes */
    for (int b = 1; b < s->np; b <<= 1) {
        int pairs = 0, apart = 0;
        for (int k = 0; k < s->np; k++)
            if ((k ^ b) < s->np)
                pairs++, apart += n->node[k] != n->node[k ^ b];
        cross |= 2 * apart > pairs ? b : 0;
    }
    CHECK(n->cross == cross, "scope %d: crossing bits %#x, expected %#x", s->id, n->cross, cross);
}

static double value(int who, int i) { return (double)((who * 7919 + i * 104729) % 10007) / 64.0 + who; }

/* The grid coordinates of scope member k. */
static void coords(int ctxt, const blx_scope *s, int k, int *pr, int *pc)
{
    Cblacs_pcoord(ctxt, s->first + k * s->stride, pr, pc);
}

/* A broadcast along top from member root of the scope, checked everywhere. */
static void bcast_from(int ctxt, const char *scope, const char *top, const blx_scope *s, int root)
{
    static double a[N];
    int pr, pc, bad = 0;
    coords(ctxt, s, root, &pr, &pc);
    for (int i = 0; i < N; i++)
        a[i] = s->me == root ? value(1000 + root, i) : -1;
    if (s->me == root)
        Cdgebs2d(ctxt, scope, top, N, 1, a, N);
    else
        Cdgebr2d(ctxt, scope, top, N, 1, a, N, pr, pc);
    for (int i = 0; i < N; i++)
        bad += a[i] != value(1000 + root, i);
    CHECK(bad == 0, "scope %s: broadcast '%s' from member %d wrong in %d places", scope, top, root, bad);
}

/* Broadcast and sum to one from and to each member; returns the operations. */
static int to_each(int ctxt, const char *scope, const blx_scope *s)
{
    static double a[N];
    int me = s->me;
    for (int root = 0; root < s->np; root++) {
        int pr, pc, bad = 0;
        coords(ctxt, s, root, &pr, &pc);
        bcast_from(ctxt, scope, " ", s, root);
        for (int i = 0; i < N; i++)
            a[i] = value(me, i);
        Cdgsum2d(ctxt, scope, " ", N, 1, a, N, pr, pc);
        for (int i = 0; i < N && me == root; i++) {
            double want = 0;
            for (int k = 0; k < s->np; k++)
                want += value(k, i);
            bad += fabs(a[i] - want) > 1e-12 * fabs(want);
        }
        CHECK(bad == 0, "scope %s: sum to member %d wrong in %d places", scope, root, bad);
    }
    return 2 * s->np;
}

/* Hypercube broadcasts ('H') from each member of a scope of a power of two
 * members: right everywhere, run by the hypercube, along the tree of the
 * scope's crossing bits (its cache holds that tree, crossing dimension
 * first where the scope spans nodes, hypercube.c). */
static void hypercube_each(int ctxt, const char *scope, const blx_scope *s)
{
    if (s->np < 2 || (s->np & (s->np - 1)) != 0)
        return;
    unsigned long before = blx_algorithm_runs(&blx_alg_hypercube);
    for (int root = 0; root < s->np; root++)
        bcast_from(ctxt, scope, "H", s, root);
    unsigned long ran = blx_algorithm_runs(&blx_alg_hypercube) - before;
    CHECK(ran == (unsigned long)s->np, "scope %s: %lu of %d 'H' broadcasts ran the hypercube", scope, ran,
          s->np);
    int cross = s->nodes->nn > 1 ? s->nodes->cross : 0, found = 0;
    for (int i = 0; i < BLX_TREE_CACHE; i++) {
        const struct blx_tree_slot *t = &s->trees.slot[i];
        if (t->shape != blx_alg_hypercube.tree || t->tree == NULL)
            continue;
        int first = blx_tree_kids(t->tree, 0)[0];
        found += t->param == cross && first == (cross != 0 ? (cross & -cross) : 1);
    }
    CHECK(found == 1, "scope %s (%d nodes): no hypercube tree of crossing bits %#x sending along them first",
          scope, s->nodes->nn, cross);
}

/* Sums to all (twice: the same bits; everywhere the same bits) and an
 * absolute maximum with its locations; returns the operations. */
static int to_all(int ctxt, const char *scope, const blx_scope *s)
{
    static double a[N], b[N], c[N];
    int ra[N], ca[N], me = s->me, bad = 0;
    for (int i = 0; i < N; i++)
        a[i] = b[i] = value(me, i);
    Cdgsum2d(ctxt, scope, " ", N, 1, a, N, -1, -1);
    Cdgsum2d(ctxt, scope, " ", N, 1, b, N, -1, -1);
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int k = 0; k < s->np; k++)
            want += value(k, i);
        bad += fabs(a[i] - want) > 1e-12 * fabs(want);
    }
    CHECK(bad == 0, "scope %s: sum to all wrong in %d places", scope, bad);
    CHECK(memcmp(a, b, sizeof a) == 0, "scope %s: the same sum to all twice gave other bits", scope);
    memcpy(c, a, sizeof a);
    MPI_Bcast(c, N, MPI_DOUBLE, 0, s->comm);
    CHECK(memcmp(a, c, sizeof a) == 0, "scope %s: the sum to all is not the same bits everywhere", scope);
    for (int i = 0; i < N; i++) /* a ring gathers, and spreads along the forced broadcast: two levels */
        b[i] = value(me, i);
    Cdgsum2d(ctxt, scope, "I", N, 1, b, N, -1, -1);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += fabs(b[i] - a[i]) > 1e-12 * fabs(a[i]);
    CHECK(bad == 0, "scope %s: the ring's sum to all wrong in %d places", scope, bad);
    for (int i = 0; i < N; i++)
        a[i] = i % s->np == me ? -1000.0 - i : value(me, i) - 500;
    Cdgamx2d(ctxt, scope, " ", N, 1, a, N, ra, ca, N, -1, -1);
    bad = 0;
    for (int i = 0; i < N; i++) {
        int pr, pc;
        coords(ctxt, s, i % s->np, &pr, &pc);
        bad += a[i] != -1000.0 - i || ra[i] != pr || ca[i] != pc;
    }
    CHECK(bad == 0, "scope %s: absolute maximum or its location wrong in %d places", scope, bad);
    return 3;
}

/* Every operation on the scope, forced to two levels: each must run so
 * where the scope has two levels, none where it has not. */
static void run_scope(int ctxt, const char *scope, const blx_scope *s)
{
    unsigned long before = blx_algorithm_runs(&blx_alg_two_level);
    int ops = to_each(ctxt, scope, s) + to_all(ctxt, scope, s);
    unsigned long ran = blx_algorithm_runs(&blx_alg_two_level) - before;
    if (blx_nodes_two_levels(s->nodes))
        CHECK(ran == (unsigned long)ops, "scope %s: %lu of %d operations ran in two levels", scope, ran, ops);
    else
        CHECK(ran == 0, "scope %s (%d nodes, at most %d members on one): %lu operations ran in two levels",
              scope, s->nodes->nn, s->nodes->most, ran);
}

/* Sums to all forced into slices (node_slices.c), of doubles, integers and
 * double complex: each right, the same bits everywhere and again; the
 * slices' run counter counts each where every node holds the same power of
 * two of the scope's members, none elsewhere (it falls back). */
static void slices_scope(int ctxt, const char *scope, const blx_scope *s)
{
    static double a[N], b[N], z[2 * N];
    static int ia[N];
    int me = s->me, bad = 0;
    for (int i = 0; i < N; i++) {
        a[i] = b[i] = z[2 * i] = value(me, i);
        z[2 * i + 1] = -0.5 * value(me, i + 1);
        ia[i] = me * 1000 + i;
    }
    unsigned long before = blx_algorithm_runs(&blx_alg_node_slices);
    Cdgsum2d(ctxt, scope, " ", N, 1, a, N, -1, -1);
    Cdgsum2d(ctxt, scope, " ", N, 1, b, N, -1, -1);
    Cigsum2d(ctxt, scope, " ", N, 1, ia, N, -1, -1);
    Czgsum2d(ctxt, scope, " ", N, 1, z, N, -1, -1);
    unsigned long ran = blx_algorithm_runs(&blx_alg_node_slices) - before;
    for (int i = 0; i < N; i++) {
        double want = 0, wantz = 0;
        for (int k = 0; k < s->np; k++)
            want += value(k, i), wantz += -0.5 * value(k, i + 1);
        bad += fabs(a[i] - want) > 1e-12 * want || fabs(z[2 * i] - want) > 1e-12 * want ||
               fabs(z[2 * i + 1] - wantz) > 1e-12 * fabs(wantz) ||
               ia[i] != 1000 * s->np * (s->np - 1) / 2 + s->np * i;
    }
    CHECK(bad == 0, "scope %s: sums to all in slices wrong in %d places", scope, bad);
    CHECK(memcmp(a, b, sizeof a) == 0, "scope %s: the same sum in slices twice gave other bits", scope);
    MPI_Bcast(b, N, MPI_DOUBLE, 0, s->comm);
    CHECK(memcmp(a, b, sizeof a) == 0, "scope %s: the sum in slices is not the same bits everywhere", scope);
    unsigned long want_runs = blx_nodes_sliceable(s->nodes) ? 4 : 0;
    CHECK(ran == want_runs, "scope %s (%d nodes, at most %d on one): %lu sums ran in slices, expected %lu",
          scope, s->nodes->nn, s->nodes->most, ran, want_runs);
}

/* Sums to each member and to all forced into Rabenseifner's algorithm of
 * a radix (2, 4 or 8), whose halving takes the dimensions inside a node
 * first (rabenseifner.c; the order itself: test/unit/test_nodes.c): right
 * everywhere, the same bits everywhere, each run so; levels of radix 4 or
 * 8 ran where the radix and the scope allow them, and only there. */
static void halving_scope(int ctxt, const char *scope, const blx_scope *s, int radix)
{
    static double a[N], b[N];
    unsigned long before = blx_algorithm_runs(&blx_alg_rabenseifner), groups = blx_rabenseifner_groups();
    unsigned long folded = blx_fold_planned();
    to_each(ctxt, scope, s);
    int me = s->me, bad = 0;
    for (int i = 0; i < N; i++)
        a[i] = value(me, i);
    Cdgsum2d(ctxt, scope, " ", N, 1, a, N, -1, -1);
    unsigned long ran = blx_algorithm_runs(&blx_alg_rabenseifner) - before;
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int k = 0; k < s->np; k++)
            want += value(k, i);
        bad += fabs(a[i] - want) > 1e-12 * fabs(want);
    }
    CHECK(bad == 0, "scope %s, radix %d: sum to all by halving wrong in %d places", scope, radix, bad);
    memcpy(b, a, sizeof a);
    MPI_Bcast(b, N, MPI_DOUBLE, 0, s->comm);
    CHECK(memcmp(a, b, sizeof a) == 0,
          "scope %s, radix %d: the sum by halving is not the same bits everywhere", scope, radix);
    unsigned long want_runs = s->np > 1 ? (unsigned long)s->np + 1 : 0;
    CHECK(ran == want_runs, "scope %s: %lu sums ran by halving, expected %lu", scope, ran, want_runs);
    /* a level of radix 4 or 8 takes two dimensions or more, all on a node or all across nodes */
    int nlev, p = blx_pof2_floor(s->np, &nlev), dim[32], can = 0, planned = s->nodes->nn > 1 && p < s->np;
    for (int root = 0; root < s->np && radix > 2; root++) {
        blx_fold f;
        int plan = planned && blx_fold_plan(&f, s->nodes, root, s->np) == 0;
        int near = blx_halving_order(s->nodes, root, p, plan ? f.rel : NULL, dim);
        can |= near >= 2 || nlev - near >= 2;
        if (plan)
            blx_fold_free(&f);
    }
    /* over nodes, not a power of two: each sum's np - p folds by the plan */
    long folds = (long)(blx_fold_planned() - folded), sum = 0;
    MPI_Allreduce(&folds, &sum, 1, MPI_LONG, MPI_SUM, s->comm);
    CHECK(sum == (planned ? (long)want_runs * (s->np - p) : 0),
          "scope %s of %d over %d nodes: %ld vectors folded by the nodes' plan", scope, s->np, s->nodes->nn,
          sum);
    long mine = (long)(blx_rabenseifner_groups() - groups), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, s->comm);
    CHECK((all > 0) == can, "scope %s of %d over %d nodes, radix %d: %ld levels of radix 4 or 8 ran", scope,
          s->np, s->nodes->nn, radix, all);
}

/* Sums to all forced along the ring (ring_allreduce.c), which runs node by
 * node: right everywhere (N = 3001 doubles, blocks of unequal length), the
 * same bits everywhere and on a second run, and into a row of a 2 x N
 * matrix (LDA 2: packed and unpacked, the other row left as it was); it
 * ran once a sum on every scope of more than one member, whatever order
 * the nodes put its members in. */
static void ring_scope(int ctxt, const char *scope, const blx_scope *s)
{
    static double a[N], b[N], c[2 * N];
    unsigned long before = blx_algorithm_runs(&blx_alg_ring_allreduce);
    int me = s->me, bad = 0;
    for (int i = 0; i < N; i++)
        a[i] = b[i] = value(me, i), c[2 * i] = value(me, i), c[2 * i + 1] = -1;
    Cdgsum2d(ctxt, scope, " ", N, 1, a, N, -1, -1);
    Cdgsum2d(ctxt, scope, " ", N, 1, b, N, -1, -1);
    Cdgsum2d(ctxt, scope, " ", 1, N, c, 2, -1, -1);
    unsigned long ran = blx_algorithm_runs(&blx_alg_ring_allreduce) - before;
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int k = 0; k < s->np; k++)
            want += value(k, i);
        bad += fabs(a[i] - want) > 1e-12 * fabs(want) || c[2 * i] != a[i] || c[2 * i + 1] != -1;
    }
    CHECK(bad == 0, "scope %s: sum to all along the ring wrong in %d places", scope, bad);
    CHECK(memcmp(a, b, sizeof a) == 0, "scope %s: the same sum along the ring twice gave other bits", scope);
    MPI_Bcast(b, N, MPI_DOUBLE, 0, s->comm);
    CHECK(memcmp(a, b, sizeof a) == 0, "scope %s: the sum along the ring is not the same bits everywhere",
          scope);
    unsigned long want_runs = s->np > 1 ? 3 : 0;
    CHECK(ran == want_runs, "scope %s of %d over %d nodes: %lu sums ran along the ring, expected %lu", scope,
          s->np, s->nodes->nn, ran, want_runs);
}

static void placement(const char *nodes, int count, int cyclic)
{
    static const char *const names[BLX_NSCOPE] = {
        [BLX_SCOPE_ROW] = "Row", [BLX_SCOPE_COL] = "Column", [BLX_SCOPE_ALL] = "All"};
    mt_grid g[8];
    int ng = mpitest_grids(mt_size, g);
    setenv("BLACS_NODES", nodes, 1);
    for (int k = 0; k < ng; k++) {
        int ctxt = grid("bcast=two_level,reduce=two_level,allreduce=two_level", g[k].p, g[k].q);
        int sliced = grid("allreduce=node_slices", g[k].p, g[k].q);
        int halved = grid("reduce=rabenseifner,allreduce=rabenseifner", g[k].p, g[k].q);
        int by4 = grid("reduce=rabenseifner:4,allreduce=rabenseifner:4", g[k].p, g[k].q);
        int by8 = grid("reduce=rabenseifner:8,allreduce=rabenseifner:8", g[k].p, g[k].q);
        int ring = grid("allreduce=ring_allreduce", g[k].p, g[k].q);
        if (ctxt < 0)
            continue;
        blx_ctx *c = blx_ctx_find(ctxt);
        for (int s = 0; s < BLX_NSCOPE; s++) {
            check_scope(&c->scope[s], g[k].p * g[k].q, count, cyclic);
            run_scope(ctxt, names[s], &c->scope[s]);
            hypercube_each(ctxt, names[s], &c->scope[s]);
            slices_scope(sliced, names[s], &blx_ctx_find(sliced)->scope[s]);
            halving_scope(halved, names[s], &blx_ctx_find(halved)->scope[s], 2);
            halving_scope(by4, names[s], &blx_ctx_find(by4)->scope[s], 4);
            halving_scope(by8, names[s], &blx_ctx_find(by8)->scope[s], 8);
            ring_scope(ring, names[s], &blx_ctx_find(ring)->scope[s]);
        }
        Cblacs_gridexit(ctxt);
        Cblacs_gridexit(sliced);
        Cblacs_gridexit(halved);
        Cblacs_gridexit(by4);
        Cblacs_gridexit(by8);
        Cblacs_gridexit(ring);
    }
    unsetenv("BLACS_NODES");
}

/* Rabenseifner's radix 4 and 8 on one node, where every dimension may
 * join a level (placement() splits the grid into nodes). */
static void radix_sums(void)
{
    static const char *const names[BLX_NSCOPE] = {
        [BLX_SCOPE_ROW] = "Row", [BLX_SCOPE_COL] = "Column", [BLX_SCOPE_ALL] = "All"};
    mt_grid g[8];
    int ng = mpitest_grids(mt_size, g);
    for (int k = 0; k < ng; k++)
        for (int radix = 4; radix <= 8; radix *= 2) {
            char forced[96];
            snprintf(forced, sizeof forced, "reduce=rabenseifner:%d,allreduce=rabenseifner:%d", radix, radix);
            int ctxt = grid(forced, g[k].p, g[k].q);
            if (ctxt < 0)
                continue;
            for (int s = 0; s < BLX_NSCOPE; s++)
                halving_scope(ctxt, names[s], &blx_ctx_find(ctxt)->scope[s], radix);
            Cblacs_gridexit(ctxt);
        }
}

/* The default alone: two levels for a long sum to all where the network is
 * slow (in slices where the nodes allow them), one level where it is as
 * fast as the node. */
static void default_choice(const char *model, int want_levels)
{
    static double a[1 << 17];
    setenv("BLACS_NODES", "2", 1);
    setenv("BLACS_MODEL", model, 1);
    int ctxt = grid(NULL, 1, mt_size);
    unsetenv("BLACS_NODES");
    unsetenv("BLACS_MODEL");
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        a[i] = mt_rank + (double)i;
    unsigned long before = blx_algorithm_runs(&blx_alg_node_slices);
    unsigned long before2 = blx_algorithm_runs(&blx_alg_two_level);
    unsigned long before3 = blx_algorithm_runs(&blx_alg_rabenseifner);
    Cdgsum2d(ctxt, "All", " ", (int)(sizeof a / sizeof a[0]), 1, a, (int)(sizeof a / sizeof a[0]), -1, -1);
    unsigned long ran = blx_algorithm_runs(&blx_alg_node_slices) - before;
    unsigned long ran2 = blx_algorithm_runs(&blx_alg_two_level) - before2;
    unsigned long halved = blx_algorithm_runs(&blx_alg_rabenseifner) - before3;
    double want = (double)mt_size * (mt_size - 1) / 2 + 5.0 * mt_size;
    CHECK(a[5] == want, "BLACS_MODEL=%s: sum %g, expected %g", model, a[5], want);
    /* slices where every node holds the same power of two, or halving,
     * whose first levels on such nodes are the slices' own (the same
     * messages, priced alike); else leaders, or halving where its fold
     * stays on the nodes (exchange.c: then its first levels are on the
     * nodes too, and the network carries no more than between leaders) */
    const blx_nodes *nodes = blx_ctx_find(ctxt)->scope[BLX_SCOPE_ALL].nodes;
    int sliced = want_levels && blx_nodes_sliceable(nodes), home = want_levels && !sliced;
    blx_fold f;
    if (home && blx_fold_plan(&f, nodes, 0, mt_size) == 0) {
        for (int v = f.p; v < mt_size; v++)
            home &= nodes->node[f.rel[v]] == nodes->node[f.rel[f.pair[v]]];
        blx_fold_free(&f);
    }
    int levels_ok = ran == 0 && (ran2 == (unsigned long)want_levels || (home && halved == 1 && ran2 == 0));
    CHECK(sliced ? (ran == 1 || halved == 1) && ran2 == 0 : levels_ok,
          "BLACS_MODEL=%s: %lu sums in slices, %lu by halving, %lu in two levels; expected %s", model, ran,
          halved, ran2,
          sliced        ? "one in slices or by halving"
          : home        ? "one in two levels or by halving, its fold on the nodes"
          : want_levels ? "one in two levels"
                        : "one level");
    int n = (int)(sizeof a / sizeof a[0]);
    before = blx_algorithm_runs(&blx_alg_two_level);
    if (mt_rank == 0)
        Cdgebs2d(ctxt, "All", " ", n, 1, a, n);
    else
        Cdgebr2d(ctxt, "All", " ", n, 1, a, n, 0, 0);
    ran = blx_algorithm_runs(&blx_alg_two_level) - before;
    CHECK(ran == (unsigned long)want_levels, "BLACS_MODEL=%s: %lu broadcasts in two levels, expected %d",
          model, ran, want_levels);
    /* a ring's sum to all gathers at one process, and its result spreads
     * along the broadcast the default chooses */
    for (const char *top = "IS"; *top; top++) {
        char t[2] = {*top, '\0'};
        for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
            a[i] = mt_rank + (double)i;
        Cdgsum2d(ctxt, "All", t, (int)(sizeof a / sizeof a[0]), 1, a, (int)(sizeof a / sizeof a[0]), -1, -1);
        CHECK(a[5] == want, "BLACS_MODEL=%s, TOP '%s': sum %g, expected %g", model, t, a[5], want);
    }
    Cblacs_gridexit(ctxt);
}

/* x is above 0 and has at most two significant digits (the probe rounds so). */
static int two_digits(double x)
{
    double d = x > 0 ? x / pow(10, floor(log10(x)) - 1) : 0.5;
    return x > 0 && fabs(d - round(d)) < 1e-6;
}

/* With no BLACS_MODEL, a grid over nodes measures the network (once a job,
 * blacs/machine.c): every member gets process 0's values, each rounded to
 * two significant digits, not the defaults compiled in.  Where process 0
 * has a neighbour on its node (4 or more processes as 2 "nodes"), the
 * node's alpha and beta too: every member's node model has process 0's
 * measurement (alpha raised to the crowded alpha where processes
 * outnumber processors), once a job; with one process a node, nothing is
 * measured there. */
static void learned(void)
{
    setenv("BLACS_NODES", "2", 1);
    int ctxt = grid(NULL, 1, mt_size);
    unsetenv("BLACS_NODES");
    const blx_model *off = &blx_ctx_find(ctxt)->scope[BLX_SCOPE_ALL].nodes->off;
    double q[2] = {off->alpha, off->beta}, q0[2] = {q[0], q[1]};
    MPI_Bcast(q0, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 2; i++)
        CHECK(two_digits(q[i]), "the network measured: %s = %g", i ? "beta" : "alpha", q[i]);
    CHECK(off->alpha != BLX_MODEL_NET_ALPHA || off->beta != BLX_MODEL_NET_BETA,
          "the network's model is the default, not measured");
    CHECK(q[0] == q0[0] && q[1] == q0[1], "the network's model differs from process 0's");
    Cblacs_gridexit(ctxt);

    int procs = blx_machine_node_processes(), cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int again = 0; again < 2; again++) { /* the second grid measures nothing new */
        double measured = blx_machine_node_alpha(), first = measured;
        setenv("BLACS_NODES", "2", 1);
        ctxt = grid(NULL, 1, mt_size);
        unsetenv("BLACS_NODES");
        measured = blx_machine_node_alpha();
        double beta_measured = blx_machine_node_beta();
        MPI_Bcast(&measured, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(&beta_measured, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        double alpha = blx_ctx_find(ctxt)->model.alpha, beta = blx_ctx_find(ctxt)->model.beta;
        if (mt_size >= 3) { /* two nodes of consecutive processes: process 0 has a neighbour */
            CHECK(two_digits(measured), "the node's alpha measured: %g", measured);
            CHECK(alpha == fmax(measured, procs > cpus && cpus > 0 ? BLX_MODEL_OVERSUBSCRIBED_ALPHA : 0),
                  "the node's model has alpha %g, process 0 measured %g", alpha, measured);
            CHECK(!again || mt_rank != 0 || measured == first, "the node's alpha measured again: %g, then %g",
                  first, measured);
            /* 0: 1 MiB came back no slower than 8 bytes (a loaded machine: the
             * small round trip waited for a processor), and the default's stays */
            CHECK(beta_measured == 0 ? beta == blx_model_for_node(procs, cpus).beta
                                     : two_digits(beta_measured) && beta == beta_measured,
                  "the node's model has beta %g, process 0 measured %g", beta, beta_measured);
        } else {
            CHECK(measured == 0 && beta_measured == 0,
                  "one process a node, yet the node's alpha and beta were measured: %g, %g", measured,
                  beta_measured);
        }
        Cblacs_gridexit(ctxt);
    }
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    mpitest_start();
    learned();
    radix_sums();
    placement("2", 2, 0);
    placement("2:cyclic", 2, 1);
    if (mt_size >= 6)
        placement("3", 3, 0);
    if (mt_size >= 4) {
        default_choice("net.alpha=1e-5,net.beta=1e-8", 1);
        default_choice("net.alpha=1e-7,net.beta=1e-11", 0);
    }
    return mpitest_finish("t_nodes");
}
