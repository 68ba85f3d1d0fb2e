/*
 * topologies/tree_combine.c - the combine (fan-in) walker every tree
 * algorithm uses.
 *
 * The broadcast's tree walked the other way: a node receives every child's
 * piece i, folds it into its own piece i, and sends piece i to its parent.
 * Receives are posted ahead, piece after piece, into as many slots as
 * BLX_FANIN_BUDGET allows (fanin.h), so children need not wait;
 * contributions are folded as they arrive, or in the children's order when
 * the combine must be repeatable.  A vector the plan sends whole (a
 * binomial tree's best) whose children's copies do not fit the slots
 * together comes from the children one after the other, the smallest
 * subtree first: that is the order they are ready in, and the node's link
 * takes d n bytes either way (pieces would only add latencies).  Every
 * receive names its child (never MPI_ANY_SOURCE), so pieces of different
 * children and operations cannot be confused.  With a second tree, pieces
 * alternate between the trees as in the broadcast, and the node's sends to
 * its two parents go out as in the broadcast too.
 *
 *   cost: as the broadcast, with beta + gamma for beta (the node folds what
 *   it receives)
 */
#include "../base/report.h"
#include "fanin.h"

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
    if (x->in.unit == 0 && x->in.bytes > BLX_MAX_MSG)
        blx_fatal(x->ep.ctxt, x->ep.routine,
                  "a combine with locations of %zu bytes is larger than this library's 1 GiB limit for them",
                  x->in.bytes);
    if (x->in.unit == 0)
        return blx_cut_make(x->in.bytes, x->in.bytes + 1, 0, 0);
    if (x->in.bytes <= BLX_FANIN_BUDGET / 2 / (size_t)x->tree->np) /* fits whatever the degree */
        return blx_cut_make(x->in.bytes, x->plan.piece, x->in.unit, x->plan.lead);
    /* Pieces small enough that every child's next two fit the slots at
     * once: of cap bytes, one element over BLX_FANIN_BUDGET / 2d, so that a
     * message of a power of two bytes never is a multiple of them (the cut
     * would end in an empty piece, a latency more). */
    int d = max_kids(x->tree), d2 = max_kids(x->tree2);
    size_t cap = BLX_FANIN_BUDGET / (2 * (size_t)(d > d2 ? d : d2)) / x->in.unit * x->in.unit + x->in.unit;
    if (x->plan.piece <= cap)
        return blx_cut_make(x->in.bytes, x->plan.piece, x->in.unit, x->plan.lead);
    /* A message the plan sends whole (a binomial tree's best) stays whole;
     * where the children's vectors do not fit the slots together, they come
     * one after the other (fanin.c).  Not at exactly cap bytes: a sender of
     * more, cut into pieces of cap, would then send a first piece as long as
     * the whole message expected here (a receiver that expects more or less
     * must meet a piece of another length, blx_cut_make). */
    if (x->plan.piece > x->in.bytes && x->in.bytes <= BLX_MAX_MSG && x->in.bytes != cap)
        return blx_cut_make(x->in.bytes, x->plan.piece, x->in.unit, 0);
    return blx_cut_make(x->in.bytes, cap, x->in.unit, 0);
}

/* A leaf of the fan-in (of both trees): it only sends its pieces to its
 * parents (its buffer may be the user's read-only matrix), with no receive
 * slots to set up. */
static void leaf_combine(const blx_xfer *x, const blx_place at[2], int ntrees)
{
    blx_cut cut = combine_cut(x);
    if (cut.k == 1) { /* one message to one parent (most calls: short vectors) */
        blx_req r;
        blx_isend(&x->ep, x->buf, x->in.bytes, at[0].parent, &r);
        blx_wait(&x->ep, &r);
        return;
    }
    blx_req w[BLX_STREAM_SENDS];
    blx_stream o;
    blx_stream_start(&o, x, &cut, at, ntrees, 1, NULL, w);
    for (blx_stream_push(&o); o.sent < o.total; blx_stream_push(&o))
        blx_stream_done(&o, blx_waitany(&x->ep, o.used, w));
    blx_stream_drain(&o);
}

/* One piece along one tree, every child's vector in a slot of its own
 * (short vectors, most calls): all received at once, folded in the
 * children's order (as they come when any order will do), then sent up
 * whole, without the general loop's stream. */
static void combine_whole(blx_fanin *f)
{
    const blx_ep *e = &f->x->ep;
    blx_fanin_post(f);
    while (f->folded < f->total) {
        int s = f->x->ordered ? f->folded : blx_waitany(e, f->nslots, f->req);
        if (f->x->ordered)
            blx_wait(e, &f->req[s]);
        blx_fanin_fold(f, s);
    }
    if (f->at[0].parent >= 0) {
        blx_req r;
        blx_isend(e, f->x->buf, f->x->in.bytes, f->at[0].parent, &r);
        blx_wait(e, &r);
    }
}

/* The general loop: receives posted as slots free up, pieces sent up as
 * they are complete. */
static void combine_pieces(blx_fanin *f, const blx_xfer *x)
{
    blx_stream o; /* the destination's has nothing to send */
    blx_stream_start(&o, x, &f->cut, f->at, f->ntrees, 1, f->left, f->req + f->nslots);
    for (;;) {
        blx_fanin_post(f);
        blx_stream_push(&o);
        if (f->folded == f->total && o.sent == o.total)
            break;
        int s = blx_fanin_wait(f, &o);
        if (s >= 0)
            blx_fanin_arrived(f, s);
    }
    blx_stream_drain(&o);
}

void blx_tree_combine(const blx_xfer *xin)
{
    blx_place at[2];
    int ntrees = blx_places(xin, at);
    if (blx_xfer_rel(xin) != 0 && at[0].nkids == 0 && at[1].nkids == 0) {
        leaf_combine(xin, at, ntrees);
        return;
    }
    blx_xfer own = *xin, *x = &own;
    if (x->readonly)
        blx_xfer_own(x);
    blx_fanin f;
    _Alignas(64) char stack[2048];
    blx_cut cut = combine_cut(x);
    blx_fanin_start(&f, x, at, ntrees, &cut, stack, sizeof stack);
    if (f.cut.k == 1 && ntrees == 1 && f.nslots == f.total)
        combine_whole(&f);
    else
        combine_pieces(&f, x);
    blx_fanin_end(&f, stack);
}

static blx_steps fanin_steps(const blx_model *m, const void *t, int W)
{
    return blx_model_tree_steps(m, t, W);
}

/* Where messages received at once do not overlap their latencies (more
 * processes than processors: each waits for its sender's turn, model.h),
 * a node that takes its children's whole vectors pays one latency per
 * child, as if one receive were in flight at a time (the plan's window
 * would overlap them). */
double blx_tree_combine_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree2;
    blx_model m = *in->model; /* every byte received is also folded */
    m.beta += m.gamma;
    blx_plan plan = blx_model_tree_plan(&m, tree, in->bytes, 1);
    if (m.overlap || plan.piece <= in->bytes)
        return blx_model_tree_time(&m, tree, in->bytes);
    plan.window = 1;
    return blx_model_plan_time(&m, fanin_steps, tree, in->bytes, plan);
}
