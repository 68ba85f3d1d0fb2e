/*
 * topologies/model.c - the cost model; see model.h.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Pieces smaller than this cost more in per-message work than they gain in
 * overlap on any machine we know of. */
#define PIECE_MIN ((size_t)8 << 10)
#define WINDOW_MAX 1024
/* A staggered chain's pieces, in alpha / beta (model.h): above 1 to keep
 * the stagger in range, the fastest in simulation (doc/performance.md). */
#define STAGGER_PIECE 1.15

blx_model blx_model_default(void)
{
    /* shared memory on a small node: about a microsecond a message, a few
     * GB/s a copy, two receivers copying at once, a sum of doubles as
     * measured on the development machine (doc/performance.md) */
    blx_model m = {1e-6, 2.5e-10, 7e-11, 2e-7, 2, 1};
    return m;
}

/* With more processes than processors every message waits for its
 * receiver to be scheduled: a large alpha keeps the default away from
 * pipelines whose every piece would wait so (doc/performance.md). */
void blx_model_crowd(blx_model *m, int procs, int cpus)
{
    if (procs > 0 && cpus > 0 && procs > cpus) {
        m->alpha = fmax(m->alpha, BLX_MODEL_OVERSUBSCRIBED_ALPHA);
        m->overlap = 0;
        /* folding shares the processors too */
        m->gamma = fmax(m->gamma, BLX_MODEL_OVERSUBSCRIBED_GAMMA);
    }
}

blx_model blx_model_for_node(int procs, int cpus)
{
    blx_model m = blx_model_default();
    blx_model_crowd(&m, procs, cpus);
    return m;
}

blx_model blx_model_network(const blx_model *on)
{
    blx_model m = {BLX_MODEL_NET_ALPHA, BLX_MODEL_NET_BETA, on->gamma, BLX_MODEL_NET_OVERHEAD, 1, 1};
    return m;
}

blx_model blx_model_across(const blx_model *off, int sharing)
{
    blx_model m = *off;
    m.beta *= sharing > 1 ? sharing : 1;
    return m;
}

int blx_model_window(const blx_model *m, double s)
{
    if (m->beta <= 0 || s <= 0)
        return WINDOW_MAX;
    double w = 1 + floor(m->alpha / (s * m->beta));
    return w > WINDOW_MAX ? WINDOW_MAX : (int)w;
}

/* A stream of pieces keeps the link busy if the next piece is posted
 * before this one has gone out: two in flight.  More would only split the
 * link between them and delay every piece, so a stream keeps two whatever
 * the piece size; a message sent whole takes blx_model_window's (a
 * tree's on a network link: whole() below). */
static int piece_window(const blx_model *m, double s)
{
    (void)s;
    return m->alpha > 0 ? 2 : 1;
}

/* The steps of t for window W, breadth first from the root (a node's
 * times are known before its children's); dmax: the most children.  A
 * stream's pieces leave one after another; W < 0: each batch of -W
 * messages sent whole shares the link, so all of them arrive together,
 * ceil(-W / links) transfers after the batch before. */
static blx_steps measure(const blx_tree *t, int W, int links, int *dmax)
{
    int np = t->np, head = 0, tail = 1, L[3] = {0, 0, 0}, whole = W < 0;
    W = abs(W);
    int *q = malloc((size_t)np * 4 * sizeof *q);
    *dmax = 0;
    if (q == NULL) /* as if one send at a time along a chain */
        return (blx_steps){np - 1, np - 1, np - 1, 1, 1, 1};
    int *la = q + np, *lb = la + np, *lo = lb + np;
    q[0] = la[0] = lb[0] = lo[0] = 0;
    while (head < tail) {
        int r = q[head++], d = blx_tree_nkids(t, r), sent = 0;
        const int *kids = blx_tree_kids(t, r);
        for (int j = 0; j < d; j++) {
            int c = kids[j], w = d - j < W ? d - j : W;
            sent += whole ? (j % W == 0) * ((w + links - 1) / links) : 1;
            la[c] = la[r] + j / W + 1;
            lb[c] = lb[r] + (whole ? sent : j / links + 1);
            lo[c] = lo[r] + j + 1;
            L[0] = la[c] > L[0] ? la[c] : L[0];
            L[1] = lb[c] > L[1] ? lb[c] : L[1];
            L[2] = lo[c] > L[2] ? lo[c] : L[2];
            q[tail++] = c;
        }
        *dmax = d > *dmax ? d : *dmax;
    }
    free(q);
    return (blx_steps){L[0], L[1], L[2], 0, 0, 0};
}

