/*
 * topologies/tree_walk.c - moving data along a tree (the broadcast walker).
 *
 * The root sends its buffer to its children in tree order; every other
 * member receives from its parent into its buffer and forwards to its own
 * children.  All sends are non-blocking from the one buffer and waited for
 * before returning (broadcasts are globally blocking, so the buffer may be
 * the user's matrix itself).
 *
 * Pipelining: in a tree deeper than two levels, a message above 2 * SEG_MIN
 * bytes travels in up to MAX_SEG segments, and a node forwards segment i as
 * soon as it has it while segment i + 1 is still arriving.  A chain of d
 * links then costs about (d - 1 + k)(alpha + n beta / k) for k segments
 * instead of d (alpha + n beta).  All segments of one operation share its
 * message ID; MPI's non-overtaking rule keeps them in order.
 *
 * Combines walk the tree the other way (fan-in): see blx_tree_combine.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/report.h"
#include "topology.h"

#define SEG_MIN ((size_t)256 << 10)
#define MAX_SEG 64
#define STACK_REQS 32

static int segments(const blx_xfer *x)
{
    size_t n = 1;
    if (x->tree->depth > 2 && x->bytes > 2 * SEG_MIN) {
        n = (x->bytes + SEG_MIN - 1) / SEG_MIN;
        n = n > MAX_SEG ? MAX_SEG : n;
    }
    size_t least = (x->bytes + BLX_MAX_MSG - 1) / BLX_MAX_MSG; /* the byte layer's largest message */
    return (int)(n > least ? n : least);
}

/* Segment i of nseg of 'seg' bytes: its offset and length. */
static size_t segment(const blx_xfer *x, size_t seg, int i, size_t *len)
{
    size_t off = (size_t)i * seg, left = off < x->bytes ? x->bytes - off : 0;
    *len = left < seg ? left : seg;
    return off;
}

/* n requests: from the stack when few, else from the heap. */
static blx_req *reqs(const blx_xfer *x, blx_req *stack, int n)
{
    blx_req *r = stack;
    if (n > STACK_REQS && (r = malloc((size_t)n * sizeof *r)) == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d MPI requests", n);
    return r;
}

void blx_tree_bcast(const blx_xfer *x)
{
    const blx_tree *t = x->tree;
    const blx_ep *e = &x->ep;
    int rel = blx_xfer_rel(x);
    int nkids = blx_tree_nkids(t, rel);
    const int *kids = blx_tree_kids(t, rel);
    int nseg = segments(x);
    size_t seg = (x->bytes + (size_t)nseg - 1) / (size_t)nseg, len;
    blx_req stack[STACK_REQS];
    blx_req *req = reqs(x, stack, nseg * (nkids + 1)), *recv = req, *send = req + nseg;
    int nsend = 0, parent = rel == 0 ? -1 : blx_xfer_member(x, t->parent[rel]);

    for (int i = 0; parent >= 0 && i < nseg; i++) {
        size_t off = segment(x, seg, i, &len);
        blx_irecv(e, x->buf + off, len, parent, &recv[i]);
    }
    for (int i = 0; i < nseg; i++) {
        size_t off = segment(x, seg, i, &len);
        if (parent >= 0)
            blx_wait(e, &recv[i]);
        for (int k = 0; k < nkids; k++)
            blx_isend(e, x->buf + off, len, blx_xfer_member(x, kids[k]), &send[nsend++]);
    }
    blx_waitall(e, nsend, send);
    if (req != stack)
        free(req);
}

/* Fan-in buffers: arrival-order folding keeps up to this many bytes of
 * children's contributions in flight at once. */
#define FANIN_BUDGET ((size_t)8 << 20)

/* Receives the children's contributions to one segment and folds them into
 * acc.  Every receive names its child (never MPI_ANY_SOURCE), so pieces of
 * different children, segments and operations cannot be confused whatever
 * their message IDs.  In a fixed order (repeatable), one child after the
 * other into one buffer; otherwise up to 'window' receives are posted at
 * once, each into its own slot, and folded in the order they complete. */
static void fold_children(const blx_xfer *x, const int *kids, int nkids, char *acc, char *tmp, size_t slot,
                          size_t len, int window, blx_req *rreq)
{
    const blx_ep *e = &x->ep;
    if (x->ordered || window == 1) {
        for (int k = 0; k < nkids; k++) {
            blx_recv(e, tmp, len, blx_xfer_member(x, kids[k]));
            x->merge(x->op, acc, tmp, len, 0);
        }
        return;
    }
    int posted = 0;
    for (int w = 0; w < window; w++)
        blx_irecv(e, tmp + (size_t)w * slot, len, blx_xfer_member(x, kids[posted++]), &rreq[w]);
    for (int done = 0; done < nkids; done++) {
        int w = blx_waitany(e, window, rreq);
        x->merge(x->op, acc, tmp + (size_t)w * slot, len, 0);
        if (posted < nkids) /* the slot takes the next child */
            blx_irecv(e, tmp + (size_t)w * slot, len, blx_xfer_member(x, kids[posted++]), &rreq[w]);
    }
}

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->bytes, x->ep.ctxt, x->ep.routine);
    memcpy(w, x->buf, x->bytes);
    x->buf = w;
    x->readonly = 0;
}

