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
 */
#include "topology.h"

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
    .combine_tree = split_ring_tree,
    .combine = blx_tree_combine,
    .flags = BLX_ALG_PIPELINES | BLX_ALG_COHERENT | BLX_ALG_GATHERS,
};
