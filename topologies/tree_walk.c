/*
 * topologies/tree_walk.c - moving data along trees: the broadcast walker
 * and the fan-in (combine) walker.
 *
 * Broadcast.  The root sends its buffer to its children; every other member
 * receives from its parent into its buffer and forwards to its own children.
 * The message travels in the pieces of x->plan (buffers/bytes.h: blx_cut):
 * a node forwards piece i as soon as it has it, to its children in the
 * tree's order (largest subtree first), keeping at most plan.window sends in
 * flight.  On a network link every message in flight shares the bandwidth,
 * so with a window of 1 piece i reaches the next hop before piece i + 1
 * competes with it; such sends are synchronous (blx_issend), so that their
 * completion means delivery even where MPI would buffer a small message.
 * When every send of the call fits in the window at once, they go out
 * together as ordinary sends (short messages: latency, not bandwidth).
 * With a second tree (x->tree2), pieces alternate: piece i follows tree
 * i mod 2, and each tree's pieces go on as they come, never waiting for
 * the other tree's (the stream below).  Broadcasts are globally blocking,
 * so the buffer may be the user's matrix itself.
 *
 *   cost: model.h, a pipelined tree: (L + (k - 1) D)(alpha + n beta / k)
 *
 * Combine (fan-in).  The same tree walked the other way: a node receives
 * every child's piece i, folds it into its own piece i, and sends piece i
 * to its parent.  Receives are posted ahead, piece after piece, into as many
 * slots as FANIN_BUDGET allows, so children need not wait; contributions are
 * folded as they arrive, or in the children's order when the combine must
 * be repeatable.  A vector the plan sends whole (a binomial tree's best)
 * whose children's copies do not fit the slots together comes from the
 * children one after the other, the smallest subtree first: that is the
 * order they are ready in, and the node's link takes d n bytes either way
 * (pieces would only add latencies; see combine_cut).  Every receive names
 * its child (never MPI_ANY_SOURCE), so pieces of different children and
 * operations cannot be confused.  With a
 * second tree, pieces alternate between the trees as in the broadcast, and
 * the node's sends to its two parents go out as in the broadcast too.
 *
 *   cost: as the broadcast, with beta + gamma for beta (the node folds what
 *   it receives)
 */
#include <stdlib.h>
#include <string.h>

#include "../base/report.h"
#include "topology.h"

#define STACK_REQS 32
/* Bytes of children's pieces a fan-in keeps posted at once. */
#define FANIN_BUDGET ((size_t)8 << 20)