/* Segments of a combine hold whole elements; a located buffer (unit 0) is
 * merged whole, within the byte layer's largest message. */
static int combine_segments(const blx_xfer *x, size_t *seg)
{
    if (x->unit == 0) {
        if (x->bytes > BLX_MAX_MSG)
            blx_fatal(x->ep.ctxt, x->ep.routine,
                      "a combine with locations of %zu bytes is larger than this library's 1 GiB "
                      "limit for them",
                      x->bytes);
        *seg = x->bytes;
        return 1;
    }
    int nseg = segments(x);
    size_t s = (x->bytes + (size_t)nseg - 1) / (size_t)nseg;
    s = (s + x->unit - 1) / x->unit * x->unit;
    nseg = s ? (int)((x->bytes + s - 1) / s) : 1;
    *seg = s;
    return nseg < 1 ? 1 : nseg;
}

void blx_tree_combine(const blx_xfer *xin)
{
    blx_xfer own = *xin, *x = &own;
    const blx_tree *t = x->tree;
    const blx_ep *e = &x->ep;
    int rel = blx_xfer_rel(x);
    int nkids = blx_tree_nkids(t, rel);
    const int *kids = blx_tree_kids(t, rel);
    int parent = rel == 0 ? -1 : blx_xfer_member(x, t->parent[rel]);
    if (x->readonly && nkids > 0) /* a leaf only sends: no copy */
        blx_xfer_own(x);
    size_t seg, len;
    int nseg = combine_segments(x, &seg);

    /* receive slots: as many children at once as the budget allows */
    int window = 1;
    if (nkids > 1 && !x->ordered) {
        size_t fit = FANIN_BUDGET / (seg ? seg : 1);
        window = fit < 2 ? 2 : (fit > (size_t)nkids ? nkids : (int)fit);
    }
    /* slots start on 64-byte boundaries: a located buffer's length need not
     * keep the values that follow it aligned */
    size_t slot = (seg + 63) / 64 * 64;
    size_t tmpbytes = nkids == 0 ? 0 : (size_t)window * slot;
    _Alignas(64) char stackbuf[1024];
    char *tmp = stackbuf;
    if (tmpbytes > sizeof stackbuf)
        tmp = blx_scratch(BLX_SCRATCH_TMP, tmpbytes, e->ctxt, e->routine);
    blx_req stack[STACK_REQS];
    blx_req *req = reqs(x, stack, window + nseg), *rreq = req, *sreq = req + window;

    int nsend = 0;
    for (int i = 0; i < nseg; i++) {
        size_t off = segment(x, seg, i, &len);
        if (nkids > 0)
            fold_children(x, kids, nkids, x->buf + off, tmp, slot, len, window, rreq);
        if (parent >= 0)
            blx_isend(e, x->buf + off, len, parent, &sreq[nsend++]);
    }
    blx_waitall(e, nsend, sreq);
    if (req != stack)
        free(req);

    if (x->leave_on_all) {
        blx_xfer spread = *x;
        spread.tree = x->rebcast;
        spread.ep.tag = x->rebcast_tag;
        blx_tree_bcast(&spread);
    }
}

int blx_fold_in(const blx_xfer *x, char *tmp, int *pp)
{
    const blx_ep *e = &x->ep;
    int np = e->np, me = blx_xfer_rel(x), p = 1;
    while (p * 2 <= np)
        p *= 2;
    *pp = p;
    if (me >= p) { /* give my vector away; for leave-on-all, wait for the answer */
        blx_send(e, x->buf, x->bytes, blx_xfer_member(x, me - p));
        if (x->leave_on_all)
            blx_recv(e, x->buf, x->bytes, blx_xfer_member(x, me - p));
        return 0;
    }
    if (me < np - p) {
        blx_recv(e, tmp, x->bytes, blx_xfer_member(x, me + p));
        x->merge(x->op, x->buf, tmp, x->bytes, 0);
    }
    return 1;
}

void blx_fold_out(const blx_xfer *x, int p)
{
    int me = blx_xfer_rel(x);
    if (x->leave_on_all && me < x->ep.np - p)
        blx_send(&x->ep, x->buf, x->bytes, blx_xfer_member(x, me + p));
}
