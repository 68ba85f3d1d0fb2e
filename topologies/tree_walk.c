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
 */
#include <stdlib.h>

#include "topology.h"

#define SEG_MIN ((size_t)64 << 10)
#define MAX_SEG 64
#define MAX_MSG ((size_t)1 << 30) /* MPI counts are int: no segment above 1 GiB */
#define STACK_REQS 32

static int segments(const blx_xfer *x)
{
    size_t n = 1;
    if (x->tree->depth > 2 && x->bytes > 2 * SEG_MIN) {
        n = (x->bytes + SEG_MIN - 1) / SEG_MIN;
        n = n > MAX_SEG ? MAX_SEG : n;
    }
    size_t least = (x->bytes + MAX_MSG - 1) / MAX_MSG;
    return (int)(n > least ? n : least);
}

static void check(const blx_xfer *x, int rc, const char *call)
{
    if (rc != MPI_SUCCESS)
        blx_fatal_mpi(x->ctx->handle, x->routine, rc, call);
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

/* Receives the contributions of the children for one segment and folds them
 * into acc.  One segment and arrival order: any child, one buffer.  Several
 * segments (or a fixed order): a receive per child, so that the pieces of
 * different children and segments can never be confused. */
static void fold_children(const blx_xfer *x, const int *kids, int nkids, char *acc, char *tmp,
                          size_t slot, size_t len, int nseg, MPI_Request *rreq)
{
    MPI_Comm comm = x->ctx->comm;
    MPI_Status st;
    if (nseg == 1 && !x->ordered) {
        for (int k = 0; k < nkids; k++) {
            int rc = MPI_Recv(tmp, (int)len, MPI_BYTE, MPI_ANY_SOURCE, x->tag, comm, &st);
            blx_recv_check(x->ctx, x->routine, rc, &st, len, rc == MPI_SUCCESS ? st.MPI_SOURCE : 0);
            x->merge(x->op, acc, tmp, len, 0);
        }
        return;
    }
    if (nseg == 1) { /* fixed order, one buffer */
        for (int k = 0; k < nkids; k++) {
            int src = blx_xfer_rank(x, kids[k]);
            int rc = MPI_Recv(tmp, (int)len, MPI_BYTE, src, x->tag, comm, &st);
            blx_recv_check(x->ctx, x->routine, rc, &st, len, src);
            x->merge(x->op, acc, tmp, len, 0);
        }
        return;
    }
    for (int k = 0; k < nkids; k++)
        check(x, MPI_Irecv(tmp + (size_t)k * slot, (int)len, MPI_BYTE, blx_xfer_rank(x, kids[k]), x->tag,
                           comm, &rreq[k]),
              "MPI_Irecv");
    for (int c = 0; c < nkids; c++) {
        int k = c, rc;
        if (x->ordered)
            rc = MPI_Wait(&rreq[k], &st);
        else
            rc = MPI_Waitany(nkids, rreq, &k, &st);
        blx_recv_check(x->ctx, x->routine, rc, &st, len, blx_xfer_rank(x, kids[k < 0 ? 0 : k]));
        x->merge(x->op, acc, tmp + (size_t)k * slot, len, 0);
    }
}

void blx_tree_combine(const blx_xfer *x)
{
    const blx_tree *t = x->tree;
    const blx_scope *s = x->scope;
    int rel = (s->me - x->root + s->np) % s->np;
    int nkids = blx_tree_nkids(t, rel);
    const int *kids = blx_tree_kids(t, rel);
    int parent = rel == 0 ? -1 : blx_xfer_rank(x, t->parent[rel]);

    /* Segments must hold whole elements; a located buffer is merged whole. */
    int nseg = 1;
    size_t seg = x->bytes;
    if (x->unit) {
        nseg = segments(x);
        seg = (x->bytes + (size_t)nseg - 1) / (size_t)nseg;
        seg = (seg + x->unit - 1) / x->unit * x->unit;
        nseg = seg ? (int)((x->bytes + seg - 1) / seg) : 1;
        nseg = nseg < 1 ? 1 : nseg;
    } else if (x->bytes > MAX_MSG) {
        blx_fatal(x->ctx->handle, x->routine,
                  "a combine with locations of %zu bytes is larger than this library's 1 GiB "
                  "limit for them",
                  x->bytes);
    }

    size_t slots = nkids == 0 ? 0 : (nseg == 1 ? 1 : (size_t)nkids);
    size_t tmpbytes = slots * seg;
    char stackbuf[1024], *tmp = stackbuf;
    MPI_Request stack[STACK_REQS], *req = stack;
    int nreq = nkids + nseg;
    if (tmpbytes > sizeof stackbuf)
        tmp = blx_scratch(tmpbytes, x->ctx->handle, x->routine);
    if (nreq > STACK_REQS && (req = malloc((size_t)nreq * sizeof *req)) == NULL)
        blx_fatal(x->ctx->handle, x->routine, "out of memory for %d MPI requests", nreq);
    MPI_Request *rreq = req, *sreq = req + nkids;

    int nsend = 0;
    for (int i = 0; i < nseg; i++) {
        size_t off = (size_t)i * seg, len = off < x->bytes ? x->bytes - off : 0;
        len = len < seg ? len : seg;
        if (nkids > 0)
            fold_children(x, kids, nkids, x->buf + off, tmp, seg, len, nseg, rreq);
        if (parent >= 0)
            check(x, MPI_Isend(x->buf + off, (int)len, MPI_BYTE, parent, x->tag, x->ctx->comm,
                               &sreq[nsend++]),
                  "MPI_Isend");
    }
    check(x, MPI_Waitall(nsend, sreq, MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (req != stack)
        free(req);

    if (x->leave_on_all) {
        blx_xfer spread = *x;
        spread.tree = x->rebcast;
        spread.tag = x->rebcast_tag;
        blx_tree_bcast(&spread);
    }
}
