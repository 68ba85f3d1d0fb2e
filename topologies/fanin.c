/*
 * topologies/fanin.c - the receive slots of a fan-in; see fanin.h.
 */
#include <stdlib.h>

#include "../base/report.h"
#include "fanin.h"

/* Contributions to the pieces before piece i. */
static int before(const blx_fanin *f, int i) { return i / 2 * f->pair + i % 2 * f->at[0].nkids; }

/* Contribution q's piece, and its child's position among that piece's. */
static int piece_of(const blx_fanin *f, int q, int *j)
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
static int next_slot(blx_fanin *f)
{
    if (!f->x->ordered)
        return f->nfree > 0 ? f->free[--f->nfree] : -1;
    int s = f->posted % f->nslots;
    return f->q[s] < 0 ? s : -1;
}

void blx_fanin_post(blx_fanin *f)
{
    for (int s; f->posted < f->total && (s = next_slot(f)) >= 0;) {
        int q = f->posted++, j, piece = piece_of(f, q, &j);
        f->q[s] = q;
        f->arrived[s] = 0;
        blx_irecv_piece(&f->x->ep, f->tmp + (size_t)s * f->slot_bytes, &f->cut, piece,
                        blx_xfer_member(f->x, f->at[piece % f->ntrees].kids[j]), &f->req[s]);
    }
}

void blx_fanin_fold(blx_fanin *f, int s)
{
    int j, piece = piece_of(f, f->q[s], &j);
    size_t len, off = blx_cut_piece(&f->cut, piece, &len);
    f->x->merge(f->x->op, f->x->buf + off, f->tmp + (size_t)s * f->slot_bytes, len, 0);
    f->left[piece]--;
    f->folded++;
    f->q[s] = -1;
    f->arrived[s] = 0;
    if (!f->x->ordered)
        f->free[f->nfree++] = s;
}

/* Repeatable: once slot s's earlier siblings are in, s and the children
 * after it that have arrived. */
void blx_fanin_arrived(blx_fanin *f, int s)
{
    f->arrived[s] = 1;
    if (!f->x->ordered) {
        blx_fanin_fold(f, s);
        return;
    }
    if (f->ntrees == 1) { /* one tree: its pieces go in order anyway, so all in q order */
        while (f->folded < f->posted && f->arrived[f->folded % f->nslots])
            blx_fanin_fold(f, f->folded % f->nslots);
        return;
    }
    int q = f->q[s], j, piece = piece_of(f, q, &j);
    if (j != f->at[piece % f->ntrees].nkids - f->left[piece])
        return; /* an earlier child of its piece is still to come */
    for (;;) {
        blx_fanin_fold(f, s);
        if (++q >= f->posted || piece_of(f, q, &j) != piece)
            break;
        s = q % f->nslots;
        if (!f->arrived[s])
            break;
    }
}

/* How many slots: two at least (the next receive is posted while one is
 * folded, so a child does not wait a latency for it), and one for whole
 * vectors of more than BLX_FANIN_BUDGET (a vector's worth of scratch, as
 * the reference's). */
static int slot_count(const blx_fanin *f)
{
    size_t fit = BLX_FANIN_BUDGET / f->slot_bytes;
    size_t least = f->cut.k == 1 && f->x->in.bytes > BLX_FANIN_BUDGET ? 1 : 2;
    fit = fit < least ? least : fit;
    return f->total < 1 ? 1 : (fit > (size_t)f->total ? f->total : (int)fit);
}