/* A node with d children and W sends in flight streams a piece out every
 * d (alpha / W + s beta / window + overhead). */
static void per_piece(const blx_model *m, int W, double d, blx_steps *st)
{
    st->da = d / W;
    st->db = d / m->window;
    st->dd = d;
}

blx_steps blx_model_tree_steps(const blx_model *m, const blx_tree *t, int W)
{
    blx_tree_memo *memo = t->memo; /* the tree's own cache: a const tree's steps are kept there */
    int width = abs(W);            /* W < 0: whole messages' steps (whole_steps) */
    width = width < 1 ? 1 : (width > WINDOW_MAX ? WINDOW_MAX : width), W = W < 0 ? -width : width;
    if (memo->links != m->window) {
        memset(memo->steps, 0, sizeof memo->steps);
        memo->links = m->window;
        memo->next = 0;
    }
    int *slot = NULL;
    for (int i = 0; i < BLX_TREE_MEMO && slot == NULL; i++)
        slot = memo->steps[i][0] == W ? memo->steps[i] : NULL;
    if (slot == NULL) {
        int dmax;
        blx_steps st = measure(t, W, m->window, &dmax);
        slot = memo->steps[memo->next];
        memo->next = (memo->next + 1) % BLX_TREE_MEMO;
        int v[5] = {W, (int)st.la, (int)st.lb, (int)st.lo, dmax};
        memcpy(slot, v, sizeof v);
    }
    blx_steps st = {slot[1], slot[2], slot[3], 0, 0, 0};
    per_piece(m, width, slot[4], &st);
    return st;
}

/* A chain of 'hops' links (point-to-point: copy, then move: 2). */
static blx_steps chain_steps(const blx_model *m, const void *hops, int W)
{
    double h = *(const int *)hops;
    blx_steps st = {h, h, h, 0, 0, 0};
    per_piece(m, W, 1, &st);
    return st;
}

blx_plan blx_model_chain_plan(const blx_model *m, int hops, size_t n, size_t unit)
{
    return blx_model_plan(m, chain_steps, &hops, n, unit);
}

static double piece_size(const blx_model *m, const blx_steps *st, double n)
{
    double per_piece = st->da * m->alpha + st->dd * m->overhead;
    return sqrt(n * per_piece / ((st->lb - st->db) * m->beta));
}

blx_plan blx_model_plan(const blx_model *m, blx_steps_fn steps, const void *shape, size_t n, size_t unit)
{
    blx_plan plan = {n + 1, blx_model_window(m, (double)n), 0}; /* whole */
    if (n < 2 * PIECE_MIN || m->alpha <= 0 || m->beta <= 0)
        return plan;
    blx_steps st = steps(m, shape, 1);
    if (st.lb <= st.db)
        return plan; /* every piece waits for the bottleneck: pipelining gains nothing */
    /* the piece for one send at a time, then again for the window that
     * piece size calls for: s = n / k* = sqrt(n D_alpha / ((L_beta - D_beta) beta));
     * each step is non-decreasing in n, as blx_cut_make asks */
    double s = piece_size(m, &st, (double)n);
    st = steps(m, shape, piece_window(m, s));
    s = piece_size(m, &st, (double)n);
    if (s < (double)PIECE_MIN)
        s = (double)PIECE_MIN;
    if (s < (double)n) {
        plan.piece = (size_t)s / unit * unit;
        plan.window = piece_window(m, (double)plan.piece);
    }
    return plan;
}

/* The first piece's path, then a piece per D (a staggered stream's pieces
 * hide their latency). */
double blx_model_plan_time(const blx_model *m, blx_steps_fn steps, const void *shape, size_t n, blx_plan plan)
{
    blx_steps st = steps(m, shape, plan.window);
    double s = plan.piece > n ? (double)n : (double)plan.piece, k = s > 0 ? ceil((double)n / s) : 1;
    double first = st.la * m->alpha + st.lb * s * m->beta + st.lo * m->overhead;
    double then = (plan.lead > 0 ? 0 : st.da * m->alpha) + st.db * s * m->beta + st.dd * m->overhead;
    return first + (k - 1) * then;
}

