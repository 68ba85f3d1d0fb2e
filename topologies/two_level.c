/*
 * topologies/two_level.c - two levels, for a scope whose members share
 * nodes (nodes.h): only the default ' ' chooses it, where the cost model
 * finds it faster than every one-level algorithm.
 *
 * On a cluster of multi-core nodes a flat algorithm sends, at some of its
 * steps, the data of all of a node's processes through the node's one card
 * at once (recursive halving's first step, with the farthest partner, sends
 * half of every vector off the node).  In two levels only one process per
 * node, its leader, talks across nodes, and the rest moves through the
 * node's memory:
 *
 *   broadcast from s:   among the leaders from s (s leads its own node),
 *                       then on each node from its leader;
 *   combine to d:       on each node to its leader (d leads its own),
 *                       then among the leaders to d;
 *   combine to all:     on each node to its leader (its first member),
 *                       among the leaders to all of them, then on each node
 *                       from its leader.
 *
 * Each level is an operation of its own on part of the scope (a node's
 * members, or the leaders), run along the algorithm the default chooses for
 * that part with that level's model: the on-node model for a node, the
 * network's between leaders, whose links nobody else uses at that time.
 * So its cost, for a scope of N nodes with at most P members on one:
 *
 *   broadcast:        B_net(N, n) + B_node(P, n)
 *   combine to one:   R_node(P, n) + R_net(N, n)
 *   combine to all:   R_node(P, n) + A_net(N, n) + B_node(P, n)
 *
 * where B, R and A are the default's best broadcast, combine to one and
 * combine to all at that size and model (the default's own price of each
 * part, blx_part_cost; the levels run one after the other, each along the
 * default's route for it).
 * Combines fold in a fixed order at each level: repeatable for a given grid
 * and placement.  A combine to all is coherent: the leaders' results are
 * (the default's combines to all are), and each node gets its leader's.
 * Message IDs: the levels that share pairs of processes are apart (each
 * node's combine and broadcast back: the operation's ID and its spreading
 * ID); the leaders' level uses pairs no node level uses.
 */
#include "topology.h"

blx_route_in blx_part_in(const blx_route_in *in, int np, size_t bytes, const blx_model *model,
                         int leave_on_all)
{
    blx_route_in part = *in;
    part.np = np;
    part.bytes = bytes;
    part.model = model;
    part.leave_on_all = leave_on_all;
    part.nodes = NULL;
    part.forced = NULL;
    part.mpi = 0;
    return part;
}

blx_xfer blx_level_node(const blx_xfer *x, int leader)
{
    const blx_nodes *n = x->in.nodes;
    int j = n->node[x->ep.me], at = n->start[j];
    blx_xfer s = *x;
    s.ep.map = n->rank + at;
    s.ep.own = MPI_COMM_NULL;
    s.ep.np = n->start[j + 1] - at;
    s.ep.me = n->pos[x->ep.me] - at;
    s.root = n->pos[leader] - at;
    s.in = blx_part_in(&x->in, s.ep.np, x->in.bytes, &n->on, 0);
    return s;
}

/* One member of each node, their communicator ranks in n->lead: x's node's
 * is x's process; the root the one of node 'root'. */
static blx_xfer across(const blx_xfer *x, int root, const blx_model *model)
{
    const blx_nodes *n = x->in.nodes;
    blx_xfer s = *x;
    s.ep.map = n->lead;
    s.ep.own = MPI_COMM_NULL;
    s.ep.np = n->nn;
    s.ep.me = n->node[x->ep.me];
    s.root = root;
    s.in = blx_part_in(&x->in, n->nn, x->in.bytes, model, x->in.leave_on_all);
    return s;
}

blx_xfer blx_level_leaders(const blx_xfer *x, int root)
{
    const blx_nodes *n = x->in.nodes;
    for (int j = 0; j < n->nn; j++)
        n->lead[j] = n->rank[n->pos[blx_nodes_leader(n, j, root)]];
    return across(x, n->node[root], &n->off);
}

