/*
 * topologies/multiring.c - multiring (multipath), TOP 'M'.  LAWN 73 section
 * 4.3.1.
 *
 * The np - 1 other processes are cut into N_r consecutive rings (N_r from
 * BLACS_SET code 11 for broadcasts, 13 for combines; |N_r| is clamped to
 * np - 1; a negative N_r runs the rings in decreasing order).  The first
 * (np - 1) mod N_r rings get one process more.  The source sends to the
 * nearest ring first.  np = 8, N_r = 3:
 *
 *      0 --> 1 -> 2 -> 3
 *        --> 4 -> 5
 *        --> 6 -> 7
 *
 *   cost: source N_r T_s; maximum ceil((np - 1)/N_r) T_c + (N_r - 1) T_s;
 *         steps ceil((np - 1)/N_r)
 * Combine: N_r rings (BLACS_SET 13) ending at the destination, which folds
 * the ring heads in arrival order (fixed order when repeatable).
 * Any np works.
 */
#include <stdlib.h>

#include "topology.h"

static void multiring_tree(blx_tree *t, char key, int param)
{
    (void)key;
    int others = t->np - 1, dir = param < 0 ? -1 : +1;
    int rings = abs(param);
    if (rings < 1)
        rings = 1;
    if (rings > others)
        rings = others;
    int offset = 1; /* distance from the source of the next ring's head */
    for (int j = 0; j < rings; j++) {
        int len = others / rings + (j < others % rings);
        int head = dir > 0 ? offset : t->np - offset;
        blx_tree_chain(t, 0, head, len, dir, 1);
        offset += len;
    }
}

/* Combines: N_r rings that each end at the destination, flowing in the sign's
 * direction: the broadcast rings of -N_r walked backwards. */
static void multiring_combine_tree(blx_tree *t, char key, int param) { multiring_tree(t, key, -param); }

const blx_algorithm blx_alg_multiring = {
    .name = "multiring",
    .keys = "M",
    .title = "multiring",
    .description = "N_r rings of consecutive processes from the source (BLACS_SET 11/13)",
    .tree = multiring_tree,
    .bcast = blx_tree_bcast,
    .combine_tree = multiring_combine_tree,
    .combine = blx_tree_combine,
    .flags = BLX_ALG_PIPELINES | BLX_ALG_USES_RINGS | BLX_ALG_COHERENT | BLX_ALG_GATHERS,
};
