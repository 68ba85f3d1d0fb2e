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
 *   In a stream to one receiver (sends to one peer with nothing received
 *   from it between) it waits up to a quarter of the copy (NOTE_WAIT_COPY):
 *   a receiver in a loop of receives posts its note a few microseconds
 *   after taking the previous message.
 *   (doc/performance.md: how the constants below were measured.)
 */
#include <math.h>
#include <stdlib.h>

#include "../base/debug.h"
#include "agree.h"
#include "call.h"
#include "watch.h"

/* What a piece of a buffered message costs beyond the model's alpha and
 * overhead, in alphas.  Above MPI's eager limit each piece is a rendezvous,
 * which waits for the receiver to reach its receive: where both processes
 * send first (LAWN 73 figure 3, CoMet's exchange) every piece waits for the
 * other's packing: few pieces, as if each cost 20 latencies. */
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
 * save costs more (n beta). */
static int with_note(const blx_ctx *c, int peer, size_t n)
{
    return peer != c->vpid && c->ids.layout.p2p_stride > 0 && n >= BLX_P2P_DIRECT_MIN && n <= BLX_MAX_MSG &&
           (double)n * c->model.beta >= c->model.alpha;
}

/* How long a sender waits for the ready note, in alphas: long enough for a
 * receiver that is a moment from ready (an echo's reply: its receiver is
 * finishing its own send), short beside the copy it may save, and short for
 * an exchange, where both wait for a note that comes only after the
 * other's send. */
#define NOTE_WAIT_ALPHAS 1
/* In a stream to one receiver (this process's last send went to the same
 * peer, and nothing came from that peer since: no exchange, no echo) the
 * receiver, in a loop of receives, posts its note a moment after it took
 * the previous message, later than 1 alpha: the sender waits for it up to
 * this share of the copy it saves (n beta).  A receiver busy elsewhere
 * costs the sender that share more before it copies (doc/performance.md). */
#define NOTE_WAIT_COPY 0.25

/* Whether the peer's next message to this process has already arrived: the
 * peer sent first and now waits for ours (LAWN 73 figure 3's exchange, one
 * side a moment late), so its note may be here too.  Sending straight would
 * then keep this process waiting while the peer copies, where sending
 * buffered lets both copy at once. */
static int peer_sent_first(blx_ctx *c, int peer, const char *routine)
{
    blx_ep in = blx_grid_ep(c, blx_msgid_peek_recv(&c->ids, peer), routine);
    return blx_arrived(&in, peer, in.tag);
}

/* The receiver's ready note, waited for as long as the cost model says
 * (header), unless the peer turns out to be sending to this process; 1: it
 * has come. */
static int receiver_ready(blx_ctx *c, const blx_ep *side, blx_req *note, int peer, double budget,
                          const char *routine)
{
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

static void send_buffered(const blx_call *k, const blx_ep *e, blx_req *note)
{
    blx_ctx *c = k->c;
    int described = c->check != MPI_COMM_NULL; /* level 3: a description goes first */
    size_t bytes = blx_shape_bytes(&k->shape), at = (bytes + 63) / 64 * 64;
    blx_buf *b = blx_buf_take(described ? at + blx_agree_header_bytes() : bytes, c->handle, k->name);
    if (described)
        blx_agree_send(k, b, at);
    blx_cut cut = blx_p2p_cut(c, bytes);
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        blx_pack_part(&k->shape, k->A, b->data + off, off, len);
        blx_send_piece_buffered(e, b, off, len, k->peer);
    }
    if (note->peer >= 0) /* the note comes when the receive starts; b waits for it */
        *blx_buf_request(b, c->handle, k->name) = note->mpi;
    blx_buf_activate(b);
    buffered_count++;
}

