/*
 * topologies/hypercube.c - TOP 'H': hypercube broadcast, nearest node first
 * (LAWN 73 section 4.3.2, after van de Geijn), and the bidirectional-exchange
 * combine (LAWN 73 section 5.4.2; recursive doubling in MPICH's terms).
 *
 * Broadcast, np a power of two: at step b + 1 every holder r (r < 2^b)
 * sends to r + 2^b, so node 0 sends to 1, 2, 4, ... and a node forwards along
 * every dimension above the one it received on.  np = 8:
 *
 *   step 1:  0->1
 *   step 2:  0->2  1->3
 *   step 3:  0->4  1->5  2->6  3->7
 *
 * On a scope over nodes (nodes.h) the dimensions that cross nodes go
 * first, then the others, each from the lowest: every dimension is still
 * one step of doubling, but a dimension between nodes is crossed when the
 * fewest processes hold the message, so each card carries it once or twice
 * instead of once for every process on its node.  That only relabels the
 * hypercube's corners (its edges, steps and messages are LAWN 73's), and
 * where the low dimensions are the crossing ones (round robin; one process
 * a node) it is LAWN 73's order itself.  np = 8 on two nodes of 4 by rank
 * (dimension 4 crosses) sends 0->4, then 0->1 4->5, then 0->2 1->3 4->6 5->7.
 *
 *   cost: source log2(np) T_s; maximum log2(np) T_c; steps log2(np);
 *         2^(i-1) sends in step i
 * Non-power-of-two np: the registry falls back to the 1-tree, as the
 * reference does.
 *
 * Combine, leave-on-all only (a single destination falls back to the
 * 1-tree): with p the largest power of two <= np, members p..np-1 first fold
 * their data into members 0..np-p-1; then in step k every member r < p swaps
 * its partial result with r XOR 2^k and both combine the pair; finally the
 * folded members get the result back.  np = 6 (p = 4):
 *
 *   fold:     4->0  5->1
 *   step 1:   0<->1  2<->3
 *   step 2:   0<->2  1<->3
 *   unfold:   0->4  1->5
 *
 *   cost: log2(p) (alpha + n beta + n gamma), plus 2 (alpha + n beta) + n gamma
 *         when np is not a power of two (LAWN 73: log2(np)(T_c + T_o) when sends
 *         and receives overlap)
 * Coherent and repeatable: both members of a pair compute "lower half (op)
 * upper half" from the same two operands, so all members hold the same bits
 * after every step, and the order of operations never depends on timing.
 * (The reference's exchange is neither, unless TOPSCOHRNT is set.)
 */
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* The dimensions in the order they are used: the bits of 'cross' (below
 * np), then the others, each from the lowest up; returns how many. */
static int dimensions(int np, int cross, int dim[31])
{
    int d = 0;
    for (int crossing = 1; crossing >= 0; crossing--)
        for (int bit = 1; bit < np; bit <<= 1)
            if (((cross & bit) != 0) == crossing)
                dim[d++] = bit;
    return d;
}

/* param: the scope's crossing bits (blx_nodes.cross; the registry passes
 * them, BLX_ALG_NODE_ORDER), 0 on one node. */
static void hypercube_tree(blx_tree *t, char key, int param)
{
    (void)key;
    int dim[31], d = dimensions(t->np, blx_is_pof2(t->np) ? param : 0, dim), held = 1;
    /* the holders after each step, in the order they got the message:
     * holder i of step k + 1 is holder i mod 2^k, XOR dim[k] when i >= 2^k */
    int *holder = t->np > 0 ? malloc((size_t)t->np * sizeof *holder) : NULL;
    if (holder == NULL)
        return; /* not a spanning tree: blx_tree_build reports it */
    holder[0] = 0;
    for (int k = 0; k < d; k++, held *= 2)
        for (int i = 0; i < held && held + i < t->np; i++) {
            holder[held + i] = holder[i] ^ dim[k];
            blx_tree_edge(t, holder[i], holder[held + i], k + 1);
        }
    free(holder);
}

static void exchange_combine(const blx_xfer *x)
{
    /* leave-on-all only: the root is member 0, so 'me' is the scope index */
    const blx_ep *e = &x->ep;
    int me = e->me, p;
    _Alignas(64) char stackbuf[512];
    char *tmp = stackbuf;
    if (x->in.bytes > sizeof stackbuf)
        tmp = blx_scratch(BLX_SCRATCH_TMP, x->in.bytes, e->ctxt, e->routine);
    if (!blx_fold_in(x, NULL, tmp, &p))
        return;
    for (int mask = 1; mask < p; mask <<= 1) {
        int partner = me ^ mask;
        blx_sendrecv(e, x->buf, x->in.bytes, partner, tmp, x->in.bytes, partner);
        /* both compute "lower member's (op) upper member's" */
        x->merge(x->op, x->buf, tmp, x->in.bytes, me > partner);
    }
    blx_fold_out(x, NULL, p);
}

/* log2(p) (alpha + n beta + n gamma), plus 2 (alpha + n beta) + n gamma
 * for the fold when np is not a power of two (above) */
static double exchange_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree, (void)tree2;
    const blx_model *m = in->model;
    int steps, p = blx_pof2_floor(in->np, &steps);
    double n = (double)in->bytes, step = m->alpha + n * (m->beta + m->gamma);
    return steps * step + (p < in->np ? 2 * (m->alpha + n * m->beta) + n * m->gamma : 0);
}

const blx_algorithm blx_alg_hypercube = {
    .name = "hypercube",
    .keys = "H",
    .title = "hypercube",
    .description = "hypercube broadcast (powers of two); bidirectional exchange combine (leave-on-all)",
    .tree = hypercube_tree,
    .bcast = blx_tree_bcast,
    .combine_tree = NULL,
    .combine = exchange_combine,
    .combine_cost = exchange_cost,
    .flags = BLX_ALG_POWER_OF_TWO | BLX_ALG_LEAVE_ON_ALL_ONLY | BLX_ALG_REPEATABLE | BLX_ALG_COHERENT |
             BLX_ALG_NODE_ORDER,
    .weigh = {[BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
