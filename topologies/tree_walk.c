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
 * i mod 2.  Broadcasts are globally blocking, so the buffer may be the
 * user's matrix itself.
 *
 *   cost: model.h, a pipelined tree: (L + (k - 1) D)(alpha + n beta / k)
 *
 * Combine (fan-in).  The same tree walked the other way: a node receives
 * every child's piece i, folds it into its own piece i, and sends piece i
 * to its parent.  Receives are posted ahead, piece after piece, into as many
 * slots as FANIN_BUDGET allows, so children need not wait; contributions are
 * folded as they arrive, or in the children's order when the combine must
 * be repeatable.  Every receive names its child (never MPI_ANY_SOURCE), so
 * pieces of different children and operations cannot be confused.
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

/* The sends of one node, at most 'cap' in flight, completed in order. */
typedef struct sendq {
    const blx_ep *e;
    blx_req ring[16];
    int cap, head, n, sync;
} sendq;

static void sendq_init(sendq *q, const blx_ep *e, int window, int total)
{
    q->e = e;
    q->cap = window < 1 ? 1 : (window > 16 ? 16 : window);
    q->head = q->n = 0;
    q->sync = total > window; /* more sends than the window: pace them */
    if (!q->sync)             /* all may be in flight: the ring only recycles completed sends */
        q->cap = 16;
}

static void sendq_push(sendq *q, const void *buf, size_t len, int to)
{
    if (q->n == q->cap) {
        blx_wait(q->e, &q->ring[q->head]);
        q->head = (q->head + 1) % q->cap;
        q->n--;
    }
    blx_req *r = &q->ring[(q->head + q->n++) % q->cap];
    if (q->sync)
        blx_issend(q->e, buf, len, to, r);
    else
        blx_isend(q->e, buf, len, to, r);
}

static void sendq_drain(sendq *q)
{
    for (; q->n > 0; q->n--, q->head = (q->head + 1) % q->cap)
        blx_wait(q->e, &q->ring[q->head]);
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

void blx_tree_bcast(const blx_xfer *x)
{
    const blx_ep *e = &x->ep;
    blx_cut cut = blx_cut_make(x->bytes, x->plan.piece, 1, x->plan.lead);
    int ntrees = x->tree2 != NULL ? 2 : 1, total = 0;
    place at[2] = {where(x, x->tree), where(x, x->tree2 != NULL ? x->tree2 : x->tree)};
    blx_req stack[STACK_REQS], *rr = reqs(x, stack, cut.k);
    size_t len, off;
    for (int i = 0; i < cut.k; i++) { /* every piece's receive, posted ahead */
        const place *p = &at[i % ntrees];
        off = blx_cut_piece(&cut, i, &len);
        if (p->parent >= 0)
            blx_irecv_piece(e, x->buf + off, &cut, i, p->parent, &rr[i]);
        total += p->nkids;
    }
    sendq q;
    sendq_init(&q, e, x->plan.window, total);
    for (int i = 0; i < cut.k; i++) {
        const place *p = &at[i % ntrees];
        if (p->nkids == 0)
            continue; /* a leaf of this piece's tree: received at the end */
        off = blx_cut_piece(&cut, i, &len);
        if (rr[i].peer >= 0)
            blx_wait(e, &rr[i]);
        for (int j = 0; j < p->nkids; j++)
            sendq_push(&q, x->buf + off, len, blx_xfer_member(x, p->kids[j]));
    }
    sendq_drain(&q);
    blx_waitall(e, cut.k, rr);
    if (rr != stack)
        free(rr);
}

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->bytes, x->ep.ctxt, x->ep.routine);
    memcpy(w, x->buf, x->bytes);
    x->buf = w;
    x->readonly = 0;
}

/* The receive slots of a fan-in.  Contribution q = piece * nkids + j (the
 * j-th child's piece) is posted in q order, at most nslots at a time, so
 * every contribution to piece i is posted before any to piece i + 1 takes a
 * slot.  Slots are reused in q order when folding in order, from a free
 * list when folding as contributions arrive. */
typedef struct fanin {
    const blx_xfer *x;
    place at;
    blx_cut cut;
    char *tmp;
    size_t slot_bytes;
    int nslots, posted, total, nfree;
    blx_req *req;
    int *q;    /* [nslots] the contribution a slot holds */
    int *free; /* [nslots] free slots (arrival order) */
    int *left; /* [k] children not yet folded into piece i */
} fanin;

static void fanin_post(fanin *f, int done)
{
    while (f->posted < f->total && f->posted - done < f->nslots) {
        int q = f->posted++, s = f->x->ordered ? q % f->nslots : f->free[--f->nfree];
        f->q[s] = q;
        blx_irecv_piece(&f->x->ep, f->tmp + (size_t)s * f->slot_bytes, &f->cut, q / f->at.nkids,
                        blx_xfer_member(f->x, f->at.kids[q % f->at.nkids]), &f->req[s]);
    }
}