/* n requests: from the stack when few, else from the heap. */
static blx_req *reqs(const blx_xfer *x, blx_req *stack, int n)
{
    blx_req *r = stack;
    if (n > STACK_REQS && (r = malloc((size_t)n * sizeof *r)) == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d MPI requests", n);
    for (int i = 0; i < n; i++)
        r[i].peer = -1;
    return r;
}

/* My parent (-1 at the root) and children in tree t, as members. */
typedef struct place {
    int parent, nkids;
    const int *kids; /* relative to the root */
} place;

static place where(const blx_xfer *x, const blx_tree *t)
{
    int rel = blx_xfer_rel(x);
    place p = {rel == 0 ? -1 : blx_xfer_member(x, t->parent[rel]), blx_tree_nkids(t, rel),
               blx_tree_kids(t, rel)};
    return p;
}

/* My place in the tree of each piece: at[0] for even pieces, at[1] for odd. */
static int places(const blx_xfer *x, place at[2])
{
    at[0] = where(x, x->tree);
    at[1] = x->tree2 != NULL ? where(x, x->tree2) : at[0];
    return x->tree2 != NULL ? 2 : 1;
}

/* A node's sends along its tree or two trees.  The pieces of a tree go in
 * piece order, each to every destination the node has in that tree (its
 * children in a broadcast, its parent in a fan-in), as soon as the piece is
 * ready (left[i] == 0; left NULL: all are), at most 'window' sends in
 * flight.  The trees do not wait for each other: in piece order across
 * both, a node that forwards in both trees (the first label of tree A, when
 * B is A shifted) held tree A's pieces until tree B's first piece had come
 * down all of tree B (a broadcast of 1 MiB on 64 simulated processes:
 * 183.7 us, against 161.8 with each tree's pieces sent as they come).
 * But while both trees have sends left, neither takes more than window - 1
 * of the sends in flight:
 *   - a fan-in's receivers post their receives in piece order, as many as
 *     their slots allow, and a synchronous send completes only once its
 *     receive is posted.  Were the window full of one tree's pieces, ahead
 *     of what their receiver has posted, the other tree's next piece, which
 *     that receiver or another may be waiting for, could not go: with the
 *     reserve, the lowest piece not yet everywhere always can, so the
 *     combine never deadlocks;
 *   - a node of a fan-in sends its own pieces (as a leaf of one tree,
 *     always ready) while the other tree's children are still coming in,
 *     and each piece it forwards, which its parent waits for, need not
 *     wait a transfer behind them (a sum of 1 MiB to one of 64 simulated
 *     processes: 160.4 us with the reserve, 198.9 without; 8 MiB: 989
 *     and 1578).
 * With a window of 1, and where both trees lead to the same process (whose
 * receives from this node are then posted in piece order), the pieces go
 * in piece order across the trees.  Sends are synchronous when there are
 * more than the window (paced: completion means delivery, where MPI would
 * buffer a short message), ordinary when all fit in it. */
#define STREAM_SENDS 16
typedef struct stream {
    const blx_xfer *x;
    const blx_cut *cut;
    const place *at;
    const int *left;
    int ntrees, up, in_order; /* up: to the parent (a fan-in); in_order: across the trees */
    int ndest[2];             /* each tree's destinations of a piece */
    int piece[2], dest[2];    /* each tree's next send: its piece (>= cut->k: none) and destination */
    int busy[2];              /* each tree's sends in flight */
    int inflight, sent, total, window, sync, used; /* used: requests set up so far */
    blx_req *req;                                  /* [window], then what the caller waits for with them */
    char tree[STREAM_SENDS];                       /* the tree of the send in each request */
} stream;

static void stream_start(stream *o, const blx_xfer *x, const blx_cut *cut, const place at[2], int ntrees,
                         int up, const int *left, blx_req *req)
{
    int k = cut->k, nd = up ? at[0].parent >= 0 : at[0].nkids;
    o->x = x, o->cut = cut, o->at = at, o->left = left, o->req = req;
    o->ntrees = ntrees, o->up = up;
    o->inflight = o->sent = o->used = o->in_order = 0;
    o->dest[0] = o->dest[1] = o->busy[0] = o->busy[1] = 0;
    o->ndest[0] = nd, o->piece[0] = nd > 0 ? 0 : k;
    o->ndest[1] = 0, o->piece[1] = k, o->total = nd * k;
    if (ntrees == 2) {
        o->total = nd * ((k + 1) / 2);
        o->ndest[1] = nd = up ? at[1].parent >= 0 : at[1].nkids;
        o->piece[1] = nd > 0 && k > 1 ? 1 : k;
        o->total += nd * (k / 2);
        if (up) /* children are numbered relative to the root in both trees */
            o->in_order = at[0].parent >= 0 && at[0].parent == at[1].parent;
        else
            for (int a = 0; a < at[0].nkids; a++)
                for (int b = 0; b < at[1].nkids; b++)
                    o->in_order |= at[0].kids[a] == at[1].kids[b];
    }
    o->sync = o->total > x->plan.window; /* else all may be in flight: the slots only recycle requests */
    o->window = !o->sync || x->plan.window > STREAM_SENDS ? STREAM_SENDS
                : x->plan.window < 1                      ? 1
                                                          : x->plan.window;
    o->in_order |= o->window == 1;
}

/* The tree whose next send may go now, or -1. */
static int stream_next(const stream *o)
{
    int k = o->cut->k;
    if (o->ntrees == 1) {
        int i = o->piece[0];
        return i < k && (o->left == NULL || o->left[i] == 0) ? 0 : -1;
    }
    int best = -1, bi = k;
    for (int t = 0; t < 2; t++) {
        int i = o->piece[t], other = o->piece[1 - t];
        if (i >= bi || (o->left && o->left[i] > 0))
            continue;
        if (other < k && /* the other tree has sends left */
            (o->in_order ? other < i : o->busy[t] >= o->window - 1))
            continue;
        best = t;
        bi = i;
    }
    return best;
}

/* Posts every send that may go now. */
static void stream_push(stream *o)
{
    if (o->sent == o->total)
        return;
    for (int t; o->inflight < o->window && (t = stream_next(o)) >= 0; o->sent++, o->inflight++) {
        int i = o->piece[t], j = o->dest[t], s = 0;
        if (++o->dest[t] == o->ndest[t]) {
            o->dest[t] = 0;
            o->piece[t] += o->ntrees;
        }
        int to = o->up ? o->at[t].parent : blx_xfer_member(o->x, o->at[t].kids[j]);
        while (s < o->used && o->req[s].peer >= 0)
            s++;
        o->used += s == o->used;
        size_t len, off = blx_cut_piece(o->cut, i, &len);
        (o->sync ? blx_issend : blx_isend)(&o->x->ep, o->x->buf + off, len, to, &o->req[s]);
        o->tree[s] = (char)t;
        o->busy[t]++;
    }
}

/* Send s has completed. */
static void stream_done(stream *o, int s)
{
    o->req[s].peer = -1;
    o->inflight--;
    o->busy[(int)o->tree[s]]--;
}

/* Once every send is posted: waits for those in flight. */
static void stream_drain(stream *o)
{
    if (o->used == 1) /* one request: a plain wait */
        blx_wait(&o->x->ep, &o->req[0]);
    else if (o->used > 1)
        blx_waitall(&o->x->ep, o->used, o->req);
    o->inflight = 0;
}

/* Waits for one of the sends in flight or of r[0..n) (NULL or inactive:
 * none), which are moved beside the sends for the wait and back (a wait
 * on a few requests, not on every receive posted).  Returns the index in
 * r of the one that completed, or -1 for a send (then done). */
static int stream_wait(stream *o, blx_req *const r[], int n)
{
    if (o->inflight == 0) { /* no send in flight: one receive is a plain wait */
        int one = -1, count = 0;
        for (int t = 0; t < n; t++)
            if (r[t] != NULL && r[t]->peer >= 0)
                one = t, count++;
        if (count == 1) {
            blx_wait(&o->x->ep, r[one]);
            return one;
        }
    }
    int m = o->used;
    for (int t = 0; t < n; t++) {
        o->req[m + t].peer = -1;
        if (r[t] != NULL && r[t]->peer >= 0) {
            o->req[m + t] = *r[t];
            r[t]->peer = -1;
        }
    }
    int s = blx_waitany(&o->x->ep, m + n, o->req);
    for (int t = 0; t < n; t++) {
        if (o->req[m + t].peer >= 0)
            *r[t] = o->req[m + t];
        o->req[m + t].peer = -1;
    }
    if (s >= m)
        return s - m;
    stream_done(o, s);
    return -1;
}

/* One message along one tree, to children that all fit in flight (short
 * messages, most calls): received whole, then sent to every child at once
 * (a third fewer instructions than the stream on 2 to 4 processes). */
static void bcast_whole(const blx_xfer *x, const blx_cut *cut, const place *at)
{
    const blx_ep *e = &x->ep;
    blx_req r[STREAM_SENDS];
    if (at->parent >= 0) {
        blx_irecv_piece(e, x->buf, cut, 0, at->parent, &r[0]);
        blx_wait(e, &r[0]);
    }
    for (int j = 0; j < at->nkids; j++)
        blx_isend(e, x->buf, x->bytes, blx_xfer_member(x, at->kids[j]), &r[j]);
    if (at->nkids > 0)
        blx_waitall(e, at->nkids, r);
}

void blx_tree_bcast(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    blx_cut cut = blx_cut_make(x->bytes, x->plan.piece, 1, x->plan.lead);
    place at[2];
    int ntrees = places(x, at);
    if (cut.k == 1 && ntrees == 1 && at[0].nkids <= STREAM_SENDS && at[0].nkids <= x->plan.window) {
        bcast_whole(x, &cut, &at[0]);
        return;
    }
    blx_req stack[STACK_REQS], *rr = reqs(x, stack, cut.k);
    int lstack[STACK_REQS], *left = cut.k > STACK_REQS ? malloc((size_t)cut.k * sizeof *left) : lstack;
    if (left == NULL)
        blx_fatal(e->ctxt, e->routine, "out of memory for %d pieces", cut.k);
    size_t len, off;
    for (int i = 0; i < cut.k; i++) { /* every piece's receive, posted ahead */
        const place *p = &at[i % ntrees];
        off = blx_cut_piece(&cut, i, &len);
        left[i] = p->parent >= 0;
        if (left[i])
            blx_irecv_piece(e, x->buf + off, &cut, i, p->parent, &rr[i]);
    }
    blx_req w[STREAM_SENDS + 2]; /* sends in flight, and two to wait for with them */
    stream o;
    stream_start(&o, x, &cut, at, ntrees, 0, left, w);
    for (;;) {
        stream_push(&o);
        if (o.sent == o.total)
            break;
        blx_req *next[2] = {NULL, NULL}; /* the receive each tree's next send waits for */
        for (int t = 0; t < ntrees; t++) {
            int i = o.piece[t];
            next[t] = i < cut.k && left[i] ? &rr[i] : NULL;
        }
        int t = stream_wait(&o, next, ntrees);
        if (t >= 0)
            left[o.piece[t]] = 0;
    }
    stream_drain(&o);
    blx_waitall(e, cut.k, rr);
    if (rr != stack)
        free(rr);
    if (left != lstack)
        free(left);
}

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->bytes, x->ep.ctxt, x->ep.routine);
    memcpy(w, x->buf, x->bytes);
    x->buf = w;
    x->readonly = 0;
}

