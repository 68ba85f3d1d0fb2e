/*
 * topologies/scatter_allgather.c - long-message broadcast: a binomial
 * scatter of np pieces, then a ring allgather (van de Geijn; MPICH's
 * long-message broadcast, Thakur, Rabenseifner and Gropp section 4.1; the
 * InterCom paper's "scatter + bucket-collect").  No TOP letter: the default
 * ' ' picks it for long messages.
 *
 * The message is cut into np pieces; piece r belongs to the member r places
 * after the source.  np = 4:
 *
 *   scatter:   0 -> 2: pieces 2,3     then  0 -> 1: piece 1,  2 -> 3: piece 3
 *   allgather: np - 1 steps; in each, every member passes the piece it got
 *              last to its right neighbour and takes one from its left (the
 *              ring is open at the source, which needs nothing back)
 *
 *   cost: (log2(np) + np - 1) alpha + 2 (np - 1)/np n beta
 *   against log2(np) (alpha + n beta) for the binomial tree: about
 *   log2(np)/2 times less data on the slowest path once n beta dominates.
 * Any np works: the scatter tree is the binomial one, pieces may be empty.
 */
#include "topology.h"

/* Byte range of pieces [a, b) of the message. */
static void pieces(const blx_xfer *x, int a, int b, size_t *off, size_t *len)
{
    size_t np = (size_t)x->ep.np, chunk = (x->bytes + np - 1) / np;
    size_t lo = (size_t)a * chunk, hi = (size_t)b * chunk;
    lo = lo < x->bytes ? lo : x->bytes;
    hi = hi < x->bytes ? hi : x->bytes;
    *off = lo;
    *len = hi - lo;
}

static void scatter_allgather(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    int np = e->np, rel = blx_xfer_rel(x);
    size_t off, len;

    /* binomial scatter: a member receives its subtree's pieces from its
     * parent (rel minus its lowest set bit), then hands the upper halves on */
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
            blx_send(e, x->buf + off, len, blx_xfer_member(x, rel + mask));
        }
    }

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

const blx_topology blx_topo_scatter_allgather = {
    .keys = "",
    .name = "scatter + allgather",
    .description = "van de Geijn's long-message broadcast (chosen by the default TOP for long messages)",
    .tree = NULL,
    .bcast_send = scatter_allgather,
    .bcast_recv = scatter_allgather,
    .combine_tree = NULL,
    .combine = NULL,
    .flags = 0,
};
