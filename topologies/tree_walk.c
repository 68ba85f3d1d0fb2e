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
    size_t least = (x->bytes + BLX_MAX_MSG - 1) / BLX_MAX_MSG; /* MPI counts are int */
    return (int)(n > least ? n : least);
}

static void check(const blx_xfer *x, int rc, const char *call)
{
    blx_check_mpi(x->ctx->handle, x->routine, rc, call);
}

void blx_tree_bcast(const blx_xfer *x)
{
    const blx_tree *t = x->tree;
    const blx_scope *s = x->scope;
    int rel = (s->me - x->root + s->np) % s->np;
    int nkids = blx_tree_nkids(t, rel);
    const int *kids = blx_tree_kids(t, rel);
    int nseg = segments(x);
    size_t seg = (x->bytes + (size_t)nseg - 1) / (size_t)nseg;
    MPI_Comm comm = x->ctx->comm;

    int nreq = nseg * (nkids + 1);
    MPI_Request stack[STACK_REQS], *req = stack;
    if (nreq > STACK_REQS && (req = malloc((size_t)nreq * sizeof *req)) == NULL)
        blx_fatal(x->ctx->handle, x->routine, "out of memory for %d MPI requests", nreq);
    MPI_Request *recv = req, *send = req + nseg;
    int nsend = 0, parent = rel == 0 ? -1 : blx_xfer_rank(x, t->parent[rel]);

    if (parent >= 0)
        for (int i = 0; i < nseg; i++) {
            size_t off = (size_t)i * seg, len = off < x->bytes ? x->bytes - off : 0;
            len = len < seg ? len : seg;
            check(x, MPI_Irecv(x->buf + off, (int)len, MPI_BYTE, parent, x->tag, comm, &recv[i]),
                  "MPI_Irecv");
        }
    for (int i = 0; i < nseg; i++) {
        size_t off = (size_t)i * seg, len = off < x->bytes ? x->bytes - off : 0;
        len = len < seg ? len : seg;
        if (parent >= 0) {
            MPI_Status st;
            int rc = MPI_Wait(&recv[i], &st);
            blx_recv_check(x->ctx, x->routine, rc, &st, len, parent);
        }
        for (int k = 0; k < nkids; k++)
            check(x, MPI_Isend(x->buf + off, (int)len, MPI_BYTE, blx_xfer_rank(x, kids[k]), x->tag, comm,
                               &send[nsend++]),
                  "MPI_Isend");
    }
    check(x, MPI_Waitall(nsend, send, MPI_STATUSES_IGNORE), "MPI_Waitall");
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
static void fold_children(const blx_xfer *x, const int *kids, int nkids, char *acc, char *tmp,
                          size_t slot, size_t len, int window, MPI_Request *rreq, int *who)
{
    MPI_Comm comm = x->ctx->comm;
    MPI_Status st;
    if (x->ordered || window == 1) {
        for (int k = 0; k < nkids; k++) {
            int src = blx_xfer_rank(x, kids[k]);
            int rc = MPI_Recv(tmp, (int)len, MPI_BYTE, src, x->tag, comm, &st);
            blx_recv_check(x->ctx, x->routine, rc, &st, len, src);
            x->merge(x->op, acc, tmp, len, 0);
        }
        return;
    }
    int posted = 0;
    for (int w = 0; w < window; w++) {
        who[w] = blx_xfer_rank(x, kids[posted++]);
        blx_check_mpi(x->ctx->handle, x->routine,
                      MPI_Irecv(tmp + (size_t)w * slot, (int)len, MPI_BYTE, who[w], x->tag, comm, &rreq[w]),
                      "MPI_Irecv");
    }
    for (int done = 0; done < nkids; done++) {
        int w = 0;
        int rc = MPI_Waitany(window, rreq, &w, &st);
        blx_recv_check(x->ctx, x->routine, rc, &st, len, who[w]);
        x->merge(x->op, acc, tmp + (size_t)w * slot, len, 0);
        if (posted < nkids) { /* the slot takes the next child */
            who[w] = blx_xfer_rank(x, kids[posted++]);
            blx_check_mpi(x->ctx->handle, x->routine,
                          MPI_Irecv(tmp + (size_t)w * slot, (int)len, MPI_BYTE, who[w], x->tag, comm, &rreq[w]),
                          "MPI_Irecv");
        }
    }
}

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->bytes, x->ctx->handle, x->routine);
    memcpy(w, x->buf, x->bytes);
    x->buf = w;
    x->readonly = 0;
}