/* The receive slots of a fan-in.  Contributions are numbered q in piece
 * order, the children of piece i's tree in the tree's order (with one tree:
 * q = piece * nkids + j), and posted in q order, at most nslots at a time.
 * Folded as they arrive, they take their slots from a free list.  Where the
 * combine must be repeatable, each piece takes its children's contributions
 * in the tree's order, and contribution q takes slot q mod nslots once the
 * one before it there is folded.  Along one tree they are folded in q
 * order (its pieces go up in order anyway); along two, pieces do not wait
 * for each other: a piece of one tree is folded and sent on while the
 * other tree's piece before it still waits for a child (a sum of 1 MiB to
 * one of 64 simulated processes: 160.4 us, against 174.4 with every
 * contribution folded in q order).  The bits are the same either way.  The
 * node's sends in flight (at most STREAM_SENDS, and two requests the
 * stream waits for with them) have requests after the slots', so that one
 * wait serves both. */
typedef struct fanin {
    const blx_xfer *x;
    place at[2];      /* piece i follows tree i % ntrees */
    int ntrees, pair; /* pair: contributions to two consecutive pieces */
    blx_cut cut;
    char *tmp;
    size_t slot_bytes;
    int nslots, posted, folded, total, nfree;
    int low[2];         /* repeatable, two trees: each tree's first contribution not yet folded */
    int smallest_first; /* whole vectors, fewer slots than children: the last child first */
    blx_req *req;       /* [nslots + STREAM_SENDS + 2] */
    int *q;             /* [nslots] the contribution a slot holds (-1: none) */
    int *arrived;       /* [nslots] its receive has completed */
    int *free;          /* [nslots] free slots (arrival order) */
    int *left;          /* [k] children not yet folded into piece i */
} fanin;

