/*
 * topologies/ring_allreduce.c - long-vector sums to all along a ring: a
 * reduce-scatter of np - 1 steps, then an allgather of np - 1 steps, every
 * member passing one np-th of the vector to its right neighbour at each
 * step (the "bucket" algorithms of the InterCom paper; Patarasuk and
 * Yuan's bandwidth-optimal allreduce; Open MPI's ring for long vectors).
 * No TOP letter: the default ' ' picks it for long vectors.
 *
 * The vector is cut into np blocks (in elements); block b starts at the
 * ring's position b.  np = 4, members at positions 0..3:
 *
 *   reduce-scatter, step s: position i sends block i - s (its partial sum
 *     of it) to i + 1 and folds block i - s - 1 from i - 1 into its own;
 *     after np - 1 steps position i holds the total of block i + 1
 *   allgather, step s: position i sends block i + 1 - s, takes block i - s
 *
 * Every block's total is computed once, along the ring from its start:
 * ((c_b + c_b+1) + c_b+2) + ..., the same every run (repeatable) and
 * copied to every member (coherent).  Needs a vector cut between elements
 * (CUTS: never a combine with locations) and a result on every member.
 *
 * Unlike the reduce-scatter by halving (rabenseifner.c), any np works
 * without folding whole vectors onto a power of two: a scope of 33 moves
 * 2 (np - 1)/np n, where halving moves 2 n more for its fold.  It pays
 * 2 (np - 1) latencies where halving pays 2 log2(np), so it wins for long
 * vectors over a number of members that is not a power of two (the
 * leaders of 22 nodes, say) where latencies are cheap.  On a scope over
 * nodes (nodes.h) the ring runs node by node (blx_nodes.order): one of a
 * node's hops crosses its card, which carries one block a step.
 *
 *   cost, n bytes, s = n / np:
 *     2 (np - 1) hop + (np - 1) s gamma
 *   hop: alpha + s beta, of the slowest of the ring's hops: on a scope
 *   over nodes the network's (a node's card carries one block a step).  A
 *   step's message goes out once its receiver has posted the receive (as
 *   SMPI simulates it, and as a rendezvous does), so every step waits for
 *   the slowest hop: the steps go in lockstep.
 */
#include "topology.h"

/* Block b of the vector, in bytes: its offset, its length in *len. */
static size_t block(const blx_xfer *x, int b, size_t *len)
{
    unsigned long long units = x->in.bytes / x->in.unit, np = (unsigned long long)x->ep.np;
    size_t lo = (size_t)(units * (unsigned long long)b / np), hi = (size_t)(units * (b + 1ULL) / np);
    *len = (hi - lo) * x->in.unit;
    return lo * x->in.unit;
}

/* A sum to all: every member's buffer takes the result, so it is never
 * read-only (blacs/combine.c) and the blocks fold in place. */
static void ring_allreduce(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    const blx_nodes *n = blx_nodes_spanned(x->in.nodes, e->np);
    int np = e->np, me = n != NULL ? n->pos[e->me] : e->me;
    int right = (me + 1) % np, left = (me + np - 1) % np;
    right = n != NULL ? n->order[right] : right;
    left = n != NULL ? n->order[left] : left;
    size_t most = (x->in.bytes / x->in.unit / (size_t)np + 1) * x->in.unit, olen, ilen;
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, most, e->ctxt, e->routine);
    for (int s = 0; s < np - 1; s++) {
        size_t out = block(x, (me - s + np) % np, &olen), in = block(x, (me - s - 1 + 2 * np) % np, &ilen);
        blx_sendrecv(e, x->buf + out, olen, right, tmp, ilen, left);
        x->merge(x->op, x->buf + in, tmp, ilen, 1); /* the partial from the left first */
    }
    for (int s = 0; s < np - 1; s++) {
        size_t out = block(x, (me + 1 - s + np) % np, &olen), in = block(x, (me - s + np) % np, &ilen);
        blx_sendrecv(e, x->buf + out, olen, right, x->buf + in, ilen, left);
    }
}

static double ring_allreduce_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                  const blx_tree *tree2)
{
    (void)param, (void)tree, (void)tree2;
    if (in->np < 3) /* two members: halving's one exchange, which the table weighs first */
        return BLX_UNPRICED;
    const blx_nodes *n = blx_nodes_spanned(in->nodes, in->np);
    const blx_model *m = n != NULL ? &n->off : in->model; /* the slowest hop: between nodes */
    double s = (double)in->bytes / in->np;
    return (in->np - 1) * (2 * (m->alpha + s * m->beta) + s * in->model->gamma);
}

const blx_algorithm blx_alg_ring_allreduce = {
    .name = "ring_allreduce",
    .keys = "",
    .title = "ring reduce-scatter + ring allgather",
    .description = "long-vector sum to all along a ring, node by node (chosen by the default TOP)",
    .combine = ring_allreduce,
    .combine_cost = ring_allreduce_cost,
    .flags = BLX_ALG_REPEATABLE | BLX_ALG_COHERENT | BLX_ALG_CUTS | BLX_ALG_LEAVE_ON_ALL_ONLY,
    .weigh = {[BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
