/*
 * blacs/p2p.c - point-to-point: vGESD2D, vGERV2D, vTRSD2D, vTRRV2D.
 *
 * A send packs the matrix into the ready buffer and starts non-blocking
 * sends from it (buffers/queue.h, buffers/bytes.h): it returns at once,
 * whatever the size, so the exchange of LAWN 73 figure 3 (both send, then
 * both receive) cannot hang.  Long messages travel in pieces, and each piece
 * leaves as soon as it is packed, so copying the matrix overlaps with moving
 * it; the receiver takes the pieces in order, straight into A when A is
 * contiguous, else into work space, unpacking each piece while the next one
 * arrives.  Tags come from the pair's counters (msgid/).
 *
 * A receive from any source (vGERVA2D, vTRRVA2D: LAWN 73 section 7.1.2)
 * knows the ID of every candidate's next message from the counters, waits
 * until one of those messages has arrived, and then receives from its
 * sender by name, as vGERV2D would: so it takes only point-to-point messages
 * (broadcasts and combines carry IDs of other ranges), it takes each
 * sender's messages in the order they were sent, and the counters stay in
 * step for the named receives that follow.
 *
 *   cost: a two-stage pipeline (copy, move) of k pieces: with model.h's
 *   L = 2, D = 1 the piece size is sqrt(n alpha / beta), and the time about
 *   n beta + 2 sqrt(n alpha beta) + alpha instead of 2 n beta + alpha.
 */
#include <stdlib.h>

#include "internal.h"
#include "threads.h"
#include "watch.h"

/* How a message of n bytes between two members of grid c is cut: the same
 * on both sides (the grid's model), non-decreasing in n (blx_cut_make). */
static blx_cut p2p_cut(const blx_ctx *c, size_t n)
{
    blx_plan plan = blx_model_chain_plan(&c->model, 2, n, 1);
    return blx_cut_make(n, plan.piece, 1);
}

void blx_send_matrix(const blx_call *call, int ctxt, const char *uplo, const char *diag, int64_t m, int64_t n,
                     const void *A, int64_t lda, int rdest, int cdest)
{
    blx_thread_enter(ctxt, call->name);
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int dest = blx_coord_arg(c, call, "RDEST", rdest, "CDEST", cdest);
    size_t bytes = blx_shape_bytes(&s);
    blx_ptr_arg(c, call, "A", A, bytes > 0);

    blx_doing *d = blx_doing_matrix(call, ctxt, 's', &s, rdest, cdest);
    int described = c->check != MPI_COMM_NULL; /* level 3: a description goes first */
    size_t at = (bytes + 63) / 64 * 64;
    blx_buf *b = blx_buf_take(described ? at + blx_agree_header_bytes() : bytes, ctxt, call->name);
    blx_ep e = blx_grid_ep(c, blx_msgid_next_send(&c->ids, c->vpid, dest), call->name);
    if (described)
        blx_agree_send(c, call, &s, b, at, dest, e.tag);
    if (d != NULL)
        d->tag = e.tag;
    blx_cut cut = p2p_cut(c, bytes);
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        blx_pack_part(&s, A, b->data + off, off, len);
        blx_send_piece_buffered(&e, b, off, len, dest);
    }
    blx_buf_activate(b);
    blx_doing_done(d, bytes, NULL);
    blx_thread_leave();
}

