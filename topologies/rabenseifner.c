/*
 * topologies/rabenseifner.c - long-vector combines: reduce-scatter by
 * recursive halving, then an allgather by recursive doubling (leave-on-all)
 * or a gather to the destination (leave-on-one).  Rabenseifner's algorithm,
 * as MPICH uses it for long messages (Thakur, Rabenseifner and Gropp,
 * sections 4.4 and 4.5); the InterCom paper's "reduce-scatter based
 * combines".  No TOP letter: the default ' ' picks it for long vectors.
 *
 * With p the largest power of two <= np, the members p..np-1 first fold
 * their vectors into members 0..np-p-1 (relative to the destination), which
 * then take part for them.  np = 4, vector [a b c d]:
 *
 *   halving 1:  0 <-> 2: 0 keeps [a b], 2 keeps [c d]; 1 <-> 3 likewise
 *   halving 2:  0 <-> 1: 0 keeps [a], 1 keeps [b];    2 <-> 3 likewise
 *               (now member k holds piece k of the total)
 *   doubling:   the same exchanges in reverse order, swapping whole pieces
 *   (or, for one destination, every member sends its piece to it, which
 *   posts all p - 1 receives at once: their latencies overlap)
 *
 * On a scope over nodes the halving takes first the dimensions whose pairs
 * share a node (blx_halving_order, below): on two nodes of 2 by rank, 0 <-> 1
 * keeps [a b], then 0 <-> 2 keeps [a]; only the last, smallest, halves
 * cross the cards.  Farthest first, every process of a node would send
 * half its vector through the node's card at the first step.
 *
 *   cost (p a power of two, n bytes, gamma per byte combined):
 *     allreduce  2 log2(p) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
 *     reduce     (log2(p) + 1) alpha + (p-1) o + 2 (p-1)/p n beta + (p-1)/p n gamma
 *   The destination's p - 1 receives, posted at once, overlap their
 *   latencies on a network (faster than one after the other or a binomial
 *   gather).  With more processes than processors (the model's overlap =
 *   0) each still waits for its sender to be scheduled, and the reduce
 *   costs (log2(p) + p - 1) alpha.
 *   against log2(p) (alpha + n beta + n gamma) for the bidirectional exchange:
 *   fewer bytes and far less arithmetic per process once n is large.
 *   Non-power-of-two np adds one fold-in (alpha + n beta + n gamma) and, for
 *   leave-on-all, one fold-out (alpha + n beta).
 *   On a scope over nodes the default prices it with the network's model,
 *   beta times the most members on one node (blx_model_across), as if every
 *   level crossed the cards at once: a bound, which the order below beats
 *   by keeping the first levels on the nodes.
 *
 * Needs a vector that can be cut between elements (x->unit > 0), so combines
 * with locations never come here.  Coherent: each piece of the result is
 * computed by one member and copied to the others.  Repeatable: every member
 * combines "lower member's part (op) upper member's part", in a fixed
 * sequence of steps.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/report.h"
#include "topology.h"

typedef struct {
    size_t lo, hi; /* in units */
} span;

/* The order of the halving's dimensions, the masks below p (p = 2^nlev):
 * from the highest, as Rabenseifner's; on a scope over nodes, first those
 * whose pairs share a node, then those that cross between nodes, each from
 * the highest (nodes.h).  The first levels move the largest halves, so on
 * the node they stay (on the memory, not the card), and only the last and
 * smallest pieces cross the card: placed by node, the nearest partner
 * first, as MPICH's halving; round robin the farthest first, as before.  The
 * dimensions a member's partners follow are the same for every member, so
 * the pairs match whatever the order. */
void blx_halving_order(const blx_nodes *n, int root, int p, int dim[32])
{
    int cross = n != NULL ? blx_nodes_cross_from(n, root, p) : 0, k = 0;
    for (int crossing = 0; crossing <= 1; crossing++)
        for (int mask = p >> 1; mask >= 1; mask >>= 1)
            if (((cross & mask) != 0) == crossing)
                dim[k++] = mask;
}

/* The pieces of recursive halving: at each level k (mask dim[k]) the
 * current span is cut in two; the member without the mask bit keeps the
 * lower half.  Fills levels[] with the span before each cut; returns the
 * member's final span. */
static span halving(int me, int nlev, const int *dim, size_t n, span *levels)
{
    span s = {0, n};
    for (int k = 0; k < nlev; k++) {
        int mask = dim[k];
        levels[k] = s;
        size_t mid = s.lo + (s.hi - s.lo) / 2;
        if (me & mask)
            s.lo = mid;
        else
            s.hi = mid;
    }
    return s;
}

/* The destination's gather: every member's piece, the receives posted at
 * once so that their latencies overlap; one after the other (blx_recv cuts
 * them) when a piece is too long for a single message. */
static void gather(const blx_xfer *x, int p, int nlev, const int *dim, size_t n)
{
    const blx_ep *e = &x->ep;
    size_t unit = x->unit;
    span scratch[33];
    if ((n / (size_t)p + 1) * unit > BLX_MAX_MSG) {
        for (int r = 1; r < p; r++) {
            span s = halving(r, nlev, dim, n, scratch);
            blx_recv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, blx_xfer_member(x, r));
        }
        return;
    }
    blx_req *rq = malloc((size_t)p * sizeof *rq);
    if (rq == NULL)
        blx_fatal(e->ctxt, e->routine, "out of memory for %d receives", p - 1);
    for (int r = 1; r < p; r++) {
        span s = halving(r, nlev, dim, n, scratch);
        blx_irecv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, blx_xfer_member(x, r), &rq[r - 1]);
    }
    blx_waitall(e, p - 1, rq);
    free(rq);
}

