/*
 * topologies/fully_connected.c - fully connected, TOP 'F'.  LAWN 73 Table 10.
 *
 *      0 --> 1, 2, 3, ..., np-1       (nearest first, all in step 1)
 *
 * The source sends to every member itself: a multiring with np - 1 rings.
 *   cost: source (np - 1) T_s; maximum (np - 2) T_s + T_c; one step
 * Combine: every member sends to the destination, which folds np - 1
 * messages, in arrival order (in member order when repeatable): a tree with
 * np - 1 branches.
 * Any np works.
 */
#include "topology.h"

static void fully_connected_tree(blx_tree *t, char key, int param)
{
    (void)key, (void)param;
    for (int r = 1; r < t->np; r++)
        blx_tree_edge(t, 0, r, 1);
}

const blx_algorithm blx_alg_fully_connected = {
    .name = "fully_connected",
    .keys = "F",
    .title = "fully connected",
    .description = "the source sends to every other member directly",
    .tree = fully_connected_tree,
    .bcast = blx_tree_bcast,
    .combine_tree = fully_connected_tree,
    .combine = blx_tree_combine,
    .bcast_cost = blx_tree_bcast_cost,
    .combine_cost = blx_tree_combine_cost,
    .flags = BLX_ALG_COHERENT | BLX_ALG_GATHERS,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE, [BLX_REDUCE] = BLX_WEIGH_ONCE},
};