/* The receive itself, once the source (vpid src, at {rsrc, csrc}) is known. */
static void recv_from(blx_ctx *c, const blx_call *call, const blx_shape *s, void *A, int src, int rsrc,
                      int csrc)
{
    size_t bytes = blx_shape_bytes(s);
    blx_ep e = blx_grid_ep(c, blx_msgid_next_recv(&c->ids, src), call->name);
    blx_doing *d = blx_doing_matrix(call, c->handle, 'r', s, rsrc, csrc);
    if (d != NULL)
        d->tag = e.tag;
    if (src == c->vpid && blx_debug_polls())
        blx_watch_self_receive(c, call, e.tag);
    if (c->check != MPI_COMM_NULL)
        blx_agree_recv(c, call, s, src, e.tag);

    int packed = !blx_shape_contiguous(s);
    char *buf = packed ? blx_scratch(BLX_SCRATCH_DATA, bytes, c->handle, call->name) : A;
    blx_cut cut = p2p_cut(c, bytes);
    blx_req stack[16], *r = cut.k <= 16 ? stack : malloc((size_t)cut.k * sizeof *r);
    if (r == NULL)
        blx_fatal(c->handle, call->name, "out of memory for %d receives", cut.k);
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        blx_irecv_piece(&e, buf + off, &cut, i, src, &r[i]);
    }
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        blx_wait(&e, &r[i]);
        if (packed)
            blx_unpack_part(s, buf + off, A, off, len);
    }
    if (r != stack)
        free(r);
    blx_doing_done(d, bytes, NULL);
}

void blx_recv_matrix(const blx_call *call, int ctxt, const char *uplo, const char *diag, int64_t m, int64_t n,
                     void *A, int64_t lda, int rsrc, int csrc)
{
    blx_thread_enter(ctxt, call->name);
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int src = blx_coord_arg(c, call, "RSRC", rsrc, "CSRC", csrc);
    blx_ptr_arg(c, call, "A", A, blx_shape_bytes(&s) > 0);
    recv_from(c, call, &s, A, src, rsrc, csrc);
    blx_thread_leave();
}

/* Which process's next message to this one has arrived first, among the
 * processes *rsrc, *csrc allow (-1: any row, any column).  Every candidate's
 * next message ID is known from the counters; the byte layer looks for the
 * first of those messages to arrive. */
static int first_arrived(blx_ctx *c, const blx_call *call, int rsrc, int csrc)
{
    int ng = c->nprow * c->npcol, stack[64];
    int *tags = ng <= 64 ? stack : malloc((size_t)ng * sizeof *tags);
    if (tags == NULL)
        blx_fatal(c->handle, call->name, "out of memory for %d message IDs", ng);
    for (int g = 0; g < ng; g++) {
        int row = g / c->npcol, col = g % c->npcol;
        int candidate = (rsrc < 0 || row == rsrc) && (csrc < 0 || col == csrc);
        tags[g] = candidate ? blx_msgid_peek_recv(&c->ids, g) : -1;
    }
    blx_ep e = blx_grid_ep(c, -1, call->name);
    int src = blx_probe_first(&e, tags);
    if (tags != stack)
        free(tags);
    return src;
}

void blx_recv_any(const blx_call *call, int ctxt, const char *uplo, const char *diag, int64_t m, int64_t n,
                  void *A, int64_t lda, blacs_int *rsrc, blacs_int *csrc)
{
    blx_thread_enter(ctxt, call->name);
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    blx_ptr_arg(c, call, "RSRC", rsrc, 1);
    blx_ptr_arg(c, call, "CSRC", csrc, 1);
    if (*rsrc != -1 && (*rsrc < 0 || *rsrc >= c->nprow))
        blx_fatal(ctxt, call->name, "RSRC = %lld must be -1 (any row) or a row of the %d x %d grid (0..%d)",
                  (long long)*rsrc, c->nprow, c->npcol, c->nprow - 1);
    if (*csrc != -1 && (*csrc < 0 || *csrc >= c->npcol))
        blx_fatal(ctxt, call->name,
                  "CSRC = %lld must be -1 (any column) or a column of the %d x %d grid (0..%d)",
                  (long long)*csrc, c->nprow, c->npcol, c->npcol - 1);
    int row = (int)*rsrc, col = (int)*csrc;
    blx_ptr_arg(c, call, "A", A, blx_shape_bytes(&s) > 0);

    blx_doing *d = blx_doing_matrix(call, ctxt, 'r', &s, row, col);
    int src = first_arrived(c, call, row, col);
    if (d != NULL)
        blx_doing_end();
    *rsrc = src / c->npcol;
    *csrc = src % c->npcol;
    recv_from(c, call, &s, A, src, *rsrc, *csrc);
    blx_thread_leave();
}