void blx_tree_combine(const blx_xfer *xin)
{
    blx_xfer own = *xin, *x = &own;
    const blx_tree *t = x->tree;
    const blx_scope *s = x->scope;
    int rel = (s->me - x->root + s->np) % s->np;
    int nkids = blx_tree_nkids(t, rel);
    const int *kids = blx_tree_kids(t, rel);
    int parent = rel == 0 ? -1 : blx_xfer_rank(x, t->parent[rel]);
    if (x->readonly && nkids > 0) /* a leaf only sends: no copy */
        blx_xfer_own(x);

    /* Segments must hold whole elements; a located buffer is merged whole. */
    int nseg = 1;
    size_t seg = x->bytes;
    if (x->unit) {
        nseg = segments(x);
        seg = (x->bytes + (size_t)nseg - 1) / (size_t)nseg;
        seg = (seg + x->unit - 1) / x->unit * x->unit;
        nseg = seg ? (int)((x->bytes + seg - 1) / seg) : 1;
        nseg = nseg < 1 ? 1 : nseg;
    } else if (x->bytes > BLX_MAX_MSG) {
        blx_fatal(x->ctx->handle, x->routine,
                  "a combine with locations of %zu bytes is larger than this library's 1 GiB "
                  "limit for them",
                  x->bytes);
    }

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
    MPI_Request stack[STACK_REQS], *req = stack;
    int whostack[STACK_REQS], *who = whostack;
    int nreq = window + nseg;
    if (tmpbytes > sizeof stackbuf)
        tmp = blx_scratch(BLX_SCRATCH_TMP, tmpbytes, x->ctx->handle, x->routine);
    if (nreq > STACK_REQS) {
        req = malloc((size_t)nreq * sizeof *req);
        who = malloc((size_t)nreq * sizeof *who);
        if (req == NULL || who == NULL)
            blx_fatal(x->ctx->handle, x->routine, "out of memory for %d MPI requests", nreq);
    }
    MPI_Request *rreq = req, *sreq = req + window;

    int nsend = 0;
    for (int i = 0; i < nseg; i++) {
        size_t off = (size_t)i * seg, len = off < x->bytes ? x->bytes - off : 0;
        len = len < seg ? len : seg;
        if (nkids > 0)
            fold_children(x, kids, nkids, x->buf + off, tmp, slot, len, window, rreq, who);
        if (parent >= 0)
            blx_check_mpi(x->ctx->handle, x->routine,
                          MPI_Isend(x->buf + off, (int)len, MPI_BYTE, parent, x->tag, x->ctx->comm, &sreq[nsend++]),
                          "MPI_Isend");
    }
    blx_check_mpi(x->ctx->handle, x->routine, MPI_Waitall(nsend, sreq, MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (req != stack) {
        free(req);
        free(who);
    }

    if (x->leave_on_all) {
        blx_xfer spread = *x;
        spread.tree = x->rebcast;
        spread.tag = x->rebcast_tag;
        blx_tree_bcast(&spread);
    }
}

int blx_fold_in(const blx_xfer *x, char *tmp, int *pp)
{
    int np = x->scope->np, me = (x->scope->me - x->root + np) % np, p = 1;
    while (p * 2 <= np)
        p *= 2;
    *pp = p;
    if (me >= p) { /* give my vector away; for leave-on-all, wait for the answer */
        blx_send_bytes(x->ctx, x->routine, x->buf, x->bytes, blx_xfer_rank(x, me - p), x->tag);
        if (x->leave_on_all)
            blx_recv_bytes(x->ctx, x->routine, x->buf, x->bytes, blx_xfer_rank(x, me - p), x->tag);
        return 0;
    }
    if (me < np - p) {
        blx_recv_bytes(x->ctx, x->routine, tmp, x->bytes, blx_xfer_rank(x, me + p), x->tag);
        x->merge(x->op, x->buf, tmp, x->bytes, 0);
    }
    return 1;
}

void blx_fold_out(const blx_xfer *x, int p)
{
    int np = x->scope->np, me = (x->scope->me - x->root + np) % np;
    if (x->leave_on_all && me < np - p)
        blx_send_bytes(x->ctx, x->routine, x->buf, x->bytes, blx_xfer_rank(x, me + p), x->tag);
}
