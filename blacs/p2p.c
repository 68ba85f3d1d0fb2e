/*
 * blacs/p2p.c - point-to-point: vGESD2D, vGERV2D, vTRSD2D, vTRRV2D.
 *
 * A send packs the matrix into the ready buffer and starts non-blocking
 * sends from it (buffers/queue.h, buffers/bytes.h): it returns at once,
 * whatever the size, so the exchange of LAWN 73 figure 3 (both send, then
 * both receive) cannot hang.  A receive blocks; a contiguous matrix is
 * received straight into A, anything else into a buffer and unpacked.  Tags
 * come from the pair's counters (msgid/).
 */
#include "internal.h"

void blx_send_matrix(const blx_call *call, int ctxt, const char *uplo, const char *diag, int m, int n,
                     const void *A, int lda, int rdest, int cdest)
{
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int dest = blx_coord_arg(c, call, "RDEST", rdest, "CDEST", cdest);
    size_t bytes = blx_shape_bytes(&s);
    blx_ptr_arg(c, call, "A", A, bytes > 0);

    blx_buf *b = blx_buf_take(bytes, ctxt, call->name);
    blx_pack(&s, A, b->data);
    blx_ep e = blx_grid_ep(c, blx_msgid_next_send(&c->ids, c->vpid, dest), call->name);
    blx_send_buffered(&e, b, bytes, dest);
}

void blx_recv_matrix(const blx_call *call, int ctxt, const char *uplo, const char *diag, int m, int n,
                     void *A, int lda, int rsrc, int csrc)
{
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int src = blx_coord_arg(c, call, "RSRC", rsrc, "CSRC", csrc);
    size_t bytes = blx_shape_bytes(&s);
    blx_ptr_arg(c, call, "A", A, bytes > 0);
    blx_ep e = blx_grid_ep(c, blx_msgid_next_recv(&c->ids, src), call->name);

    if (blx_shape_contiguous(&s)) {
        blx_recv(&e, A, bytes, src);
        return;
    }
    void *buf = blx_scratch(BLX_SCRATCH_DATA, bytes, ctxt, call->name);
    blx_recv(&e, buf, bytes, src);
    blx_unpack(&s, buf, A);
}