/* The bookkeeping in one block: requests, then q, arrived, free and left. */
static void lay_out(blx_fanin *f, void *stack, size_t stack_bytes)
{
    int nreq = f->nslots + BLX_STREAM_SENDS + 2; /* the slots', then the stream's */
    size_t need = (size_t)nreq * sizeof *f->req + (3 * (size_t)f->nslots + (size_t)f->cut.k) * sizeof(int);
    f->req = need <= stack_bytes ? stack : malloc(need);
    if (f->req == NULL)
        blx_fatal(f->x->ep.ctxt, f->x->ep.routine, "out of memory for %d receives", f->nslots);
    f->q = (int *)(f->req + nreq);
    f->arrived = f->q + f->nslots;
    f->free = f->arrived + f->nslots;
    f->left = f->free + f->nslots;
    for (int s = 0; s < f->nslots; s++) { /* the stream sets up its own requests */
        f->req[s].peer = -1;
        f->q[s] = -1;
        f->arrived[s] = 0;
        f->free[s] = f->nslots - 1 - s;
    }
    for (int i = 0; i < f->cut.k; i++)
        f->left[i] = f->at[i % f->ntrees].nkids;
}

void blx_fanin_start(blx_fanin *f, const blx_xfer *x, const blx_place at[2], int ntrees, const blx_cut *cut,
                     void *stack, size_t stack_bytes)
{
    f->x = x;
    f->at[0] = at[0], f->at[1] = at[1], f->ntrees = ntrees;
    f->pair = f->at[0].nkids + f->at[1].nkids;
    f->cut = *cut;
    f->total = before(f, f->cut.k);
    f->slot_bytes =
        (f->cut.k > 1 ? f->cut.s : x->in.bytes) / 64 * 64 + 64; /* aligned: values follow locations */
    f->nslots = slot_count(f);
    f->smallest_first = f->cut.k == 1 && ntrees == 1 && f->nslots < f->total;
    f->posted = f->folded = f->low[0] = 0;
    f->low[1] = f->at[0].nkids; /* tree B's first contribution */
    f->nfree = f->nslots;
    f->tmp = f->total
                 ? blx_scratch(BLX_SCRATCH_TMP, (size_t)f->nslots * f->slot_bytes, x->ep.ctxt, x->ep.routine)
                 : NULL;
    lay_out(f, stack, stack_bytes);
}

void blx_fanin_end(blx_fanin *f, void *stack)
{
    if ((void *)f->req != stack)
        free(f->req);
}

/* Whether contribution q (posted) is of tree t (of two) and not yet folded. */
static int waits(const blx_fanin *f, int q, int t)
{
    int j;
    return f->q[q % f->nslots] == q && piece_of(f, q, &j) % 2 == t;
}

/* Repeatable, two trees: the receive of tree t's next contribution to
 * fold (its first not yet folded, and posted), or NULL; its slot in *slot. */
static blx_req *next_of_tree(blx_fanin *f, int t, int *slot)
{
    while (f->low[t] < f->posted && !waits(f, f->low[t], t))
        f->low[t]++;
    *slot = f->low[t] % f->nslots;
    return f->low[t] < f->posted ? &f->req[*slot] : NULL;
}

/* Folding as they arrive, any contribution; where the combine must be
 * repeatable, each tree's next to fold (the others could not be folded yet,
 * nor their pieces sent before it). */
int blx_fanin_wait(blx_fanin *f, blx_stream *o)
{
    const blx_ep *e = &f->x->ep;
    if (f->folded == f->total) /* only sends are left */
        return blx_stream_wait(o, NULL, 0);
    if (!f->x->ordered) {
        if (o->inflight == 0 && f->nslots == 1) {
            blx_wait(e, &f->req[0]);
            return 0;
        }
        int s = blx_waitany(e, f->nslots + o->used, f->req);
        if (s < f->nslots)
            return s;
        blx_stream_done(o, s - f->nslots);
        return -1;
    }
    int slot[2] = {f->folded % f->nslots, 0}; /* one tree: folded in q order */
    blx_req *next[2] = {&f->req[slot[0]], NULL};
    if (f->ntrees == 2) {
        next[0] = next_of_tree(f, 0, &slot[0]);
        next[1] = next_of_tree(f, 1, &slot[1]);
    }
    if (o->inflight == 0 && next[1] == NULL) { /* one tree, nothing in flight: a plain wait */
        blx_wait(e, next[0]);
        return slot[0];
    }
    int t = blx_stream_wait(o, next, 2);
    return t < 0 ? -1 : slot[t];
}
