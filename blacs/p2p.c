/*
 * blacs/p2p.c - point-to-point: vGESD2D, vGERV2D, vTRSD2D, vTRRV2D, and the
 * byte-message layer under every BLACS data movement.
 *
 * A send packs the matrix into the ready buffer and starts MPI_Isend from it
 * (buffers/queue.h): it returns at once, whatever the size, so the exchange
 * of LAWN 73 figure 3 (both send, then both receive) cannot hang.  A receive
 * blocks; a contiguous matrix is received straight into A, anything else into
 * a buffer and unpacked.  Tags come from the pair's counters (msgid/).
 */

#include "../buffers/queue.h"
#include "internal.h"

/* Data of 'bytes' travel as this many MPI messages (at least one, so that
 * an empty matrix is still a message), each at most BLX_MAX_MSG. */
static size_t nchunks(size_t bytes) { return bytes == 0 ? 1 : (bytes + BLX_MAX_MSG - 1) / BLX_MAX_MSG; }

/* Chunk i of 'bytes': its length (as an MPI count) and its offset. */
static int chunk(size_t bytes, size_t i, size_t *off)
{
    *off = i * BLX_MAX_MSG;
    size_t left = bytes - *off;
    return (int)(left < BLX_MAX_MSG ? left : BLX_MAX_MSG);
}

void blx_isend_bytes(const blx_ctx *c, const char *routine, const void *buf, size_t bytes,
                     int dest, int tag, blx_buf *b)
{
    for (size_t i = 0, n = nchunks(bytes); i < n; i++) {
        size_t off;
        int len = chunk(bytes, i, &off);
        blx_check_mpi(c->handle, routine,
                      MPI_Isend((const char *)buf + off, len, MPI_BYTE, dest, tag, c->comm,
                                blx_buf_request(b, c->handle, routine)),
                      "MPI_Isend");
    }
}

void blx_recv_check(const blx_ctx *c, const char *routine, int rc, const MPI_Status *st,
                    size_t expected, int src)
{
    int got = -1;
    if (rc == MPI_SUCCESS)
        MPI_Get_count(st, MPI_BYTE, &got);
    if (rc == MPI_SUCCESS && (size_t)got == expected)
        return;
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (rc != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE)
        blx_fatal_mpi(c->handle, routine, rc, "MPI_Recv");
    blx_fatal(c->handle, routine,
              "the message from process {%d,%d} %s the %zu bytes this call expects: "
              "sender and receiver must describe the same number of elements and type",
              src / c->npcol, src % c->npcol, got < 0 ? "is longer than" : "does not match",
              expected);
}

void blx_recv_bytes(const blx_ctx *c, const char *routine, void *buf, size_t bytes, int src,
                    int tag)
{
    blx_sendrecv_bytes(c, routine, NULL, 0, -1, buf, bytes, src, tag);
}

void blx_send_bytes(const blx_ctx *c, const char *routine, const void *buf, size_t bytes, int dest,
                    int tag)
{
    blx_sendrecv_bytes(c, routine, buf, bytes, dest, NULL, 0, -1, tag);
}

void blx_sendrecv_bytes(const blx_ctx *c, const char *routine, const void *out, size_t outbytes,
                        int dest, void *in, size_t inbytes, int src, int tag)
{
    size_t ns = dest < 0 ? 0 : nchunks(outbytes), nr = src < 0 ? 0 : nchunks(inbytes);
    for (size_t i = 0; i < ns || i < nr; i++) {
        /* the receive is posted first, so the incoming data need not wait */
        MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        MPI_Status st[2];
        size_t off;
        int rlen = 0;
        if (i < nr) {
            rlen = chunk(inbytes, i, &off);
            blx_check_mpi(c->handle, routine, MPI_Irecv((char *)in + off, rlen, MPI_BYTE, src, tag, c->comm, &req[0]),
                          "MPI_Irecv");
        }
        if (i < ns) {
            int len = chunk(outbytes, i, &off);
            blx_check_mpi(c->handle, routine,
                          MPI_Isend((const char *)out + off, len, MPI_BYTE, dest, tag, c->comm, &req[1]),
                          "MPI_Isend");
        }
        int rc = MPI_Waitall(2, req, st);
        if (rc == MPI_ERR_IN_STATUS) { /* each request says how it ended */
            if (i < ns)
                blx_check_mpi(c->handle, routine, st[1].MPI_ERROR, "MPI_Isend");
            rc = st[0].MPI_ERROR;
        }
        if (i < nr)
            blx_recv_check(c, routine, rc, &st[0], (size_t)rlen, src);
        else
            blx_check_mpi(c->handle, routine, rc, "MPI_Isend");
    }
}

void blx_send(const blx_call *call, int ctxt, const char *uplo, const char *diag, int m, int n,
              const void *A, int lda, int rdest, int cdest)
{
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int dest = blx_coord_arg(c, call, "RDEST", rdest, "CDEST", cdest);
    size_t bytes = blx_shape_bytes(&s);
    blx_ptr_arg(c, call, "A", A, bytes > 0);

    blx_buf *b = blx_buf_take(bytes, ctxt, call->name);
    blx_pack(&s, A, b->data);
    int tag = blx_msgid_next_send(&c->ids, c->vpid, dest);
    blx_isend_bytes(c, call->name, b->data, bytes, dest, tag, b);
    blx_buf_activate(b);
}

void blx_recv(const blx_call *call, int ctxt, const char *uplo, const char *diag, int m, int n,
              void *A, int lda, int rsrc, int csrc)
{
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_shape s = blx_shape_arg(c, call, uplo, diag, m, n, lda);
    int src = blx_coord_arg(c, call, "RSRC", rsrc, "CSRC", csrc);
    size_t bytes = blx_shape_bytes(&s);
    blx_ptr_arg(c, call, "A", A, bytes > 0);
    int tag = blx_msgid_next_recv(&c->ids, src);

    if (blx_shape_contiguous(&s)) {
        blx_recv_bytes(c, call->name, A, bytes, src, tag);
        return;
    }
    void *buf = blx_scratch(BLX_SCRATCH_DATA, bytes, ctxt, call->name);
    blx_recv_bytes(c, call->name, buf, bytes, src, tag);
    blx_unpack(&s, buf, A);
}
