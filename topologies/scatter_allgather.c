/*
 * topologies/scatter_allgather.c - long-message broadcasts: a binomial
 * scatter of np pieces, then an allgather, by a ring or by recursive
 * doubling (van de Geijn; MPICH's long-message broadcast, Thakur,
 * Rabenseifner and Gropp section 4.1; the InterCom paper's "scatter +
 * bucket-collect").  No TOP letter: the default ' ' picks them for long
 * messages.
 *
 * The message is cut into np pieces; piece r belongs to the member r places
 * after the source.  np = 4:
 *
 *   scatter:   0 -> 2: pieces 2,3     then  0 -> 1: piece 1,  2 -> 3: piece 3
 *   allgather: np - 1 steps; in each, every member passes the piece it got
 *              last to its right neighbour and takes one from its left (the
 *              ring is open at the source, which needs nothing back)
 *
 *   recursive doubling instead of the ring (np a power of two): in step j
 *   member r swaps the 2^j pieces it holds with member r XOR 2^j; the source
 *   holds them all, so its partner sends it nothing.
 *
 *   cost, ring:     (ceil(log2 np) + np - 1) alpha + 2 (np - 1)/np n beta
 *         doubling: 2 log2(np) alpha + 2 (np - 1)/np n beta
 *   against log2(np) (alpha + n beta) for the binomial tree: about
 *   log2(np)/2 times less data on the slowest path once n beta dominates.
 * Any np works for the ring (pieces may be empty); recursive doubling needs
 * a power of two (POWER_OF_TWO: the default never picks it otherwise).
 */
#include "topology.h"

/* Byte range of pieces [a, b) of the message. */
static void pieces(const blx_xfer *x, int a, int b, size_t *off, size_t *len)
{
    size_t np = (size_t)x->ep.np, chunk = (x->in.bytes + np - 1) / np;
    size_t lo = (size_t)a * chunk, hi = (size_t)b * chunk;
    lo = lo < x->in.bytes ? lo : x->in.bytes;
    hi = hi < x->in.bytes ? hi : x->in.bytes;
    *off = lo;
    *len = hi - lo;
}

/* Binomial scatter: a member receives its subtree's pieces from its parent
 * (rel minus its lowest set bit), then hands the upper halves on, the
 * largest first; in the end member rel holds piece rel (and the pieces of
 * its subtree's missing members when np is not a power of two).  The halves
 * go one after the other: on a network link (the model's window 1) each
 * send is synchronous, since MPI would buffer the shorter ones and put them
 * on the link beside the largest, which then reaches the member that
 * forwards most later than the cost below assumes. */
static void scatter(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    int np = e->np, rel = blx_xfer_rel(x), network = x->in.model->window == 1;
    size_t off, len;

    int mask = 1;
    while (mask < np) {
        if (rel & mask) {
            int end = rel + mask < np ? rel + mask : np;
            pieces(x, rel, end, &off, &len);
            blx_recv(e, x->buf + off, len, blx_xfer_member(x, rel - mask));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < np) {
            int end = rel + 2 * mask < np ? rel + 2 * mask : np;
            pieces(x, rel + mask, end, &off, &len);
            (network ? blx_ssend : blx_send)(e, x->buf + off, len, blx_xfer_member(x, rel + mask));
        }
    }
}

static void scatter_ring(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    int np = e->np, rel = blx_xfer_rel(x);
    scatter(x);
    /* ring allgather; the source has every piece already, so nobody sends to
     * it and it receives nothing (its matrix is only read) */
    int right = rel == np - 1 ? -1 : blx_xfer_member(x, rel + 1);
    int left = rel == 0 ? -1 : blx_xfer_member(x, rel - 1);
    for (int step = 0; step < np - 1; step++) {
        int out = (rel - step + np) % np, in = (rel - step - 1 + np) % np;
        size_t ooff, olen, ioff, ilen;
        pieces(x, out, out + 1, &ooff, &olen);
        pieces(x, in, in + 1, &ioff, &ilen);
        blx_sendrecv(e, x->buf + ooff, olen, right, x->buf + ioff, ilen, left);
    }
}

static void scatter_doubling(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    int np = e->np, rel = blx_xfer_rel(x);
    scatter(x);
    for (int mask = 1; mask < np; mask <<= 1) {
        int partner = rel ^ mask, mine = rel & ~(mask - 1), theirs = partner & ~(mask - 1);
        size_t ooff, olen, ioff, ilen;
        pieces(x, mine, mine + mask, &ooff, &olen);
        pieces(x, theirs, theirs + mask, &ioff, &ilen);
        /* the source receives nothing: its matrix is only read */
        blx_sendrecv(e, x->buf + ooff, olen, partner == 0 ? -1 : blx_xfer_member(x, partner), x->buf + ioff,
                     ilen, rel == 0 ? -1 : blx_xfer_member(x, partner));
    }
}

static double ring_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree, (void)tree2;
    const blx_model *m = in->model;
    return (blx_log2_ceil(in->np) + in->np - 1) * m->alpha +
           2.0 * (in->np - 1) / in->np * (double)in->bytes * m->beta;
}

static double doubling_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree, (void)tree2;
    const blx_model *m = in->model;
    return 2 * blx_log2_ceil(in->np) * m->alpha + 2.0 * (in->np - 1) / in->np * (double)in->bytes * m->beta;
}

const blx_algorithm blx_alg_scatter_ring = {
    .name = "scatter_ring",
    .keys = "",
    .title = "scatter + ring allgather",
    .description = "van de Geijn's long-message broadcast (chosen by the default TOP for long messages)",
    .bcast = scatter_ring,
    .bcast_cost = ring_cost,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE},
};

const blx_algorithm blx_alg_scatter_doubling = {
    .name = "scatter_doubling",
    .keys = "",
    .title = "scatter + recursive-doubling allgather",
    .description = "long-message broadcast for powers of two (chosen by the default TOP)",
    .bcast = scatter_doubling,
    .bcast_cost = doubling_cost,
    .flags = BLX_ALG_POWER_OF_TWO,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE},
};
