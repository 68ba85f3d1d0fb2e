/*
 * topologies/stream.c - a node's sends along its tree or two trees, and the
 * places the walkers share; see walk.h.
 */
#include <stdlib.h>

#include "../base/report.h"
#include "walk.h"

blx_req *blx_walk_reqs(const blx_xfer *x, blx_req *stack, int n)
{
    blx_req *r = stack;
    if (n > BLX_STACK_REQS && (r = malloc((size_t)n * sizeof *r)) == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "out of memory for %d MPI requests", n);
    for (int i = 0; i < n; i++)
        r[i].peer = -1;
    return r;
}

static blx_place where(const blx_xfer *x, const blx_tree *t)
{
    int rel = blx_xfer_rel(x);
    blx_place p = {rel == 0 ? -1 : blx_xfer_member(x, t->parent[rel]), blx_tree_nkids(t, rel),
                   blx_tree_kids(t, rel)};
    return p;
}

int blx_places(const blx_xfer *x, blx_place at[2])
{
    at[0] = where(x, x->tree);
    at[1] = x->tree2 != NULL ? where(x, x->tree2) : at[0];
    return x->tree2 != NULL ? 2 : 1;
}

/* Whether the two trees' pieces must go in piece order: both lead to the
 * same process (children are numbered relative to the root in both). */
static int same_destination(const blx_place at[2], int up)
{
    if (up)
        return at[0].parent >= 0 && at[0].parent == at[1].parent;
    for (int a = 0; a < at[0].nkids; a++)
        for (int b = 0; b < at[1].nkids; b++)
            if (at[0].kids[a] == at[1].kids[b])
                return 1;
    return 0;
}

void blx_stream_start(blx_stream *o, const blx_xfer *x, const blx_cut *cut, const blx_place at[2], int ntrees,
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
        o->in_order = same_destination(at, up);
    }
    o->sync = o->total > x->plan.window; /* else all may be in flight: the slots only recycle requests */
    o->window = !o->sync || x->plan.window > BLX_STREAM_SENDS ? BLX_STREAM_SENDS
                : x->plan.window < 1                          ? 1
                                                              : x->plan.window;
    o->in_order |= o->window == 1;
}

/* The tree whose next send may go now, or -1. */
static int stream_next(const blx_stream *o)
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

void blx_stream_push(blx_stream *o)
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

void blx_stream_done(blx_stream *o, int s)
{
    o->req[s].peer = -1;
    o->inflight--;
    o->busy[(int)o->tree[s]]--;
}

void blx_stream_drain(blx_stream *o)
{
    if (o->used == 1) /* one request: a plain wait */
        blx_wait(&o->x->ep, &o->req[0]);
    else if (o->used > 1)
        blx_waitall(&o->x->ep, o->used, o->req);
    o->inflight = 0;
}

/* The receives r[0..n) are moved beside the sends for the wait and back (a
 * wait on a few requests, not on every receive posted). */
int blx_stream_wait(blx_stream *o, blx_req *const r[], int n)
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
    blx_stream_done(o, s);
    return -1;
}
