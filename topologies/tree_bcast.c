/*
 * topologies/tree_bcast.c - the broadcast walker every tree algorithm uses.
 *
 * The root sends its buffer to its children; every other member receives
 * from its parent into its buffer and forwards to its own children.  The
 * message travels in the pieces of x->plan (buffers/bytes.h: blx_cut): a
 * node forwards piece i as soon as it has it, to its children in the
 * tree's order (largest subtree first), keeping at most plan.window sends
 * in flight (walk.h: the stream).  On a network link every message in
 * flight shares the bandwidth, so with a window of 1 piece i reaches the
 * next hop before piece i + 1 competes with it; such sends are synchronous
 * (blx_issend), so that their completion means delivery even where MPI
 * would buffer a small message.  When every send of the call fits in the
 * window at once, they go out together as ordinary sends (short messages:
 * latency, not bandwidth).  With a second tree (x->tree2), pieces
 * alternate: piece i follows tree i mod 2, and each tree's pieces go on as
 * they come, never waiting for the other tree's.  Broadcasts are globally
 * blocking, so the buffer may be the user's matrix itself.
 *
 *   cost: model.h, a pipelined tree: (L + (k - 1) D)(alpha + n beta / k)
 */
#include <stdlib.h>

#include "../base/report.h"
#include "walk.h"

/* One message along one tree, to children that all fit in flight (short
 * messages, most calls): received whole, then sent to every child at once,
 * with no stream to set up. */
static void bcast_whole(const blx_xfer *x, const blx_cut *cut, const blx_place *at)
{
    const blx_ep *e = &x->ep;
    blx_req r[BLX_STREAM_SENDS];
    if (at->parent >= 0) {
        blx_irecv_piece(e, x->buf, cut, 0, at->parent, &r[0]);
        blx_wait(e, &r[0]);
    }
    for (int j = 0; j < at->nkids; j++)
        blx_isend(e, x->buf, x->bytes, blx_xfer_member(x, at->kids[j]), &r[j]);
    if (at->nkids > 0)
        blx_waitall(e, at->nkids, r);
}

/* The pieces: every receive posted ahead (left[i]: piece i still to come),
 * each forwarded as it arrives. */
static void bcast_pieces(const blx_xfer *x, const blx_cut *cut, const blx_place at[2], int ntrees,
                         blx_req *rr, int *left)
{
    const blx_ep *e = &x->ep;
    for (int i = 0; i < cut->k; i++) {
        const blx_place *p = &at[i % ntrees];
        size_t len, off = blx_cut_piece(cut, i, &len);
        left[i] = p->parent >= 0;
        if (left[i])
            blx_irecv_piece(e, x->buf + off, cut, i, p->parent, &rr[i]);
    }
    blx_req w[BLX_STREAM_SENDS + 2]; /* sends in flight, and two to wait for with them */
    blx_stream o;
    blx_stream_start(&o, x, cut, at, ntrees, 0, left, w);
    for (;;) {
        blx_stream_push(&o);
        if (o.sent == o.total)
            break;
        blx_req *next[2] = {NULL, NULL}; /* the receive each tree's next send waits for */
        for (int t = 0; t < ntrees; t++) {
            int i = o.piece[t];
            next[t] = i < cut->k && left[i] ? &rr[i] : NULL;
        }
        int t = blx_stream_wait(&o, next, ntrees);
        if (t >= 0)
            left[o.piece[t]] = 0;
    }
    blx_stream_drain(&o);
    blx_waitall(e, cut->k, rr);
}

void blx_tree_bcast(const blx_xfer *x)
{
    blx_cut cut = blx_cut_make(x->bytes, x->plan.piece, 1, x->plan.lead);
    blx_place at[2];
    int ntrees = blx_places(x, at);
    if (cut.k == 1 && ntrees == 1 && at[0].nkids <= BLX_STREAM_SENDS && at[0].nkids <= x->plan.window) {
        bcast_whole(x, &cut, &at[0]);
        return;
    }
    blx_req stack[BLX_STACK_REQS], *rr = blx_walk_reqs(x, stack, cut.k);
    int lstack[BLX_STACK_REQS],
        *left = cut.k > BLX_STACK_REQS ? malloc((size_t)cut.k * sizeof *left) : lstack;
    if (left == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d pieces", cut.k);
    bcast_pieces(x, &cut, at, ntrees, rr, left);
    if (rr != stack)
        free(rr);
    if (left != lstack)
        free(left);
}

double blx_tree_bcast_cost(const blx_cost_in *c) { return blx_model_tree_time(c->model, c->tree, c->n); }
