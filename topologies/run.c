/*
 * topologies/run.c - running a route on a transfer: its trees from the
 * scope's cache, its plan from the model, the algorithm's functions, and
 * the broadcast that spreads a gathered leave-on-all result; and the run
 * counters, one per row of the algorithm table.
 */
#include "../base/report.h"
#include "topology.h"

static unsigned long runs[BLX_NALGORITHMS];

unsigned long blx_algorithm_runs(const blx_algorithm *a)
{
    int i = blx_algorithm_index(a);
    return i < 0 ? 0 : runs[i];
}

static void count_run(const blx_algorithm *a)
{
    int i = blx_algorithm_index(a);
    if (i >= 0)
        runs[i]++;
}

/* The route's trees for x's scope, from the scope's cache, and the plan. */
static void prepare(const blx_route *r, blx_xfer *x, size_t unit)
{
    x->tree = x->tree2 = NULL;
    x->param = r->param;
    x->plan = (blx_plan){x->bytes + 1, x->model->window, 0}; /* whole */
    blx_tree_shape shapes[2] = {r->shape, r->shape2};
    const blx_tree **trees[2] = {&x->tree, &x->tree2};
    for (int i = 0; i < 2; i++) {
        if (shapes[i] == NULL)
            continue;
        *trees[i] = blx_tree_cached(x->trees, x->ep.np, shapes[i], r->key, r->param);
        if (*trees[i] == NULL)
            blx_fatal(x->ep.ctxt, x->ep.routine, "cannot build the %s tree for %d processes (out of memory?)",
                      r->alg->title, x->ep.np);
    }
    if (r->alg->plan != NULL)
        x->plan = r->alg->plan(x);
    else if (x->tree != NULL)
        x->plan = blx_model_tree_plan(x->model, x->tree, x->bytes, unit ? unit : 1);
}

static void run_bcast(const blx_route *r, blx_xfer *x)
{
    x->ep.whole = x->bytes;
    prepare(r, x, 1);
    r->alg->bcast(x);
}

/* ---- two levels (two_level.c) ---- */

/* The default's route for one level of x's operation (a level may cut
 * the vector where it has an element for each of the level's members). */
static blx_route level_route(const blx_xfer *level, const blx_xfer *x, blx_coll op)
{
    blx_route_in in = {.np = level->ep.np,
                       .bytes = level->bytes,
                       .leave_on_all = op == BLX_ALLREDUCE,
                       .splittable = x->unit != 0,
                       .unit = x->unit,
                       .model = level->model,
                       .trees = level->trees,
                       .routes = level->routes};
    blx_route r;
    if (op == BLX_BCAST)
        blx_route_bcast(&r, ' ', &in);
    else
        blx_route_combine(&r, ' ', &in);
    return r;
}

static void levels_bcast(blx_xfer *x)
{
    const blx_nodes *n = x->nodes;
    int leader = blx_nodes_leader(n, n->node[x->ep.me], x->root);
    if (leader == x->ep.me) {
        blx_xfer a = blx_level_leaders(x, x->root);
        blx_route r = level_route(&a, x, BLX_BCAST);
        blx_bcast_run(&r, &a);
    }
    blx_xfer o = blx_level_node(x, leader);
    if (o.ep.np > 1) {
        blx_route r = level_route(&o, x, BLX_BCAST);
        blx_bcast_run(&r, &o);
    }
}

static void levels_combine(blx_xfer *x)
{
    const blx_nodes *n = x->nodes;
    int leader = blx_nodes_leader(n, n->node[x->ep.me], x->root), lead = leader == x->ep.me;
    if (lead && x->readonly) /* it folds its node's contributions into its own */
        blx_xfer_own(x);
    blx_xfer o = blx_level_node(x, leader);
    o.leave_on_all = 0;
    if (o.ep.np > 1) {
        blx_route r = level_route(&o, x, BLX_REDUCE);
        blx_combine_run(&r, &o);
    }
    if (lead) {
        blx_xfer a = blx_level_leaders(x, x->root);
        blx_route r = level_route(&a, x, x->leave_on_all ? BLX_ALLREDUCE : BLX_REDUCE);
        blx_combine_run(&r, &a);
    }
    o = blx_level_node(x, leader);
    if (x->leave_on_all && o.ep.np > 1) { /* every node from its leader */
        o.ep.tag = x->spread_tag;
        blx_route r = level_route(&o, x, BLX_BCAST);
        blx_bcast_run(&r, &o);
    }
}

/* A sum to all in slices (node_slices.c): the node's reduce-scatter, each
 * piece summed across the nodes, the node's allgather. */
static void slices_combine(const blx_xfer *x)
{
    const blx_nodes *n = x->nodes;
    blx_xfer node = blx_level_node(x, n->order[n->start[n->node[x->ep.me]]]); /* its first member first */
    node.ep.whole = x->bytes;
    size_t len, at = blx_slices_scatter(&node, &len);
    blx_xfer across = blx_level_slice(x, node.ep.me);
    across.buf = x->buf + at;
    across.bytes = len;
    blx_route r = level_route(&across, x, BLX_ALLREDUCE);
    blx_combine_run(&r, &across);
    blx_slices_gather(&node);
}

/* A broadcast along r, uncounted (the spreading of a gathered result). */
static void bcast_along(const blx_route *r, blx_xfer *x)
{
    if (r->alg->flags & BLX_ALG_LEVELS)
        levels_bcast(x);
    else
        run_bcast(r, x);
}

void blx_bcast_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->alg);
    bcast_along(r, x);
}

void blx_combine_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->alg);
    x->ordered |= r->fixed_order;
    if (r->alg->flags & (BLX_ALG_LEVELS | BLX_ALG_SLICES)) {
        if (r->alg->flags & BLX_ALG_LEVELS)
            levels_combine(x);
        else
            slices_combine(x);
        return;
    }
    x->ep.whole = x->bytes;
    prepare(r, x, x->unit);
    r->alg->combine(x);
    if (x->leave_on_all && (r->alg->flags & BLX_ALG_GATHERS)) { /* the result is on member 0: spread it */
        blx_route_in in = {.np = x->ep.np,
                           .bytes = x->bytes,
                           .model = x->model,
                           .trees = x->trees,
                           .routes = x->routes,
                           .forced = x->forced,
                           .nodes = x->nodes};
        blx_route b;
        blx_route_bcast(&b, ' ', &in);
        blx_xfer spread = *x;
        spread.ep.tag = x->spread_tag;
        bcast_along(&b, &spread);
    }
}
