/*
 * test/unit/test_explain.c - the default TOP tells what it weighs
 * (blx_route_in.explain, which topo_table --explain prints): on scopes of
 * one node and of several, broadcasts and both combines, sizes from 8 B to
 * 8 MiB,
 *   - the candidate it reports cheapest among the call's own (depth 1;
 *     the first on a tie) is the route it returns;
 *   - a scope over nodes reports the two levels with the choices their
 *     cost made beneath (depth 2: a node's members, the nodes' leaders),
 *     and a sum to all that gathers, the broadcast that spreads it, priced
 *     as the run spreads it (one of ours, even where MPI's was measured
 *     faster);
 *   - depth is back to 0 after the call, and the choice is the same as
 *     without the hook (no cache in either: every choice weighed).
 */
#include <stdlib.h>
#include <string.h>

#include "../../topologies/nodes.h"
#include "../../topologies/topology.h"
#include "check.h"

typedef struct {
    blx_explain x;
    blx_route best; /* the cheapest at depth 1, the first on a tie */
    double best_cost;
    int top, deep, deep_np_node, deep_np_leaders, spread, spread_mpi;
    int np;
} seen;

static void weighed(blx_explain *x, blx_coll op, const blx_route_in *in, const blx_route *r, double cost)
{
    seen *s = (seen *)x;
    CHECK(x->depth >= 1, "a candidate weighed at depth %d", x->depth);
    if (x->depth == 1) {
        if (s->top++ == 0 || cost < s->best_cost)
            s->best = *r, s->best_cost = cost;
        return;
    }
    s->deep++;
    s->deep_np_node |= in->np < s->np && in->np > 1;
    s->deep_np_leaders |= in->np < s->np;
    s->spread |= op == BLX_BCAST;
    s->spread_mpi |= op == BLX_BCAST && r->alg == &blx_alg_mpi;
}

static void one(int np, int nodes, blx_coll op, size_t bytes)
{
    int id[64], rank[64];
    for (int k = 0; k < np; k++)
        id[k] = k / ((np + nodes - 1) / nodes), rank[k] = k;
    blx_model on = blx_model_default(), off = blx_model_network(&on);
    blx_nodes *n = blx_nodes_build(np, id, rank, &on, &off);
    blx_model m = n->nn == 1 ? on : blx_model_across(&off, n->most);
    blx_tree_cache trees = {0};
    seen s = {{weighed, 0}, {0}, 0, 0, 0, 0, 0, 0, 0, np};
    blx_route_in in = {np, bytes, op == BLX_ALLREDUCE, 1, 1, 1, &m, &trees, NULL, NULL, n, 0, NULL, 8, &s.x};
    blx_route r, plain;
    int rc = op == BLX_BCAST ? blx_route_bcast(&r, ' ', &in) : blx_route_combine(&r, ' ', &in);
    in.explain = NULL;
    rc |= op == BLX_BCAST ? blx_route_bcast(&plain, ' ', &in) : blx_route_combine(&plain, ' ', &in);
    const char *what = op == BLX_BCAST ? "broadcast" : op == BLX_REDUCE ? "combine to one" : "combine to all";
    CHECK(rc == 0, "%s of %zu B on %d over %d nodes: no route", what, bytes, np, nodes);
    CHECK(s.top > 1, "%s of %zu B on %d over %d nodes: %d candidates told", what, bytes, np, nodes, s.top);
    CHECK(s.best.alg == r.alg && s.best.param == r.param,
          "%s of %zu B on %d over %d nodes: told %s:%d cheapest, chose %s:%d", what, bytes, np, nodes,
          s.best.alg->name, s.best.param, r.alg->name, r.param);
    CHECK(plain.alg == r.alg && plain.param == r.param, "%s of %zu B on %d: the hook changed the choice",
          what, bytes, np);
    CHECK(s.x.depth == 0, "%s: depth %d after the call", what, s.x.depth);
    if (nodes > 1 && np > nodes)
        CHECK(s.deep > 0 && s.deep_np_node && s.deep_np_leaders,
              "%s of %zu B on %d over %d nodes: the levels' choices were not told", what, bytes, np, nodes);
    blx_tree_cache_free(&trees);
    blx_nodes_free(n);
}

/* A sum to all that gathers then broadcasts: the spread is weighed beneath. */
static void spread(void)
{
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    seen s = {{weighed, 0}, {0}, 0, 0, 0, 0, 0, 0, 0, 16};
    blx_route_in in = {16, 64, 1, 0, 1, 1, &m, &trees, NULL, NULL, NULL, 0, NULL, 8, &s.x};
    blx_route r;
    blx_route_combine(&r, ' ', &in);
    CHECK(s.spread, "a sum to all of 64 B on 16: no broadcast weighed beneath its gathering candidates");
    /* MPI's broadcast measured 100 times faster, its combines not measured: the spread is
       still priced as it runs (run.c: one of ours), not as MPI's */
    blx_mpi_costs mpi = {1, {{0, 16, 1, 1, {64}, {0.01}}}};
    s = (seen){{weighed, 0}, {0}, 0, 0, 0, 0, 0, 0, 0, 16};
    in.mpi = 1, in.mpi_costs = &mpi;
    blx_route_combine(&r, ' ', &in);
    CHECK(s.spread && !s.spread_mpi, "a sum to all of 64 B on 16: the spread was priced as MPI's broadcast");
    CHECK(r.alg != &blx_alg_mpi, "a sum to all of 64 B on 16: MPI's, which nothing measured");
    blx_tree_cache_free(&trees);
}

int main(void)
{
    static const size_t sizes[] = {8, 4096, 65536, 1 << 20, 8 << 20};
    static const int shapes[][2] = {{2, 1}, {5, 1}, {16, 1}, {16, 2}, {64, 4}, {48, 3}, {64, 8}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int op = BLX_BCAST; op < BLX_NCOLL; op++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
                one(shapes[i][0], shapes[i][1], (blx_coll)op, sizes[z]);
    spread();
    printf("test_explain: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
