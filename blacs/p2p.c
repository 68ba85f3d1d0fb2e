/*
 * blacs/p2p.c - point-to-point: vGESD2D, vGERV2D, vTRSD2D, vTRRV2D.
 *
 * A send is locally blocking: it returns once A may be reused, whatever the
 * receiver does, so the exchange of LAWN 73 figure 3 (both send, then both
 * receive) cannot hang.  A message travels one of two ways:
 *
 *  - Buffered: the send packs the matrix into the ready buffer and starts
 *    non-blocking sends from it (buffers/queue.h, buffers/bytes.h), then
 *    returns.  Long messages travel in pieces, and each piece leaves as soon
 *    as it is packed, so copying the matrix overlaps with moving it; the
 *    receiver takes the pieces in order, straight into A when A is
 *    contiguous, else into work space, unpacking each piece while the next
 *    one arrives.
 *  - Straight from A, for long messages (BLX_P2P_DIRECT_MIN and up) to a
 *    receiver that is already waiting: a receiver of such a message posts
 *    the pieces' receives and, on the grid's second channel (side), a
 *    receive of the whole message, and then says it is ready (an empty
 *    message on side with the message's ID).  A sender whose A is
 *    contiguous and who finds that note sends A as one message on side and
 *    waits for it: the receive is posted, so the wait ends, and nothing is
 *    copied.  The receiver takes whichever comes first, the whole message
 *    or the first piece, and withdraws the other receives.  A sender that
 *    finds no note, or whose receiver has already sent it a message it has
 *    not received (an exchange: the receiver would wait while this process
 *    waits for its copy), sends buffered, and its buffer stays active until
 *    the note arrives, so every note is received.
 *
 * Tags come from the pair's counters (msgid/), the same on both channels;
 * a note travels the other way than its message, which is why the side
 * channel needs subranges of its own per source (p2p_stride > 0).  A
 * receiver expecting another size than was sent gets the clear error of a
 * size mismatch on either way: a piece or the whole message of another
 * length than it expects (bytes.h).
 *
 * A receive from any source (vGERVA2D, vTRRVA2D: LAWN 73 section 7.1.2)
 * knows the ID of every candidate's next message from the counters, waits
 * until one of those messages has arrived, and then receives from its
 * sender by name, as vGERV2D would: so it takes only point-to-point messages
 * (broadcasts and combines carry IDs of other ranges), it takes each
 * sender's messages in the order they were sent, and the counters stay in
 * step for the named receives that follow.  (Its senders find no note and
 * send buffered.)
 *
 *   cost: buffered, a two-stage pipeline (copy, move) of k pieces, each
 *   costing alpha + o (o: what a piece costs beyond alpha, PIECE_ALPHAS
 *   alphas: each piece is a rendezvous): with model.h's L = 2, D = 1 the
 *   piece size is sqrt(n (alpha + o) / beta), and the time about n beta +
 *   2 sqrt(n (alpha + o) beta) + alpha.
 *   Straight from A: alpha (the note) + alpha + n beta, one copy (MPI's).
 *   A sender waits for the note at most 1 alpha (NOTE_WAIT_ALPHAS; not at
 *   all with more processes than processors, overlap = 0, where waiting
 *   keeps the receiver off the core): a sender whose receiver is late loses
 *   that alpha, and one whose receiver is a moment from ready (an echo: the
 *   reply's receiver is finishing its send) saves the copy and the pieces.
 *   (Waiting 4 alpha cost an exchange of 64 KiB 30%; waiting n beta / 10,
 *   20-27% at 1 MiB.)
 */
#include <stdlib.h>

#include "internal.h"
#include "threads.h"
#include "watch.h"

/* What a piece of a buffered message costs beyond the model's alpha and
 * overhead, in alphas.  Above MPI's eager limit each piece is a rendezvous,
 * which waits for the receiver to reach its receive: where both processes
 * send first (LAWN 73 figure 3, CoMet's exchange) every piece waits for the
 * other's packing.  Measured on 2 processes here: an exchange of 1 MiB in
 * 16 pieces of 64 KiB (1 alpha a piece) took 1.3-1.7 x the time of one
 * message (4-8 us a piece); with 20 alphas a piece, 4 pieces, it took
 * 0.96-1.15 x the time of the release before the ready note (one message),
 * and T_c, which the ready note sends straight, did not change. */
