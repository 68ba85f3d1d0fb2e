/*
 * topologies/split_ring.c - split ring, TOP 'S'.  LAWN 73 section 4.3.1.
 *
 *   source 0, np = 8:        +--> 1 -> 2 -> 3 -> 4
 *                            0
 *                            +--> 7 -> 6 -> 5
 *
 * The source sends in the increasing direction first, then the decreasing
 * one; the right half (ceil((np-1)/2) processes) forwards rightwards, the
 * left half leftwards.  ScaLAPACK's LU uses it for row broadcasts.
 *   cost: source 2 T_s; maximum ceil((np - 1)/2) T_c; steps ceil((np - 1)/2)
 * Combine: both rings walked backwards into the destination, which folds the
 * two halves as they arrive (in ring order when BLACS_SET 15 asks for
 * repeatable results); leave-on-all combines at member 0 and spreads the
 * result with a binomial tree.
 * Any np works.
 *
 * Whole where members share a node.  PDGETRF and PDPOTRF broadcast their
 * panels along rows in 'S'; in PDPOTRF, PBLAS's PDSYRK then sends each
 * process's part of the panel to another process, across the node's card.
 * Cut into the pieces of the pipelined tree, a panel reached a node's
 * members at about the same moment, so all of them sent across the card at
 * once, sharing it, and each of those messages arrived late (on 16-core
 * nodes at 256 processes they took 18% longer than on the reference BLACS,
 * whose ring sends whole).  Sent whole, hop after hop, it reaches them one
 * after the other and their messages cross the card in turn: PDPOTRF went
 * from 0.981 to 1.025 x the reference's speed there, PDGESV from 1.024 to
 * 1.065; with one member a node (the flat cluster) the pieces stay (whole,
 * PDPOTRF took 7% longer there): sim/results.md, "The split ring whole
 * where its members share a node".
 */
#include "nodes.h"
#include "topology.h"

static blx_plan split_ring_plan(const blx_xfer *x)
{
    const blx_nodes *n = blx_nodes_spanned(x->in.nodes, x->ep.np);
    return blx_lettered_plan(x, n == NULL || n->most > 1);
}

static void split_ring_tree(blx_tree *t, char key, int param)
{
    (void)key, (void)param;
    int others = t->np - 1, right = (others + 1) / 2;
    blx_tree_chain(t, 0, 1, right, +1, 1);
    blx_tree_chain(t, 0, t->np - 1, others - right, -1, 1);
}

const blx_algorithm blx_alg_split_ring = {
    .name = "split_ring",
    .keys = "S",
    .title = "split ring",
    .description = "two rings from the source, increasing half first, then decreasing half",
    .tree = split_ring_tree,
    .bcast = blx_tree_bcast,
    .plan = split_ring_plan,
    .combine_tree = split_ring_tree,
    .combine = blx_tree_combine,
    .flags = BLX_ALG_PIPELINES | BLX_ALG_COHERENT | BLX_ALG_GATHERS,
};
