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
 * latency, not bandwidth).
 *
 * A source's send is locally blocking (LAWN 73 section 6.2.2), so it need
 * not wait for children that are busy elsewhere.  With ready notes
 * (x->notes, set by the entry point for long broadcasts), each child of the
 * root sends an empty message to the root on x->side once its receives are
 * posted.  A root that finds every note there, or gets them within the
 * time its copy would take (alpha + n beta of the model), sends straight
 * from its buffer, as above (its children are receiving: no copy, and they
 * get the pieces soonest).  A root missing a note copies each piece into a send
 * buffer of the queue (buffers/queue.h), posts all its sends from there,
 * and returns at once: a process that broadcasts a panel goes back to its
 * own work (ScaLAPACK's rings) while the pieces leave in order, each as
 * soon as it is copied; the buffer also waits for the missing notes, so
 * every note is received.  It is reclaimed by a later call's poll, or
 * waited for by blacs_freebuff and blacs_exit.  A root leaves a message so
 * only while its send buffers in flight are fewer than DETACH_MAX and hold
 * fewer bytes than the message (a panel's pivots may still be in flight when
 * the panel goes): a root whose earlier messages are still unreceived
 * (broadcasts in a loop, faster than the children take them) sends straight
 * and waits, the children's pace being the one that matters then, and
 * memory stays bounded by twice the message.  On a network link
 * (BLX_NOTES_NET) a message sent whole has no notes, whose latency the
 * receivers would wait: the root leaves it at once, copied, where its
 * sends go out together anyway (its children fit its window), and sends
 * it straight, paced largest subtree first, where they do not.
 *
 *   cost of the notes: one empty message per child of the root, sent while
 *   the child waits anyway; the root only tests for them.
 *
 * With a second tree (x->tree2), pieces
 * alternate: piece i follows tree i mod 2, and each tree's pieces go on as
 * they come, never waiting for the other tree's.  Every process but a root
 * that left its sends in flight returns only when its part is done, so
 * the buffer may be the user's matrix itself.
 *
 *   cost: model.h, a pipelined tree: (L + (k - 1) D)(alpha + n beta / k)
 */
#include <stdlib.h>
#include <string.h>

#include "../base/report.h"
#include "walk.h"

/* The ready notes' endpoint: the scope's, on the side channel. */
static blx_ep note_ep(const blx_xfer *x)
{
    blx_ep e = x->ep;
    e.comm = x->side;
    return e;
}

/* A message the root sends whole over a network link: no notes (header).
 * Every member finds the same. */
static int whole_on_network(const blx_xfer *x, const blx_cut *cut)
{
    return x->notes == BLX_NOTES_NET && cut->k == 1;
}

/* Whether the root's sends all go out together, straight or not (its
 * children fit its window): then it may leave them in flight at once;
 * else it paces them, largest subtree first, and waits. */
static int all_at_once(const blx_xfer *x)
{
    int d = blx_tree_nkids(x->tree, 0); /* the root's children */
    return x->tree2 == NULL && d <= BLX_STREAM_SENDS && d <= x->plan.window;
}

/* A child of the root, its receives posted: its note (header). */
static void note_ready(const blx_xfer *x, const blx_cut *cut, const blx_place at[2], int ntrees)
{
    if (!x->notes || whole_on_network(x, cut))
        return;
    for (int t = 0; t < ntrees; t++)
        if (at[t].parent == x->root) {
            blx_ep e = note_ep(x);
            blx_send(&e, NULL, 0, x->root);
            return;
        }
}

/* The root's children in both trees, each once, as members. */
static int root_kids(const blx_xfer *x, const blx_place at[2], int ntrees, int *kid)
{
    int n = 0;
    for (int t = 0; t < ntrees; t++)
        for (int j = 0; j < at[t].nkids; j++) {
            int m = blx_xfer_member(x, at[t].kids[j]), seen = 0;
            for (int i = 0; i < n && !seen; i++)
                seen = kid[i] == m;
            if (!seen)
                kid[n++] = m;
        }
    return n;
}

/* Send buffers in flight, at most, for a root to leave one more (header). */
#define DETACH_MAX 4

static unsigned long detached_count;

unsigned long blx_tree_bcast_detached(void) { return detached_count; }

/* The root, its children not all ready (header): piece by piece, a copy
 * and its sends, from a send buffer that also holds the notes to come. */
static void bcast_detached(const blx_xfer *x, const blx_cut *cut, const blx_place at[2], int ntrees,
                           blx_req *note, int nkids)
{
    blx_buf *b = blx_buf_take(x->in.bytes, x->ep.ctxt, x->ep.routine);
    for (int i = 0; i < cut->k; i++) {
        const blx_place *p = &at[i % ntrees];
        size_t len, off = blx_cut_piece(cut, i, &len);
        memcpy(b->data + off, x->buf + off, len);
        for (int j = 0; j < p->nkids; j++)
            blx_send_piece_buffered(&x->ep, b, off, len, blx_xfer_member(x, p->kids[j]));
    }
    for (int j = 0; note != NULL && j < nkids; j++)
        if (note[j].peer >= 0)
            *blx_buf_request(b, x->ep.ctxt, x->ep.routine) = note[j].mpi;
    blx_buf_activate(b);
    detached_count++;
}

/* Whether the root may leave one more message in flight (header). */
static int may_leave(const blx_xfer *x)
{
    blx_bufstats q = blx_buf_stats();
    return q.active < DETACH_MAX && q.inflight < x->in.bytes;
}

/* The root with ready notes: returns 1 if it has sent detached (header),
 * 0 if it is to send straight, its notes all received. */
static int root_detached(const blx_xfer *x, const blx_cut *cut, const blx_place at[2], int ntrees)
{
    int nmax = at[0].nkids + (ntrees == 2 ? at[1].nkids : 0), kstack[2 * BLX_STREAM_SENDS];
    int *kid = nmax > 2 * BLX_STREAM_SENDS ? malloc((size_t)nmax * sizeof *kid) : kstack;
    blx_req stack[BLX_STACK_REQS], *note = blx_walk_reqs(x, stack, nmax);
    if (kid == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d children", nmax);
    blx_ep e = note_ep(x);
    int n = root_kids(x, at, ntrees, kid), ready = 1;
    for (int j = 0; j < n; j++)
        blx_irecv(&e, NULL, 0, kid[j], &note[j]);
    double budget = x->in.model->alpha + (double)x->in.bytes * x->in.model->beta;
    for (double t0 = MPI_Wtime();;) {
        ready = 1;
        for (int j = 0; j < n; j++)
            ready &= note[j].peer < 0 || blx_test(&e, &note[j]);
        if (ready || MPI_Wtime() - t0 >= budget)
            break;
    }
    int detach = !ready && may_leave(x);
    if (detach)
        bcast_detached(x, cut, at, ntrees, note, n);
    else if (!ready)
        blx_waitall(&e, n, note);
    if (note != stack)
        free(note);
    if (kid != kstack)
        free(kid);
    return detach;
}

/* One message along one tree, to children that all fit in flight (short
 * messages, most calls): received whole, then sent to every child at once,
 * with no stream to set up. */
static void bcast_whole(const blx_xfer *x, const blx_cut *cut, const blx_place *at)
{
    const blx_ep *e = &x->ep;
    blx_req r[BLX_STREAM_SENDS];
    if (at->parent >= 0) {
        blx_irecv_piece(e, x->buf, cut, 0, at->parent, &r[0]);
        note_ready(x, cut, at, 1);
        blx_wait(e, &r[0]);
    }
    for (int j = 0; j < at->nkids; j++)
        blx_isend(e, x->buf, x->in.bytes, blx_xfer_member(x, at->kids[j]), &r[j]);
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
    note_ready(x, cut, at, ntrees);
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
    blx_cut cut = blx_cut_make(x->in.bytes, x->plan.piece, 1, x->plan.lead);
    blx_place at[2];
    int ntrees = blx_places(x, at);
    int whole_net = whole_on_network(x, &cut);
    if (whole_net && at[0].parent < 0 && all_at_once(x) && may_leave(x)) {
        bcast_detached(x, &cut, at, ntrees, NULL, 0);
        return;
    }
    if (x->notes && !whole_net && at[0].parent < 0 && root_detached(x, &cut, at, ntrees))
        return;
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

double blx_tree_bcast_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree2;
    return blx_model_tree_time(in->model, tree, in->bytes);
}