#define PIECE_ALPHAS 20

blx_cut blx_p2p_cut(blx_ctx *c, size_t n)
{
    if (c->p2p_cut.k > 0 && c->p2p_cut.n == n) /* planning takes longer than a short message's send */
        return c->p2p_cut;
    blx_model m = c->model;
    m.overhead += PIECE_ALPHAS * m.alpha;
    blx_plan plan = blx_model_chain_plan(&m, 2, n, 1);
    c->p2p_cut = blx_cut_make(n, plan.piece, 1, plan.lead);
    return c->p2p_cut;
}

static unsigned long direct_count, buffered_count;

void blx_p2p_counts(unsigned long *direct, unsigned long *buffered)
{
    *direct = direct_count;
    *buffered = buffered_count;
}

/* Whether a message of n bytes between this process and 'peer' goes with a
 * ready note: both sides decide alike from their own n and the grid's
 * model.  The note costs a message (alpha) and pays where the copy it may
 * save costs more (n beta): from 64 KiB here, from 400 KB with more
 * processes than processors (alpha = 100 us). */
static int with_note(const blx_ctx *c, int peer, size_t n)
{
    return peer != c->vpid && c->ids.layout.p2p_stride > 0 && n >= BLX_P2P_DIRECT_MIN && n <= BLX_MAX_MSG &&
           (double)n * c->model.beta >= c->model.alpha;
}

/* How long a sender waits for the ready note, in alphas: long enough for a
 * receiver that is a moment from ready (an echo's reply: its receiver is
 * finishing its own send), short beside the copy it may save.  Measured on
 * 2 processes here (64 KiB and 1 MiB echoes and exchanges, medians of 1,000):
 * 1 alpha catches every echo's note that 4 did, and in an exchange where
 * both send at once, each waiting for a note that comes only after the
 * other's send, costs 1 us a send instead of 4 (64 KiB: 10.4-10.8 us an
 * exchange, against 13.4-13.8). */
#define NOTE_WAIT_ALPHAS 1

/* Whether the peer's next message to this process has already arrived: the
 * peer sent first and now waits for ours (LAWN 73 figure 3's exchange, one
 * side a moment late), so its note may be here too.  Sending straight would
 * then keep this process waiting while the peer copies, where sending
 * buffered lets both copy at once: with this and the 1-alpha wait above,
 * exchanges on 2 processes here (blacsbench, 3 launches alternated) took
 * 95.7-98.1 us at 1 MiB and 26.5-27.8 at 256 KiB, against 121.7-126.3 and
 * 39.4-40.1 before; the echo's times did not move. */
static int peer_sent_first(blx_ctx *c, int peer, const char *routine)
{
    blx_ep in = blx_grid_ep(c, blx_msgid_peek_recv(&c->ids, peer), routine);
    return blx_arrived(&in, peer, in.tag);
}

/* The receiver's ready note, waited for as long as the cost model says
 * (header), unless the peer turns out to be sending to this process; 1: it
 * has come. */
static int receiver_ready(blx_ctx *c, const blx_ep *side, blx_req *note, int peer, const char *routine)
{
    double budget = c->model.overlap ? NOTE_WAIT_ALPHAS * c->model.alpha : 0.0;
    double t0 = MPI_Wtime();
    for (;;) { /* the test first: MPI_Iprobe may see a message only after the progress a test makes */
        int ready = blx_test(side, note);
        if (peer_sent_first(c, peer, routine))
            return 0;
        if (ready)
            return 1;
        if (MPI_Wtime() - t0 >= budget)
            return 0;
    }
}

