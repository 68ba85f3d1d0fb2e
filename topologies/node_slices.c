/*
 * topologies/node_slices.c - a long sum to all over nodes, in slices: only
 * the default ' ' chooses it, where the cost model finds it faster than
 * every other algorithm, on a scope whose nodes each hold the same number
 * P of its members, a power of two (blx_nodes_sliceable).
 *
 * Two levels with leaders (two_level.c) send a node's whole vector through
 * its leader: the node's other processes wait while the leaders talk, and
 * the node's fan-in and fan-out each move P - 1 vectors through one
 * process.  In slices every process works at every step:
 *
 *   1. on each node, a reduce-scatter by recursive halving: member i of the
 *      node ends with piece i of the node's sum (1/P of the vector);
 *   2. across the nodes, the members that hold piece i (one per node) sum
 *      it to all of them, along the default's best for N members and n/P
 *      bytes; the P groups run at once, so a node's card carries all P
 *      pieces together (the model's beta times P: blx_nodes.sliced);
 *   3. on each node, an allgather by recursive doubling of the P pieces.
 *
 *   cost (N nodes of P members, n bytes; on = the node's model):
 *     2 log2(P) alpha_on + 2 (P-1)/P n beta_on + (P-1)/P n gamma
 *       + A_sliced(N, n / P)
 *   where A_sliced is the default's best sum to all of N members at n/P
 *   bytes under the network's model with beta times P (default.c).
 *
 * The vector is cut between elements (BLX_ALG_CUTS): never for combines
 * with locations.  Leave-on-all only (BLX_ALG_LEAVE_ON_ALL_ONLY).
 * Repeatable: each step folds the lower member's part with the upper's, in
 * a fixed sequence, and step 2 is the default's (fixed order).  Coherent:
 * each piece is summed by its group, whose sum to all is coherent (the
 * default's are), and copied whole to the node.  Message IDs: steps 1 and 3
 * use the pairs of a node, in the same order on both sides; step 2 only
 * pairs of different nodes.
 *
 * two_level.c makes the groups of step 2 (blx_level_slice), rabenseifner.c
 * runs steps 1 and 3 (blx_slices_scatter, blx_slices_gather).
 */
#include "topology.h"

static int applies(const blx_route_in *in, blx_coll op)
{
    return op == BLX_ALLREDUCE && (in == NULL || blx_nodes_sliceable(in->nodes));
}

/* Reduce-scatter and allgather on a node of P, between them the default's
 * best sum to all of the N nodes' holders of a piece, n / P bytes, the
 * card shared by the node's P pieces (header). */
static double price(const blx_route *r, const blx_route_in *in, blx_coll op, double ours, blx_part_cost part)
{
    (void)r, (void)op, (void)ours;
    const blx_nodes *n = in->nodes;
    blx_route_in node = blx_part_in(in, n->most, in->bytes, &n->on, 1), /* its halving and doubling */
        across = blx_part_in(in, n->nn, in->bytes / (size_t)n->most, &n->sliced, 1);
    blx_route sum;
    return part(&sum, &across, BLX_ALLREDUCE) + blx_alg_rabenseifner.combine_cost(&node, 0, NULL, NULL);
}

/* The node's reduce-scatter, each piece summed across the nodes along the
 * default's route, the node's allgather (header). */
static void run(const blx_route *r, blx_xfer *x, blx_coll op, const blx_runner *with)
{
    (void)r, (void)op;
    const blx_nodes *n = x->in.nodes;
    blx_xfer node = blx_level_node(x, n->order[n->start[n->node[x->ep.me]]]); /* its first member first */
    node.ep.whole = x->in.bytes;
    size_t len, at = blx_slices_scatter(&node, &len);
    blx_xfer across = blx_level_slice(x, node.ep.me);
    across.buf = x->buf + at;
    across.in.bytes = len;
    blx_route sum = blx_level_route(&across, BLX_ALLREDUCE, with);
    with->combine(&sum, &across);
    blx_slices_gather(&node);
}

const blx_algorithm blx_alg_node_slices = {
    .name = "node_slices",
    .keys = "",
    .title = "node slices",
    .description = "reduce-scatter on each node, each piece summed across the nodes, allgather on each node",
    .applies = applies,
    .price = price,
    .run = run,
    .flags =
        BLX_ALG_SLICES | BLX_ALG_LEAVE_ON_ALL_ONLY | BLX_ALG_CUTS | BLX_ALG_REPEATABLE | BLX_ALG_COHERENT,
    .weigh = {[BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
