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
 * be repeatable.  Every receive names its child (never MPI_ANY_SOURCE), so
 * pieces of different children and operations cannot be confused.  With a
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
    int ntrees, up;         /* up: to the parent (a fan-in), else to the children */
    int ndest[2], count[2]; /* each tree's destinations and sends */
    int next[2], busy[2];   /* each tree's sends so far, and in flight */
    int in_order;           /* piece order across the trees */
    int inflight, sent, total, window, sync, used;
    blx_req *req;            /* [window], then what the caller waits for with them */
    char tree[STREAM_SENDS]; /* the tree of the send in each request */
} stream;

static void stream_start(stream *o, const blx_xfer *x, const blx_cut *cut, const place at[2], int ntrees,
                         int up, const int *left, blx_req *req)
{
    *o = (stream){.x = x, .cut = cut, .at = at, .left = left, .ntrees = ntrees, .up = up, .req = req};
    for (int t = 0; t < ntrees; t++) {
        o->ndest[t] = up ? at[t].parent >= 0 : at[t].nkids;
        o->count[t] = o->ndest[t] * ((cut->k - t + ntrees - 1) / ntrees);
        o->total += o->count[t];
    }
    o->sync = o->total > x->plan.window; /* else all may be in flight: the slots only recycle requests */
    o->window = !o->sync || x->plan.window > STREAM_SENDS ? STREAM_SENDS
                : x->plan.window < 1                      ? 1
                                                          : x->plan.window;
    o->in_order = o->window == 1;
    if (ntrees == 2 && up)
        o->in_order |= at[0].parent >= 0 && at[0].parent == at[1].parent;
    else if (ntrees == 2) /* children are numbered relative to the root in both trees */
        for (int a = 0; a < at[0].nkids; a++)
            for (int b = 0; b < at[1].nkids; b++)
                o->in_order |= at[0].kids[a] == at[1].kids[b];
    for (int s = 0; s < o->window; s++)
        req[s].peer = -1;
}

/* Tree t's next piece to send (cut->k: none left). */
static int stream_piece(const stream *o, int t)
{
    return o->next[t] < o->count[t] ? t + o->ntrees * (o->next[t] / o->ndest[t]) : o->cut->k;
}

/* The tree whose next send may go now, or -1. */
static int stream_next(const stream *o)
{
    int best = -1, bi = o->cut->k;
    for (int t = 0; t < o->ntrees; t++) {
        int i = stream_piece(o, t), u = 1 - t;
        if (i >= bi || (o->left && o->left[i] > 0))
            continue;
        if (o->ntrees == 2 && stream_piece(o, u) < o->cut->k && /* the other tree has sends left */
            (o->in_order ? stream_piece(o, u) < i : o->busy[t] >= o->window - 1))
            continue;
        best = t;
        bi = i;
    }
    return best;
}