static void send_buffered(blx_ctx *c, const blx_call *call, const blx_shape *s, const void *A,
                          const blx_ep *e, int dest, blx_req *note)
{
    int described = c->check != MPI_COMM_NULL; /* level 3: a description goes first */
    size_t bytes = blx_shape_bytes(s), at = (bytes + 63) / 64 * 64;
    blx_buf *b = blx_buf_take(described ? at + blx_agree_header_bytes() : bytes, c->handle, call->name);
    if (described)
        blx_agree_send(c, call, s, b, at, dest, e->tag);
    blx_cut cut = blx_p2p_cut(c, bytes);
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        blx_pack_part(s, A, b->data + off, off, len);
        blx_send_piece_buffered(e, b, off, len, dest);
    }
    if (note->peer >= 0) /* the note comes when the receive starts; b waits for it */
        *blx_buf_request(b, c->handle, call->name) = note->mpi;
    blx_buf_activate(b);
    buffered_count++;
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
    blx_ep e = blx_grid_ep(c, blx_msgid_next_send(&c->ids, c->vpid, dest), call->name), side = e;
    side.comm = c->side;
    if (d != NULL)
        d->tag = e.tag;
    blx_req note = {.peer = -1};
    if (with_note(c, dest, bytes))
        blx_irecv(&side, NULL, 0, dest, &note);
    int straight = note.peer >= 0 && c->check == MPI_COMM_NULL && blx_shape_contiguous(&s);
    if (straight && receiver_ready(c, &side, &note, dest, call->name)) {
        blx_req r;
        blx_isend(&side, A, bytes, dest, &r);
        blx_wait(&side, &r);
        direct_count++;
    } else {
        send_buffered(c, call, &s, A, &e, dest, &note);
    }
    blx_doing_done(d, bytes, NULL);
    blx_thread_leave();
}

/* Waits for the first of a noted message's two ways (header): the whole
 * message on side (returns 1, the first piece's receive withdrawn) or its
 * first piece (returns 0, r[0] complete, the whole's receive withdrawn). */
static int first_way(const blx_ep *e, const blx_ep *side, blx_req *r, blx_req *whole)
{
    blx_req w[2] = {r[0], *whole};
    if (blx_waitany(e, 2, w) == 1) {
        blx_cancel_recv(e, &r[0]);
        return 1;
    }
    r[0] = w[0];
    blx_cancel_recv(side, &w[1]);
    return 0;
}

/* Posts the receives of pieces [from, to) of a message cut as *cut. */
static void post_pieces(const blx_ep *e, char *buf, const blx_cut *cut, int from, int to, int src, blx_req *r)
{
    for (int i = from; i < to; i++) {
        size_t len, off = blx_cut_piece(cut, i, &len);
        blx_irecv_piece(e, buf + off, cut, i, src, &r[i]);
    }
}

/* The receive itself, once the source (vpid src, at {rsrc, csrc}) is known. */
static void recv_from(blx_ctx *c, const blx_call *call, const blx_shape *s, void *A, int src, int rsrc,
                      int csrc)
{
    size_t bytes = blx_shape_bytes(s);
    blx_ep e = blx_grid_ep(c, blx_msgid_next_recv(&c->ids, src), call->name), side = e;
    side.comm = c->side;
    blx_doing *d = blx_doing_matrix(call, c->handle, 'r', s, rsrc, csrc);
    if (d != NULL)
        d->tag = e.tag;
    if (src == c->vpid && blx_debug_polls())
        blx_watch_self_receive(c, call, e.tag);
    if (c->check != MPI_COMM_NULL)
        blx_agree_recv(c, call, s, src, e.tag);

    int packed = !blx_shape_contiguous(s);
    char *buf = packed ? blx_scratch(BLX_SCRATCH_DATA, bytes, c->handle, call->name) : A;
    blx_cut cut = blx_p2p_cut(c, bytes);
    blx_req stack[16], *r = cut.k <= 16 ? stack : malloc((size_t)cut.k * sizeof *r);
    if (r == NULL)
        blx_fatal(c->handle, call->name, "out of memory for %d receives", cut.k);
    /* a noted message posts its other pieces' receives once it is known
     * to come in pieces, so the straight way has only one to withdraw */
    int noted = with_note(c, src, bytes), whole_came = 0, complete = 0; /* pieces received */
    post_pieces(&e, buf, &cut, 0, noted ? 1 : cut.k, src, r);
    if (noted) {
        blx_req whole, note;
        blx_irecv(&side, buf, bytes, src, &whole);
        blx_isend(&side, NULL, 0, src, &note);
        whole_came = first_way(&e, &side, r, &whole);
        complete = 1;
        if (!whole_came)
            post_pieces(&e, buf, &cut, 1, cut.k, src, r);
        blx_wait(&side, &note);
    }
    if (whole_came && packed)
        blx_unpack_part(s, buf, A, 0, bytes);
    for (int i = 0; i < cut.k && !whole_came; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        if (i >= complete)
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