/* Contributions to the pieces before piece i. */
static int fanin_before(const fanin *f, int i) { return i / 2 * f->pair + i % 2 * f->at[0].nkids; }

/* Contribution q's piece, and its child's position among that piece's. */
static int fanin_piece(const fanin *f, int q, int *j)
{
    int i = q / f->pair * 2, r = q % f->pair;
    if (r >= f->at[0].nkids) {
        r -= f->at[0].nkids;
        i++;
    }
    *j = f->smallest_first ? f->at[0].nkids - 1 - r : r;
    return i;
}

/* The slot for the next contribution, or -1 while none is free for it. */
static int fanin_slot(fanin *f)
{
    if (!f->x->ordered)
        return f->nfree > 0 ? f->free[--f->nfree] : -1;
    int s = f->posted % f->nslots;
    return f->q[s] < 0 ? s : -1;
}

static void fanin_post(fanin *f)
{
    for (int s; f->posted < f->total && (s = fanin_slot(f)) >= 0;) {
        int q = f->posted++, j, piece = fanin_piece(f, q, &j);
        f->q[s] = q;
        f->arrived[s] = 0;
        blx_irecv_piece(&f->x->ep, f->tmp + (size_t)s * f->slot_bytes, &f->cut, piece,
                        blx_xfer_member(f->x, f->at[piece % f->ntrees].kids[j]), &f->req[s]);
    }
}