blx_xfer blx_level_slice(const blx_xfer *x, int index)
{
    const blx_nodes *n = x->in.nodes;
    for (int j = 0; j < n->nn; j++)
        n->lead[j] = n->rank[n->start[j] + index];
    return across(x, 0, &n->sliced);
}

static int applies(const blx_route_in *in, blx_coll op)
{
    (void)op;
    return in == NULL || blx_nodes_two_levels(in->nodes);
}

/* On the fullest node to its leader, among the leaders, back on the node
 * (header). */
static double price(const blx_route *r, const blx_route_in *in, blx_coll op, double ours, blx_part_cost part)
{
    (void)r, (void)ours;
    const blx_nodes *n = in->nodes;
    blx_route_in node = blx_part_in(in, n->most, in->bytes, &n->on, 0),
                 across = blx_part_in(in, n->nn, in->bytes, &n->off, op == BLX_ALLREDUCE);
    blx_route level;
    double t = 0;
    if (op != BLX_BCAST)
        t += part(&level, &node, BLX_REDUCE);
    t += part(&level, &across, op);
    if (op != BLX_REDUCE)
        t += part(&level, &node, BLX_BCAST);
    return t;
}

blx_route blx_level_route(const blx_xfer *level, blx_coll op, const blx_runner *with)
{
    blx_route r;
    with->route(&r, &level->in, op);
    return r;
}

static void levels_bcast(blx_xfer *x, const blx_runner *with)
{
    const blx_nodes *n = x->in.nodes;
    int leader = blx_nodes_leader(n, n->node[x->ep.me], x->root);
    if (leader == x->ep.me) {
        blx_xfer a = blx_level_leaders(x, x->root);
        blx_route r = blx_level_route(&a, BLX_BCAST, with);
        with->bcast(&r, &a);
    }
    blx_xfer o = blx_level_node(x, leader);
    if (o.ep.np > 1) {
        blx_route r = blx_level_route(&o, BLX_BCAST, with);
        with->bcast(&r, &o);
    }
}

static void levels_combine(blx_xfer *x, const blx_runner *with)
{
    const blx_nodes *n = x->in.nodes;
    int leader = blx_nodes_leader(n, n->node[x->ep.me], x->root), lead = leader == x->ep.me;
    if (lead && x->readonly) /* it folds its node's contributions into its own */
        blx_xfer_own(x);
    blx_xfer o = blx_level_node(x, leader);
    if (o.ep.np > 1) {
        blx_route r = blx_level_route(&o, BLX_REDUCE, with);
        with->combine(&r, &o);
    }
    if (lead) {
        blx_xfer a = blx_level_leaders(x, x->root);
        blx_route r = blx_level_route(&a, x->in.leave_on_all ? BLX_ALLREDUCE : BLX_REDUCE, with);
        with->combine(&r, &a);
    }
    o = blx_level_node(x, leader);
    if (x->in.leave_on_all && o.ep.np > 1) { /* every node from its leader */
        o.ep.tag = x->spread_tag;
        blx_route r = blx_level_route(&o, BLX_BCAST, with);
        with->bcast(&r, &o);
    }
}

static void run(const blx_route *r, blx_xfer *x, blx_coll op, const blx_runner *with)
{
    (void)r;
    if (op == BLX_BCAST)
        levels_bcast(x, with);
    else
        levels_combine(x, with);
}

const blx_algorithm blx_alg_two_level = {
    .name = "two_level",
    .keys = "",
    .title = "two levels",
    .description = "on each node and among one process of each node, each level along the default's best",
    .applies = applies,
    .price = price,
    .run = run,
    .flags = BLX_ALG_LEVELS | BLX_ALG_REPEATABLE | BLX_ALG_COHERENT,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE, [BLX_REDUCE] = BLX_WEIGH_ONCE, [BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