/* Posts every send that may go now. */
static void stream_push(stream *o)
{
    for (int t; o->inflight < o->window && (t = stream_next(o)) >= 0; o->sent++, o->inflight++) {
        int i = stream_piece(o, t), j = o->next[t]++ % o->ndest[t], s = 0;
        int to = o->up ? o->at[t].parent : blx_xfer_member(o->x, o->at[t].kids[j]);
        while (o->req[s].peer >= 0)
            s++;
        size_t len, off = blx_cut_piece(o->cut, i, &len);
        (o->sync ? blx_issend : blx_isend)(&o->x->ep, o->x->buf + off, len, to, &o->req[s]);
        o->tree[s] = (char)t;
        o->busy[t]++;
        o->used = s + 1 > o->used ? s + 1 : o->used;
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
    blx_waitall(&o->x->ep, o->used, o->req);
    o->inflight = 0;
}

void blx_tree_bcast(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    blx_cut cut = blx_cut_make(x->bytes, x->plan.piece, 1, x->plan.lead);
    place at[2];
    int ntrees = places(x, at);
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
    /* sends in flight, then the receive each tree's next send waits for */
    blx_req w[STREAM_SENDS + 2];
    stream o;
    stream_start(&o, x, &cut, at, ntrees, 0, left, w);
    for (;;) {
        stream_push(&o);
        if (o.sent == o.total)
            break;
        int n = o.used;
        for (int t = 0; t < ntrees; t++) {
            int i = stream_piece(&o, t);
            w[n + t].peer = -1;
            if (i < cut.k && left[i] && rr[i].peer >= 0) {
                w[n + t] = rr[i]; /* moved: rr[i] is then no longer waited for */
                rr[i].peer = -1;
            }
        }
        int s = blx_waitany(e, n + ntrees, w);
        if (s < n)
            stream_done(&o, s);
        else
            left[stream_piece(&o, s - n)] = 0;
        for (int t = 0; t < ntrees; t++) { /* put back what did not complete */
            if (w[n + t].peer >= 0)
                rr[stream_piece(&o, t)] = w[n + t];
            w[n + t].peer = -1;
        }
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
 * one before it there is folded; but pieces do not wait for each other: with
 * two trees a piece of one is folded and sent on while the other tree's
 * piece before it still waits for a child (a sum of 1 MiB to one of 64
 * simulated processes: 160.4 us, against 174.4 with every contribution
 * folded in q order).  The bits are the same either way.  The node's sends
 * in flight (at most STREAM_SENDS) have requests after the slots', so that
 * one wait serves both. */
typedef struct fanin {
    const blx_xfer *x;
    place at[2];      /* piece i follows tree i % ntrees */
    int ntrees, pair; /* pair: contributions to two consecutive pieces */
    blx_cut cut;
    char *tmp;
    size_t slot_bytes;
    int nslots, posted, folded, total, nfree;
    int low;      /* repeatable: the first contribution not yet folded */
    blx_req *req; /* [nslots + STREAM_SENDS] */
    int *q;       /* [nslots] the contribution a slot holds (-1: none) */
    int *arrived; /* [nslots] its receive has completed */
    int *free;    /* [nslots] free slots (arrival order) */
    int *left;    /* [k] children not yet folded into piece i */
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
    *j = r;
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
    else
        while (f->low < f->posted && f->q[f->low % f->nslots] != f->low)
            f->low++;
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
    /* pieces small enough that every child's next piece fits the slots at
     * once (the model may send the message whole: a node with d children
     * posting fewer than d receives would take the children one by one) */
    if (x->bytes <= FANIN_BUDGET / 2 / (size_t)x->tree->np) /* fits whatever the degree */
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, x->plan.lead);
    int d = max_kids(x->tree), d2 = max_kids(x->tree2);
    size_t cap = FANIN_BUDGET / (2 * (size_t)(d > d2 ? d : d2)) / x->unit * x->unit;
    if (x->plan.piece <= cap)
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, x->plan.lead);
    return blx_cut_make(x->bytes, cap > x->unit ? cap : x->unit, x->unit, 0);
}

static void fanin_start(fanin *f, const blx_xfer *x, void *stack, size_t stack_bytes)
{
    f->x = x;
    f->ntrees = places(x, f->at);
    f->pair = f->at[0].nkids + f->at[1].nkids;
    f->cut = combine_cut(x);
    f->total = fanin_before(f, f->cut.k);
    f->slot_bytes =
        (f->cut.k > 1 ? f->cut.s : x->bytes) / 64 * 64 + 64; /* aligned: values follow locations */
    size_t fit = FANIN_BUDGET / f->slot_bytes;
    f->nslots = f->total < 1 ? 1 : (fit < 2 ? 2 : (fit > (size_t)f->total ? f->total : (int)fit));
    f->posted = f->folded = f->low = 0;
    f->nfree = f->nslots;
    f->tmp = f->total
                 ? blx_scratch(BLX_SCRATCH_TMP, (size_t)f->nslots * f->slot_bytes, x->ep.ctxt, x->ep.routine)
                 : NULL;
    /* one block: requests, then q, arrived, free and left (on the stack when small) */
    int nreq = f->nslots + STREAM_SENDS;
    size_t need = (size_t)nreq * sizeof *f->req + (3 * (size_t)f->nslots + (size_t)f->cut.k) * sizeof(int);
    f->req = need <= stack_bytes ? stack : malloc(need);
    if (f->req == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d receives", f->nslots);
    f->q = (int *)(f->req + nreq);
    f->arrived = f->q + f->nslots;
    f->free = f->arrived + f->nslots;
    f->left = f->free + f->nslots;
    for (int s = 0; s < nreq; s++)
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
    blx_req w[STREAM_SENDS];
    stream o;
    stream_start(&o, x, &cut, at, ntrees, 1, NULL, w);
    for (stream_push(&o); o.sent < o.total; stream_push(&o))
        stream_done(&o, blx_waitany(&x->ep, o.used, w));
    stream_drain(&o);
}

/* Waits for what comes next: the next contribution to fold (any, when
 * folding as they arrive) or, with sends in flight, one of them.  Returns
 * the receive slot, or nslots + the send's index. */
static int fanin_wait(fanin *f, const stream *o)
{
    const blx_ep *e = &f->x->ep;
    if (f->folded == f->total) /* only sends are left */
        return f->nslots + blx_waitany(e, o->used, o->req);
    if (o->inflight > 0 || (f->x->ordered ? f->ntrees == 2 : f->nslots > 1))
        return blx_waitany(e, f->nslots + (o->inflight > 0 ? o->used : 0), f->req);
    /* one tree, in order: the contribution to fold next (or the one slot) */
    int s = f->low % f->nslots;
    blx_wait(e, &f->req[s]);
    return s;
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
    fanin_start(&f, x, stack, sizeof stack);
    stream o;
    stream_start(&o, x, &f.cut, f.at, f.ntrees, 1, f.left, f.req + f.nslots);
    for (;;) {
        fanin_post(&f);
        stream_push(&o);
        if (f.folded == f.total && o.sent == o.total)
            break;
        int s = fanin_wait(&f, &o);
        if (s < f.nslots)
            fanin_arrived(&f, s);
        else
            stream_done(&o, s - f.nslots);
    }
    stream_drain(&o);
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
