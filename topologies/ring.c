/*
 * topologies/ring.c - unidirectional rings, TOP 'I' (increasing) and 'D'
 * (decreasing).  LAWN 73 section 4.3.1.
 *
 *   'I', source 0, np = 6:   0 -> 1 -> 2 -> 3 -> 4 -> 5
 *   'D':                     0 -> 5 -> 4 -> 3 -> 2 -> 1
 *
 * The quietest broadcast: one message in flight at a time.  The source sends
 * once; the last process waits np - 1 communications.
 *   cost: source T_s; maximum (np - 1) T_c; steps np - 1
 *         (alpha-beta: (np - 1)(alpha + n beta), or about
 *          (np - 2 + k)(alpha + n beta / k) with the k-segment pipelining
 *          of tree_bcast.c)
 * Consecutive broadcasts in the ring's direction pipeline: once the first has
 * ordered the processes, each further one costs about T_c.
 * Combine: the same ring ending at the destination (one child per node, so
 * contributions are always folded in the same order: repeatable); leave-on-all
 * combines at member 0 and spreads the result with a binomial tree.
 * Any np works; nothing special for non-powers of two.
 */
#include "nodes.h"
#include "topology.h"

static void ring_tree(blx_tree *t, char key, int param)
{
    (void)param;
    if (key == 'D')
        blx_tree_chain(t, 0, t->np - 1, t->np - 1, -1, 1);
    else
        blx_tree_chain(t, 0, 1, t->np - 1, +1, 1);
}

/* What ScaLAPACK names a ring for: broadcasts in a loop whose roots move
 * along the ring (PBLAS's PDGEMM panels), each process sending once a
 * broadcast.  A lettered ring on one node goes whole, as the reference's
 * does: cut into the pieces of the pipelined chain (tree_bcast.c), which
 * alone reach the last process soonest, PDGEMM on 16-core nodes took
 * 4.6% longer than on the reference BLACS, and whole 0.3% less; across
 * nodes the pieces stay (there PDGESV's receivers wait for each panel, and
 * whole it took 7% longer): sim/results.md, "A ring on a node sent whole".
 * Across nodes a message of at most RING_WHOLE_MAX goes whole too: in
 * pieces each forwarder sends them synchronously (paced, tree_bcast.c) and
 * so stays in its receive until its child takes them, where whole it sends
 * one standard message, which MPI delivers eagerly up to about that size
 * (Open MPI's TCP eager limit, SMPI's detached sends), and goes on.
 * PDPOTRF broadcasts its diagonal block down a column in 'I' rings of
 * 8-32 KiB, and on 256 processes of 16-core nodes each process of the
 * diagonal stayed 0.7-1.6 ms in a ring's send, waiting for the next
 * process of its column to leave its update: 1.4% of the driver's time
 * (sim/results.md, "A short ring across nodes sent whole").
 * Measured, not derived from the model; the default's own choice of a ring
 * keeps the pieces it was priced with. */
#define RING_WHOLE_MAX 65536

blx_plan blx_lettered_plan(const blx_xfer *x, int whole)
{
    /* The window, which matters only where a process has two children (the
     * split ring's source): the model's, or as many as cover a latency where
     * the message is that short (model.h), so that a short one leaves at once. */
    if (x->lettered && whole) {
        int w = blx_model_window(x->in.model, (double)x->in.bytes);
        return (blx_plan){x->in.bytes + 1, w > x->in.model->window ? w : x->in.model->window, 0};
    }
    return blx_model_tree_plan(x->in.model, x->tree, x->in.bytes, x->in.unit ? x->in.unit : 1);
}

static blx_plan ring_plan(const blx_xfer *x)
{
    return blx_lettered_plan(x, x->in.bytes <= RING_WHOLE_MAX ||
                                    blx_nodes_spanned(x->in.nodes, x->ep.np) == NULL);
}

/* Combines: one ring ending at the destination, flowing in the letter's
 * direction ('I': d+1 -> d+2 -> ... -> d-1 -> d), i.e. the opposite ring
 * walked backwards. */
static void ring_combine_tree(blx_tree *t, char key, int param)
{
    ring_tree(t, key == 'I' ? 'D' : 'I', param);
}

const blx_algorithm blx_alg_ring = {
    .name = "ring",
    .keys = "ID",
    .title = "ring",
    .description = "unidirectional ring: increasing (I) or decreasing (D) process order",
    .tree = ring_tree,
    .bcast = blx_tree_bcast,
    .combine_tree = ring_combine_tree,
    .combine = blx_tree_combine,
    .plan = ring_plan,
    .bcast_cost = blx_tree_bcast_cost,
    .combine_cost = blx_tree_combine_cost,
    .flags = BLX_ALG_PIPELINES | BLX_ALG_REPEATABLE | BLX_ALG_COHERENT | BLX_ALG_GATHERS,
    /* as a pipelined chain ('I') */
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE, [BLX_REDUCE] = BLX_WEIGH_ONCE, [BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
