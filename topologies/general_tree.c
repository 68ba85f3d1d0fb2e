/*
 * topologies/general_tree.c - general tree with N_b branches, TOP '1'..'9'
 * (N_b = the digit) and 'T' (N_b from BLACS_SET code 12, or 14 for
 * combines).  LAWN 73 section 4.3.2.
 *
 * With H_t = ceil(log_{N_b+1} np) levels and stride s = (N_b+1)^(H_t-1), at
 * each level every holder r sends to r + j s, j = N_b .. 1 (farthest first),
 * then s /= N_b + 1.  The source makes N_is = ceil(np / s) - 1 sends in the
 * first level.  N_b = 1 is the binomial tree ("1-tree"), farthest first:
 *
 *   np = 8, N_b = 1:  step 1: 0->4   step 2: 0->2 4->6   step 3: 0->1 2->3 4->5 6->7
 *   np = 9, N_b = 2:  step 1: 0->6 0->3   step 2: 0->2 0->1 3->5 3->4 6->8 6->7
 *
 *   cost: source [N_b (H_t - 1) + N_is] T_s;
 *         maximum [(H_t - 1)(N_b - 1) + (N_is - 1)] T_s + H_t T_c; steps H_t
 * Combine (LAWN 73 5.4.1, general tree gather): the same tree walked
 * backwards; each node folds its children in arrival order (tree order when
 * repeatable) and sends up.  Destination time about
 * ceil(log_{N_b+1} np) (N_b T_c + T_o).  Leave-on-all: gather to member 0,
 * then a binomial broadcast of the one result, so every member gets the same
 * bits.
 * Any np works (np need not be a power of N_b + 1).
 */
#include "topology.h"

static void general_tree(blx_tree *t, char key, int param)
{
    int k = (key >= '1' && key <= '9') ? key - '0' : param;
    if (k < 1)
        k = 1;
    long long s = 1;
    while (s * (k + 1) < t->np)
        s *= k + 1;
    for (int level = 1; s >= 1; level++, s /= k + 1)
        for (long long r = 0; r < t->np; r += s * (k + 1))
            for (int j = k; j >= 1; j--)
                if (r + j * s < t->np)
                    blx_tree_edge(t, (int)r, (int)(r + j * s), level);
}

const blx_algorithm blx_alg_general_tree = {
    .name = "general_tree",
    .keys = "123456789T",
    .title = "general tree",
    .description = "tree with N_b branches per node (digit, or BLACS_SET 12/14 for T)",
    .tree = general_tree,
    .bcast = blx_tree_bcast,
    .combine_tree = general_tree,
    .combine = blx_tree_combine,
    .bcast_cost = blx_tree_bcast_cost,
    .combine_cost = blx_tree_combine_cost,
    .flags = BLX_ALG_USES_BRANCHES | BLX_ALG_COHERENT | BLX_ALG_GATHERS,
    /* the binomial tree and wider ones (short messages, whose sends overlap) */
    .weigh = {[BLX_BCAST] = (const int[]){1, 3, 7, 15, 63, -1},
              [BLX_REDUCE] = (const int[]){1, 3, 15, -1},
              [BLX_ALLREDUCE] = (const int[]){1, -1}},
};