/* Whether contribution q (posted) is of tree t (of two) and not yet folded. */
static int fanin_waits(const fanin *f, int q, int t)
{
    int j;
    return f->q[q % f->nslots] == q && fanin_piece(f, q, &j) % 2 == t;
}

/* Folds the contribution in slot s into its piece. */
static void fanin_fold(fanin *f, int s)
{
    int j, piece = fanin_piece(f, f->q[s], &j);
    size_t len, off = blx_cut_piece(&f->cut, piece, &len);
    f->x->merge(f->x->op, f->x->buf + off, f->tmp + (size_t)s * f->slot_bytes, len, 0);
    f->left[piece]--;
    f->folded++;
    f->q[s] = -1;
    f->arrived[s] = 0;
    if (!f->x->ordered)
        f->free[f->nfree++] = s;
}

/* Slot s has arrived: folds it at once, or where the combine must be
 * repeatable, once its piece's earlier children are in, and then the
 * children after it that have arrived. */
static void fanin_arrived(fanin *f, int s)
{
    f->arrived[s] = 1;
    if (!f->x->ordered) {
        fanin_fold(f, s);
        return;
    }
    if (f->ntrees == 1) { /* one tree: its pieces go in order anyway, so all in q order */
        while (f->folded < f->posted && f->arrived[f->folded % f->nslots])
            fanin_fold(f, f->folded % f->nslots);
        return;
    }
    int q = f->q[s], j, piece = fanin_piece(f, q, &j);
    if (j != f->at[piece % f->ntrees].nkids - f->left[piece])
        return; /* an earlier child of its piece is still to come */
    for (;;) {
        fanin_fold(f, s);
        if (++q >= f->posted || fanin_piece(f, q, &j) != piece)
            break;
        s = q % f->nslots;
        if (!f->arrived[s])
            break;
    }
}

static int max_kids(const blx_tree *t)
{
    int d = 1;
    for (int r = 0; t != NULL && r < t->np; r++)
        d = blx_tree_nkids(t, r) > d ? blx_tree_nkids(t, r) : d;
    return d;
}

/* Pieces of a combine hold whole elements; a located buffer (unit 0) goes
 * whole, within the byte layer's largest message. */
static blx_cut combine_cut(const blx_xfer *x)
{
    if (x->unit == 0 && x->bytes > BLX_MAX_MSG)
        blx_fatal(x->ep.ctxt, x->ep.routine,
                  "a combine with locations of %zu bytes is larger than this library's 1 GiB limit for them",
                  x->bytes);
    if (x->unit == 0)
        return blx_cut_make(x->bytes, x->bytes + 1, 0, 0);
    if (x->bytes <= FANIN_BUDGET / 2 / (size_t)x->tree->np) /* fits whatever the degree */
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, x->plan.lead);
    /* Pieces small enough that every child's next two fit the slots at
     * once: of cap bytes, one element over FANIN_BUDGET / 2d, so that a
     * message of a power of two bytes never is a multiple of them (the cut
     * would end in an empty piece, a latency more). */
    int d = max_kids(x->tree), d2 = max_kids(x->tree2);
    size_t cap = FANIN_BUDGET / (2 * (size_t)(d > d2 ? d : d2)) / x->unit * x->unit + x->unit;
    if (x->plan.piece <= cap)
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, x->plan.lead);
    /* A message the plan sends whole (a binomial tree's best) stays whole;
     * where the children's vectors do not fit the slots together, they come
     * one after the other (fanin_start).  Not at exactly cap bytes: a
     * sender of more, cut into pieces of cap, would then send a first piece
     * as long as the whole message expected here (a receiver that expects
     * more or less must meet a piece of another length, blx_cut_make). */
    if (x->plan.piece > x->bytes && x->bytes <= BLX_MAX_MSG && x->bytes != cap)
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, 0);
    return blx_cut_make(x->bytes, cap, x->unit, 0);
}