static double model_time(const blx_model *m, blx_steps_fn steps, const void *shape, size_t n)
{
    return blx_model_plan_time(m, steps, shape, n, blx_model_plan(m, steps, shape, n, 1));
}

static blx_steps tree_steps(const blx_model *m, const void *t, int W)
{
    return blx_model_tree_steps(m, t, W);
}

/* A chain (every node one child) on a network link, staggered (model.h):
 * pieces of STAGGER_PIECE alpha / beta, the first shorter by (s + alpha / beta) / 2;
 * 0 if t is not such a chain or n is too short to cut so. */
static int staggered(const blx_model *m, const blx_tree *t, size_t n, size_t unit, blx_plan *plan)
{
    if (m->window != 1 || m->alpha <= 0 || m->beta <= 0 || blx_model_tree_steps(m, t, 2).dd != 1)
        return 0;
    double gap = m->alpha / m->beta, s = STAGGER_PIECE * gap;
    s = s < (double)PIECE_MIN ? (double)PIECE_MIN : s;
    if (s * 2 > (double)n)
        return 0;
    plan->piece = ((size_t)s + unit - 1) / unit * unit;
    plan->window = 2;
    plan->lead = (size_t)(((double)plan->piece + gap) / 2) / unit * unit;
    return 1;
}

static blx_steps whole_steps(const blx_model *m, const void *t, int W)
{
    return blx_model_tree_steps(m, t, -W);
}

/* A message sent whole on a network link (window 1, which the messages in
 * flight share evenly): the window whose batches (whole_steps) reach the
 * last leaf first, of blx_model_window's, 1 to WHOLE_WINDOWS and all at
 * once.  A k-nomial tree's node sends k - 1 messages a level: together
 * they share one latency, where one at a time each pays it.  (On a node,
 * whose copies the default was measured with, blx_model_window's.) */
#define WHOLE_WINDOWS 16
static int batched(const blx_model *m, blx_plan plan, size_t n) { return plan.piece > n && m->window == 1; }

static blx_plan whole(const blx_model *m, const blx_tree *t, size_t n, blx_plan plan)
{
    int most = (int)blx_model_tree_steps(m, t, 1).dd;
    if (plan.window >= most) /* short: all at once already, ordinary sends */
        return plan;
    double best = blx_model_plan_time(m, whole_steps, t, n, plan), time;
    for (int w = 1; w <= most && w <= WHOLE_WINDOWS + 1; w++) {
        blx_plan p = {n + 1, w > WHOLE_WINDOWS ? most : w, 0};
        if ((time = blx_model_plan_time(m, whole_steps, t, n, p)) < best)
            best = time, plan = p;
    }
    return plan;
}

blx_plan blx_model_tree_plan(const blx_model *m, const blx_tree *t, size_t n, size_t unit)
{
    if (t->np < 3) /* one edge: nothing to pipeline */
        return (blx_plan){n + 1, blx_model_window(m, (double)n), 0};
    blx_plan plan = blx_model_plan(m, tree_steps, t, n, unit), chain;
    blx_steps_fn steps = tree_steps;
    if (batched(m, plan, n))
        plan = whole(m, t, n, plan), steps = whole_steps;
    if (n >= 2 * PIECE_MIN && staggered(m, t, n, unit, &chain) &&
        blx_model_plan_time(m, tree_steps, t, n, chain) < blx_model_plan_time(m, steps, t, n, plan))
        return chain;
    return plan;
}

double blx_model_tree_time(const blx_model *m, const blx_tree *t, size_t n)
{
    /* One edge: the time of the pipeline plan, although the message goes
     * whole there (blx_model_tree_plan): the exchanges it competes with on
     * 2 processes are priced as if two copies at once did not share the
     * node's memory, and this price keeps the choices that measured
     * fastest there (doc/performance.md). */
    if (t->np < 3)
        return model_time(m, tree_steps, t, n);
    blx_plan plan = blx_model_tree_plan(m, t, n, 1);
    return blx_model_plan_time(m, batched(m, plan, n) ? whole_steps : tree_steps, t, n, plan);
}