/* The reduce-scatter among members 0..p-1 (relative to the root; p = 2^nlev):
 * at level k I keep levels[k + 1] (or my final piece) of levels[k] and give
 * the partner the other half.  Returns my piece of the total. */
static span reduce_scatter(const blx_xfer *x, int me, int nlev, const int *dim, char *tmp, span *levels)
{
    size_t unit = x->unit;
    levels[nlev] = halving(me, nlev, dim, x->bytes / unit, levels);
    for (int k = 0; k < nlev; k++) {
        int partner = me ^ dim[k], peer = blx_xfer_member(x, partner);
        span whole = levels[k], keep = levels[k + 1];
        span give = keep.lo == whole.lo ? (span){keep.hi, whole.hi} : (span){whole.lo, keep.lo};
        size_t kb = (keep.hi - keep.lo) * unit;
        char *kp = x->buf + keep.lo * unit;
        blx_sendrecv(&x->ep, x->buf + give.lo * unit, (give.hi - give.lo) * unit, peer, tmp, kb, peer);
        x->merge(x->op, kp, tmp, kb, me > partner); /* lower member's (op) upper member's */
    }
    return levels[nlev];
}

/* The allgather: the same exchanges backwards, whole pieces. */
static void allgather(const blx_xfer *x, int me, int nlev, const int *dim, const span *levels, span mine)
{
    size_t unit = x->unit;
    for (int k = nlev - 1; k >= 0; k--) {
        span whole = levels[k];
        span theirs = mine.lo == whole.lo ? (span){mine.hi, whole.hi} : (span){whole.lo, mine.lo};
        int peer = blx_xfer_member(x, me ^ dim[k]);
        blx_sendrecv(&x->ep, x->buf + mine.lo * unit, (mine.hi - mine.lo) * unit, peer,
                     x->buf + theirs.lo * unit, (theirs.hi - theirs.lo) * unit, peer);
        mine = whole;
    }
}

static void rabenseifner(const blx_xfer *xin)
{
    blx_xfer own = *xin, *x = &own;
    const blx_ep *e = &x->ep;
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(e->np, &nlev);
    if (x->readonly && me < p) /* folded-out members only send theirs */
        blx_xfer_own(x);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, x->bytes, e->ctxt, e->routine);
    if (!blx_fold_in(x, tmp, &p))
        return;
    int dim[32];
    blx_halving_order(x->nodes, x->root, p, dim);
    span levels[33], mine = reduce_scatter(x, me, nlev, dim, tmp, levels);
    if (x->leave_on_all) {
        allgather(x, me, nlev, dim, levels, mine);
        blx_fold_out(x, p);
    } else if (me != 0) { /* gather: every piece straight to the destination */
        blx_send(e, x->buf + mine.lo * x->unit, (mine.hi - mine.lo) * x->unit, blx_xfer_member(x, 0));
    } else {
        gather(x, p, nlev, dim, x->bytes / x->unit);
    }
}

/* The slices of a sum to all over nodes (two_level.c), on one node's
 * members, a power of two of them, the root first: the reduce-scatter,
 * which returns my piece's place and length in bytes, and the allgather,
 * which gives every member every piece. */
size_t blx_slices_scatter(const blx_xfer *x, size_t *len)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, x->bytes, x->ep.ctxt, x->ep.routine);
    int dim[32];
    blx_halving_order(x->nodes, x->root, p, dim);
    span levels[33], mine = reduce_scatter(x, me, nlev, dim, tmp, levels);
    *len = (mine.hi - mine.lo) * x->unit;
    return mine.lo * x->unit;
}

void blx_slices_gather(const blx_xfer *x)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    int dim[32];
    blx_halving_order(x->nodes, x->root, p, dim);
    span levels[33], mine = halving(me, nlev, dim, x->bytes / x->unit, levels);
    levels[nlev] = mine;
    allgather(x, me, nlev, dim, levels, mine);
}

/* The costs above, with the fold-in (and fold-out) of a non-power-of-two np. */
static double rabenseifner_cost(const blx_cost_in *c)
{
    const blx_model *m = c->model;
    int l, p = blx_pof2_floor(c->np, &l);
    double n = (double)c->n, part = (p - 1.0) / p;
    double t = part * n * (2 * m->beta + m->gamma);
    if (c->leave_on_all)
        t += 2 * l * m->alpha;
    else /* the gather's p - 1 receives, at once */
        t += m->overlap ? (l + 1) * m->alpha + (p - 1) * m->overhead : (l + p - 1) * m->alpha;
    if (p < c->np)
        t += m->alpha + n * (m->beta + m->gamma) + (c->leave_on_all ? m->alpha + n * m->beta : 0);
    return t;
}

const blx_algorithm blx_alg_rabenseifner = {
    .name = "rabenseifner",
    .keys = "",
    .title = "reduce-scatter + allgather/gather",
    .description = "Rabenseifner's long-vector combine (chosen by the default TOP for long vectors)",
    .tree = NULL,
    .combine_tree = NULL,
    .combine = rabenseifner,
    .combine_cost = rabenseifner_cost,
    .flags = BLX_ALG_REPEATABLE | BLX_ALG_COHERENT | BLX_ALG_CUTS,
    .weigh = {[BLX_REDUCE] = BLX_WEIGH_ONCE, [BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