static void fanin_start(fanin *f, const blx_xfer *x, const place at[2], int ntrees, void *stack,
                        size_t stack_bytes)
{
    f->x = x;
    f->at[0] = at[0], f->at[1] = at[1], f->ntrees = ntrees;
    f->pair = f->at[0].nkids + f->at[1].nkids;
    f->cut = combine_cut(x);
    f->total = fanin_before(f, f->cut.k);
    f->slot_bytes =
        (f->cut.k > 1 ? f->cut.s : x->bytes) / 64 * 64 + 64; /* aligned: values follow locations */
    /* Two slots at least: the next receive is posted while one is folded (a
     * child does not wait a latency for it); whole vectors of more than
     * FANIN_BUDGET one (a vector's worth of scratch, as the reference's). */
    size_t fit = FANIN_BUDGET / f->slot_bytes, least = f->cut.k == 1 && x->bytes > FANIN_BUDGET ? 1 : 2;
    fit = fit < least ? least : fit;
    f->nslots = f->total < 1 ? 1 : (fit > (size_t)f->total ? f->total : (int)fit);
    f->smallest_first = f->cut.k == 1 && ntrees == 1 && f->nslots < f->total;
    f->posted = f->folded = f->low[0] = 0;
    f->low[1] = f->at[0].nkids; /* tree B's first contribution */
    f->nfree = f->nslots;
    f->tmp = f->total
                 ? blx_scratch(BLX_SCRATCH_TMP, (size_t)f->nslots * f->slot_bytes, x->ep.ctxt, x->ep.routine)
                 : NULL;
    /* one block: requests, then q, arrived, free and left (on the stack when small) */
    int nreq = f->nslots + STREAM_SENDS + 2; /* slots, then the stream's */
    size_t need = (size_t)nreq * sizeof *f->req + (3 * (size_t)f->nslots + (size_t)f->cut.k) * sizeof(int);
    f->req = need <= stack_bytes ? stack : malloc(need);
    if (f->req == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d receives", f->nslots);
    f->q = (int *)(f->req + nreq);
    f->arrived = f->q + f->nslots;
    f->free = f->arrived + f->nslots;
    f->left = f->free + f->nslots;
    for (int s = 0; s < f->nslots; s++) /* the stream sets up its own */
        f->req[s].peer = -1;
    for (int s = 0; s < f->nslots; s++) {
        f->q[s] = -1;
        f->arrived[s] = 0;
        f->free[s] = f->nslots - 1 - s;
    }
    for (int i = 0; i < f->cut.k; i++)
        f->left[i] = f->at[i % f->ntrees].nkids;
}

/* A leaf of the fan-in (of both trees): it only sends its pieces to its
 * parents (its buffer may be the user's read-only matrix), with no receive
 * slots to set up. */
static void leaf_combine(const blx_xfer *x, const place at[2], int ntrees)
{
    blx_cut cut = combine_cut(x);
    if (cut.k == 1) { /* one message to one parent (most calls: short vectors) */
        blx_req r;
        blx_isend(&x->ep, x->buf, x->bytes, at[0].parent, &r);
        blx_wait(&x->ep, &r);
        return;
    }
    blx_req w[STREAM_SENDS];
    stream o;
    stream_start(&o, x, &cut, at, ntrees, 1, NULL, w);
    for (stream_push(&o); o.sent < o.total; stream_push(&o))
        stream_done(&o, blx_waitany(&x->ep, o.used, w));
    stream_drain(&o);
}

/* Repeatable, two trees: the receive of tree t's next contribution to
 * fold (its first not yet folded, and posted), or NULL; its slot in *slot. */
static blx_req *fanin_next(fanin *f, int t, int *slot)
{
    while (f->low[t] < f->posted && !fanin_waits(f, f->low[t], t))
        f->low[t]++;
    *slot = f->low[t] % f->nslots;
    return f->low[t] < f->posted ? &f->req[*slot] : NULL;
}

/* Waits for what comes next: a contribution to fold or, with sends in
 * flight, one of them.  Folding as they arrive, any contribution; where
 * the combine must be repeatable, each tree's next to fold (the others
 * could not be folded yet, nor their pieces sent before it).  Returns the
 * receive slot, or -1 for a send (then done). */
static int fanin_wait(fanin *f, stream *o)
{
    const blx_ep *e = &f->x->ep;
    if (f->folded == f->total) /* only sends are left */
        return stream_wait(o, NULL, 0);
    if (!f->x->ordered) {
        if (o->inflight == 0 && f->nslots == 1) {
            blx_wait(e, &f->req[0]);
            return 0;
        }
        int s = blx_waitany(e, f->nslots + o->used, f->req);
        if (s < f->nslots)
            return s;
        stream_done(o, s - f->nslots);
        return -1;
    }
    int slot[2] = {f->folded % f->nslots, 0}; /* one tree: folded in q order */
    blx_req *next[2] = {&f->req[slot[0]], NULL};
    if (f->ntrees == 2) {
        next[0] = fanin_next(f, 0, &slot[0]);
        next[1] = fanin_next(f, 1, &slot[1]);
    }
    if (o->inflight == 0 && next[1] == NULL) { /* one tree, nothing in flight: a plain wait */
        blx_wait(e, next[0]);
        return slot[0];
    }
    int t = stream_wait(o, next, 2);
    return t < 0 ? -1 : slot[t];
}

/* One piece along one tree, every child's vector in a slot of its own
 * (short vectors, most calls): all received at once, folded in the
 * children's order (as they come when any order will do), then sent up
 * whole.  About 200 fewer instructions a call than the general loop for
 * a destination with 2 children. */
static void combine_whole(fanin *f)
{
    const blx_ep *e = &f->x->ep;
    fanin_post(f);
    while (f->folded < f->total) {
        int s = f->x->ordered ? f->folded : blx_waitany(e, f->nslots, f->req);
        if (f->x->ordered)
            blx_wait(e, &f->req[s]);
        fanin_fold(f, s);
    }
    if (f->at[0].parent >= 0) {
        blx_req r;
        blx_isend(e, f->x->buf, f->x->bytes, f->at[0].parent, &r);
        blx_wait(e, &r);
    }
}

void blx_tree_combine(const blx_xfer *xin)
{
    place at[2];
    int ntrees = places(xin, at);
    if (blx_xfer_rel(xin) != 0 && at[0].nkids == 0 && at[1].nkids == 0) {
        leaf_combine(xin, at, ntrees);
        return;
    }
    blx_xfer own = *xin, *x = &own;
    if (x->readonly)
        blx_xfer_own(x);
    fanin f;
    _Alignas(64) char stack[2048];
    fanin_start(&f, x, at, ntrees, stack, sizeof stack);
    if (f.cut.k == 1 && ntrees == 1 && f.nslots == f.total) {
        combine_whole(&f);
    } else {
        stream o; /* the destination sends nothing */
        if (at[0].parent >= 0 || at[1].parent >= 0)
            stream_start(&o, x, &f.cut, f.at, f.ntrees, 1, f.left, f.req + f.nslots);
        else
            o.x = x, o.cut = &f.cut, o.req = f.req + f.nslots, o.inflight = o.sent = o.total = o.used = 0;
        for (;;) {
            fanin_post(&f);
            stream_push(&o);
            if (f.folded == f.total && o.sent == o.total)
                break;
            int s = fanin_wait(&f, &o);
            if (s >= 0)
                fanin_arrived(&f, s);
        }
        stream_drain(&o);
    }
    if ((void *)f.req != (void *)stack)
        free(f.req);
}

double blx_tree_bcast_cost(const blx_cost_in *c) { return blx_model_tree_time(c->model, c->tree, c->n); }

static blx_steps fanin_steps(const blx_model *m, const void *t, int W)
{
    return blx_model_tree_steps(m, t, W);
}

/* Where messages received at once do not overlap their latencies (more
 * processes than processors: each waits for its sender's turn, model.h),
 * a node that takes its children's whole vectors pays one latency per
 * child, as if one receive were in flight at a time (the plan's window
 * would overlap them).  Measured with 4 processes on this machine's 2
 * cores: the flat fan-in of 3 that the overlapping count chose for sums
 * to one of 8 B to 64 KiB took 0.95-1.15 us at 8 B and 31-38 us at 64 KiB,
 * the binomial fan-in 0.63-0.69 and 27-31 us. */
double blx_tree_combine_cost(const blx_cost_in *c)
{
    blx_model m = *c->model; /* every byte received is also folded */
    m.beta += m.gamma;
    blx_plan plan = blx_model_tree_plan(&m, c->tree, c->n, 1);
    if (m.overlap || plan.piece <= c->n)
        return blx_model_tree_time(&m, c->tree, c->n);
    plan.window = 1;
    return blx_model_plan_time(&m, fanin_steps, c->tree, c->n, plan);
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