/* Waits for the next contribution (in q order, or whichever arrives) and
 * folds it into its piece. */
static void fanin_fold_next(fanin *f, int done)
{
    int s = done % f->nslots;
    if (f->x->ordered)
        blx_wait(&f->x->ep, &f->req[s]);
    else
        s = blx_waitany(&f->x->ep, f->nslots, f->req);
    int piece = f->q[s] / f->at.nkids;
    size_t len, off = blx_cut_piece(&f->cut, piece, &len);
    f->x->merge(f->x->op, f->x->buf + off, f->tmp + (size_t)s * f->slot_bytes, len, 0);
    f->left[piece]--;
    if (!f->x->ordered)
        f->free[f->nfree++] = s;
}

static int max_kids(const blx_tree *t)
{
    int d = 1;
    for (int r = 0; r < t->np; r++)
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
    size_t cap = FANIN_BUDGET / (2 * (size_t)max_kids(x->tree)) / x->unit * x->unit;
    if (x->plan.piece <= cap)
        return blx_cut_make(x->bytes, x->plan.piece, x->unit, x->plan.lead);
    return blx_cut_make(x->bytes, cap > x->unit ? cap : x->unit, x->unit, 0);
}

static void fanin_start(fanin *f, const blx_xfer *x, void *stack, size_t stack_bytes)
{
    f->x = x;
    f->at = where(x, x->tree);
    f->cut = combine_cut(x);
    f->total = f->cut.k * f->at.nkids;
    f->slot_bytes =
        (f->cut.k > 1 ? f->cut.s : x->bytes) / 64 * 64 + 64; /* aligned: values follow locations */
    size_t fit = FANIN_BUDGET / f->slot_bytes;
    f->nslots = f->total < 1 ? 1 : (fit < 2 ? 2 : (fit > (size_t)f->total ? f->total : (int)fit));
    f->posted = 0;
    f->nfree = f->nslots;
    f->tmp = f->total
                 ? blx_scratch(BLX_SCRATCH_TMP, (size_t)f->nslots * f->slot_bytes, x->ep.ctxt, x->ep.routine)
                 : NULL;
    /* one block: requests, then q, free and left (on the stack when small) */
    size_t need =
        (size_t)f->nslots * sizeof *f->req + (2 * (size_t)f->nslots + (size_t)f->cut.k) * sizeof(int);
    f->req = need <= stack_bytes ? stack : malloc(need);
    if (f->req == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d receives", f->nslots);
    f->q = (int *)(f->req + f->nslots);
    f->free = f->q + f->nslots;
    f->left = f->free + f->nslots;
    for (int s = 0; s < f->nslots; s++) {
        f->req[s].peer = -1;
        f->free[s] = f->nslots - 1 - s;
    }
    for (int i = 0; i < f->cut.k; i++)
        f->left[i] = f->at.nkids;
}

/* A leaf of the fan-in: it only sends its pieces to its parent (its buffer
 * may be the user's read-only matrix), with no receive slots to set up. */
static void leaf_combine(const blx_xfer *x, int parent)
{
    blx_cut cut = combine_cut(x);
    sendq q;
    sendq_init(&q, &x->ep, x->plan.window, cut.k);
    for (int i = 0; i < cut.k; i++) {
        size_t len, off = blx_cut_piece(&cut, i, &len);
        sendq_push(&q, x->buf + off, len, parent);
    }
    sendq_drain(&q);
}

void blx_tree_combine(const blx_xfer *xin)
{
    int rel = blx_xfer_rel(xin);
    if (rel != 0 && blx_tree_nkids(xin->tree, rel) == 0) {
        leaf_combine(xin, blx_xfer_member(xin, xin->tree->parent[rel]));
        return;
    }
    blx_xfer own = *xin, *x = &own;
    if (x->readonly)
        blx_xfer_own(x);
    fanin f;
    _Alignas(64) char stack[1024];
    fanin_start(&f, x, stack, sizeof stack);
    sendq q;
    sendq_init(&q, &x->ep, x->plan.window, f.at.parent >= 0 ? f.cut.k : 0);
    int done = 0;
    for (int i = 0; i < f.cut.k; i++) {
        while (f.left[i] > 0) {
            fanin_post(&f, done);
            fanin_fold_next(&f, done++);
        }
        size_t len, off = blx_cut_piece(&f.cut, i, &len);
        if (f.at.parent >= 0)
            sendq_push(&q, x->buf + off, len, f.at.parent);
    }
    sendq_drain(&q);
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