void blx_send_matrix(blx_call *k)
{
    blx_enter(k);
    blx_ctx *c = k->c;
    size_t bytes = blx_shape_bytes(&k->shape);
    int dest = k->peer;
    blx_ptr_arg(k, "A", k->A, bytes > 0);
    k->tag = blx_msgid_next_send(&c->ids, c->vpid, dest);
    blx_ep e = blx_grid_ep(c, k->tag, k->name), side = e;
    side.comm = c->side;
    blx_req note = {.peer = -1};
    if (with_note(c, dest, bytes))
        blx_irecv(&side, NULL, 0, dest, &note);
    int straight = note.peer >= 0 && c->check == MPI_COMM_NULL && blx_shape_contiguous(&k->shape);
    int expect = blx_msgid_peek_recv(&c->ids, dest),
        stream = c->p2p_last_dest == dest + 1 && c->p2p_last_recv == expect;
    c->p2p_last_dest = dest + 1;
    c->p2p_last_recv = expect;
    double wait = NOTE_WAIT_ALPHAS * c->model.alpha;
    if (stream)
        wait = fmax(wait, NOTE_WAIT_COPY * (double)bytes * c->model.beta);
    if (straight && receiver_ready(c, &side, &note, dest, c->model.overlap ? wait : 0.0, k->name)) {
        blx_req r;
        blx_isend(&side, k->A, bytes, dest, &r);
        blx_wait(&side, &r);
        direct_count++;
    } else {
        send_buffered(k, &e, &note);
    }
    blx_leave(k, bytes, NULL);
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

/* The receive itself, once the source (grid rank k->peer) is known. */
static void recv_from(blx_call *k)
{
    blx_ctx *c = k->c;
    const blx_shape *s = &k->shape;
    int src = k->peer;
    size_t bytes = blx_shape_bytes(s);
    k->tag = blx_msgid_next_recv(&c->ids, src);
    blx_ep e = blx_grid_ep(c, k->tag, k->name), side = e;
    side.comm = c->side;
    if (src == c->vpid && blx_debug_level() >= 1)
        blx_watch_self_receive(k);
    if (c->check != MPI_COMM_NULL)
        blx_agree_recv(k);

    int packed = !blx_shape_contiguous(s);
    char *buf = packed ? blx_scratch(BLX_SCRATCH_DATA, bytes, c->handle, k->name) : k->A;
    blx_cut cut = blx_p2p_cut(c, bytes);
    blx_req stack[16], *r = cut.k <= 16 ? stack : malloc((size_t)cut.k * sizeof *r);
    if (r == NULL)
        blx_fatal(c->handle, k->name, "out of memory for %d receives", cut.k);
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
        blx_unpack_part(s, buf, k->A, 0, bytes);
    for (int i = 0; i < cut.k && !whole_came; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        if (i >= complete)
            blx_wait(&e, &r[i]);
        if (packed)
            blx_unpack_part(s, buf + off, k->A, off, len);
    }
    if (r != stack)
        free(r);
}

void blx_recv_matrix(blx_call *k)
{
    blx_enter(k);
    blx_ptr_arg(k, "A", k->A, blx_shape_bytes(&k->shape) > 0);
    recv_from(k);
    blx_leave(k, blx_shape_bytes(&k->shape), NULL);
}

/* Which process's next message to this one has arrived first, among the
 * processes rsrc, csrc allow (-1: any row, any column).  Every candidate's
 * next message ID is known from the counters; the byte layer looks for the
 * first of those messages to arrive. */
static int first_arrived(const blx_call *k, int rsrc, int csrc)
{
    blx_ctx *c = k->c;
    int ng = c->nprow * c->npcol, stack[64] = {0}; /* (gcc 12 -O2 under MPICH warns otherwise) */
    int *tags = ng <= 64 ? stack : malloc((size_t)ng * sizeof *tags);
    if (tags == NULL)
        blx_fatal(c->handle, k->name, "out of memory for %d message IDs", ng);
    for (int g = 0; g < ng; g++) {
        int row = g / c->npcol, col = g % c->npcol;
        int candidate = (rsrc < 0 || row == rsrc) && (csrc < 0 || col == csrc);
        tags[g] = candidate ? blx_msgid_peek_recv(&c->ids, g) : -1;
    }
    blx_ep e = blx_grid_ep(c, -1, k->name);
    int src = blx_probe_first(&e, tags);
    if (tags != stack)
        free(tags);
    return src;
}

void blx_recv_any(blx_call *k)
{
    blx_enter(k);
    blx_ctx *c = k->c;
    blx_ptr_arg(k, "RSRC", k->src_row, 1);
    blx_ptr_arg(k, "CSRC", k->src_col, 1);
    blacs_int *rsrc = k->src_row, *csrc = k->src_col;
    if (*rsrc != -1 && (*rsrc < 0 || *rsrc >= c->nprow))
        blx_fatal(c->handle, k->name, "RSRC = %lld must be -1 (any row) or a row of the %d x %d grid (0..%d)",
                  (long long)*rsrc, c->nprow, c->npcol, c->nprow - 1);
    if (*csrc != -1 && (*csrc < 0 || *csrc >= c->npcol))
        blx_fatal(c->handle, k->name,
                  "CSRC = %lld must be -1 (any column) or a column of the %d x %d grid (0..%d)",
                  (long long)*csrc, c->nprow, c->npcol, c->npcol - 1);
    blx_ptr_arg(k, "A", k->A, blx_shape_bytes(&k->shape) > 0);
    k->peer = first_arrived(k, (int)*rsrc, (int)*csrc);
    *rsrc = k->peer / c->npcol;
    *csrc = k->peer % c->npcol;
    recv_from(k);
    blx_leave(k, blx_shape_bytes(&k->shape), NULL);
}
