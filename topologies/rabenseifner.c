/*
 * topologies/rabenseifner.c - long-vector combines: reduce-scatter by
 * recursive halving, then an allgather by recursive doubling (leave-on-all)
 * or a gather to the destination (leave-on-one).  Rabenseifner's algorithm,
 * as MPICH uses it for long messages (Thakur, Rabenseifner and Gropp,
 * sections 4.4 and 4.5); the InterCom paper's "reduce-scatter based
 * combines".  No TOP letter: the default ' ' picks it for long vectors.
 *
 * With p the largest power of two <= np, np - p members first fold their
 * vectors into others, which then take part for them (exchange.c): without
 * nodes, members p..np-1 into members 0..np-p-1 (relative to the
 * destination); on a scope over nodes, each into a member of its own node
 * where one is left, from the last back, and the p that stay take the
 * places 0..p-1 below in their order (the place's member: MEMBER).  np = 4,
 * vector [a b c d]:
 *
 *   halving 1:  0 <-> 2: 0 keeps [a b], 2 keeps [c d]; 1 <-> 3 likewise
 *   halving 2:  0 <-> 1: 0 keeps [a], 1 keeps [b];    2 <-> 3 likewise
 *               (now member k holds piece k of the total)
 *   doubling:   the same exchanges in reverse order, swapping whole pieces
 *   (or, for one destination, every member sends its piece to it, which
 *   posts all p - 1 receives at once: their latencies overlap)
 *
 * On a scope over nodes the halving takes first the dimensions whose pairs
 * share a node (blx_halving_order, exchange.c): on two nodes of 2 by rank, 0 <-> 1
 * keeps [a b], then 0 <-> 2 keeps [a]; only the last, smallest, halves
 * cross the cards.  Farthest first, every process of a node would send
 * half its vector through the node's card at the first step.
 *
 *   cost (p a power of two, n bytes, gamma per byte combined):
 *     allreduce  2 log2(p) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
 *     reduce     (log2(p) + 1) alpha + (p-1) o + 2 (p-1)/p n beta + (p-1)/p n gamma
 *   (radix 2^g: log2(p) / g levels, and (2^g - 2) o more a level)
 *   The destination's p - 1 receives, posted at once, overlap their
 *   latencies on a network (faster than one after the other or a binomial
 *   gather).  With more processes than processors (the model's overlap =
 *   0) each still waits for its sender to be scheduled, and the reduce
 *   costs (log2(p) + p - 1) alpha.
 *   against log2(p) (alpha + n beta + n gamma) for the bidirectional exchange:
 *   fewer bytes and far less arithmetic per process once n is large.
 *   Non-power-of-two np adds one fold-in (alpha + n beta + n gamma) and, for
 *   leave-on-all, one fold-out (alpha + n beta), at the node's alpha and
 *   beta where every fold stays on its node.
 *   On a scope over nodes each level is priced where its pairs are
 *   (level_cost, below), and the order below keeps the first, largest
 *   levels on the nodes where the placement lets it.
 *
 * Radix 4 and 8 (x->param, the route's number; the default weighs 2, 4
 * and 8): a level takes two or three of those cuts at once, each member
 * of a group of 4 or 8 sending every partner its piece and receiving its
 * own from each, all posted together (the fourth of the span to each of 3
 * partners, and so on); the allgather likewise.  The bytes are those of
 * radix 2; the latencies log2(p) / 2 or / 3 a direction, as in the
 * "recursive multiplying" of MPICH 4 and in Open MPI's radix-k
 * (Bruck-style) exchanges; each level's sends but the first cost their
 * overhead.  The pieces are radix 2's (the same cuts), so the gather and
 * the slices' pieces do not change.  Across nodes, in slices (node
 * slices), the latencies are what a sum of 64 KiB over 64 nodes pays most
 * (sim/results-history.md).
 *
 * Needs a vector that can be cut between elements (x->in.unit > 0), so combines
 * with locations never come here.  Coherent: each piece of the result is
 * computed by one member and copied to the others.  Repeatable: every member
 * combines "lower member's part (op) upper member's part", in a fixed
 * sequence of steps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/report.h"
#include "halving.h"
#include "topology.h"

/* The cuts a level of x takes at once from dim[k] on (balanced), never
 * the node's dimensions (the first 'near') together with those that cross
 * nodes: a level that did would send most of the vector through the card
 * at once, where the node's levels first keep the largest pieces on the
 * node; one for a vector longer than a non-blocking message may be
 * (sendrecv cuts it).  The same on every member. */
static int group(const blx_xfer *x, int k, int nlev, int near)
{
    int end = k < near ? near : nlev;
    return x->in.bytes > BLX_MAX_MSG ? 1 : balanced(end - k, radix_bits(x->param));
}

/* Work space: the vector; at radix 4 or 8, the partners' parts of my
 * piece, each at most one unit longer than a q-th of the span.  Radix 2
 * asks for the vector alone, as before. */
static size_t tmp_bytes(const blx_xfer *x)
{
    return x->in.bytes + (x->param > 2 ? RADIX_MAX * x->in.unit : 0);
}

static unsigned long groups_run;

unsigned long blx_rabenseifner_groups(void) { return groups_run; }

/* The member at place v of the fold's plan f (exchange.c; NULL: v). */
#define MEMBER(x, f, v) blx_xfer_member(x, blx_fold_rel(f, v))

/* The destination's gather: every member's piece, the receives posted at
 * once so that their latencies overlap; one after the other (blx_recv cuts
 * them) when a piece is too long for a single message. */
static void gather(const blx_xfer *x, const blx_fold *f, int p, int nlev, const int *dim, size_t n)
{
    const blx_ep *e = &x->ep;
    size_t unit = x->in.unit;
    span scratch[33];
    if ((n / (size_t)p + 1) * unit > BLX_MAX_MSG) {
        for (int r = 1; r < p; r++) {
            span s = halving(r, nlev, dim, n, scratch);
            blx_recv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, MEMBER(x, f, r));
        }
        return;
    }
    blx_req *rq = malloc((size_t)p * sizeof *rq);
    if (rq == NULL)
        blx_fatal(e->ctxt, e->routine, "out of memory for %d receives", p - 1);
    for (int r = 1; r < p; r++) {
        span s = halving(r, nlev, dim, n, scratch);
        blx_irecv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, MEMBER(x, f, r), &rq[r - 1]);
    }
    blx_waitall(e, p - 1, rq);
    free(rq);
}

/* One level's exchanges with its q - 1 partners: to each its piece, from
 * each mine, posted at once (radix 2: one sendrecv, any size). */
typedef struct {
    int peer; /* member */
    const char *out;
    char *in;
    size_t outb, inb;
} swap;

static void exchange(const blx_xfer *x, int n, const swap *w)
{
    blx_req rq[2 * (RADIX_MAX - 1)];
    if (n == 1) {
        blx_sendrecv(&x->ep, w->out, w->outb, w->peer, w->in, w->inb, w->peer);
        return;
    }
    for (int i = 0; i < n; i++)
        blx_irecv(&x->ep, w[i].in, w[i].inb, w[i].peer, &rq[i]);
    for (int i = 0; i < n; i++)
        blx_isend(&x->ep, w[i].out, w[i].outb, w[i].peer, &rq[n + i]);
    blx_waitall(&x->ep, 2 * n, rq);
    groups_run++;
}

#define AT(s) (x->buf + (s).lo * x->in.unit)
#define LEN(s) (((s).hi - (s).lo) * x->in.unit)

/* One level of the radix-2^g reduce-scatter: of the span 'whole' that the
 * group's members share, each keeps its piece (its g cuts) and gives every
 * partner theirs; the partners' parts of mine are folded in a fixed order
 * (repeatable), each "lower member's part (op) upper member's part". */
static void scatter_level(const blx_xfer *x, const blx_fold *f, int me, const int *dim, int g, span whole,
                          char *tmp)
{
    swap w[RADIX_MAX - 1] = {{0}};
    span mine = cut(whole, me, dim, g);
    for (int v = 1; v < 1 << g; v++) {
        int partner = partner_of(me, dim, g, v);
        span give = cut(whole, partner, dim, g);
        w[v - 1] = (swap){MEMBER(x, f, partner), AT(give), tmp + (v - 1) * LEN(mine), LEN(give), LEN(mine)};
    }
    exchange(x, (1 << g) - 1, w);
    for (int v = 1; v < 1 << g; v++)
        x->merge(x->op, AT(mine), w[v - 1].in, LEN(mine), me > partner_of(me, dim, g, v));
}

/* The reduce-scatter among members 0..p-1 (relative to the root; p = 2^nlev),
 * radix x->param: I keep levels[k + g] of levels[k] and give each partner
 * theirs.  Returns my piece of the total. */
static span reduce_scatter(const blx_xfer *x, const blx_fold *f, int me, int nlev, const int *dim, int near,
                           char *tmp, span *levels)
{
    levels[nlev] = halving(me, nlev, dim, x->in.bytes / x->in.unit, levels);
    for (int k = 0, g; k < nlev; k += g) {
        g = group(x, k, nlev, near);
        scatter_level(x, f, me, dim + k, g, levels[k], tmp);
    }
    return levels[nlev];
}

/* The allgather: the same levels backwards, each member sending its whole
 * piece to every partner of its group. */
static void allgather(const blx_xfer *x, const blx_fold *f, int me, int nlev, const int *dim, int near,
                      const span *levels)
{
    int ks[32], ng = 0;
    for (int k = 0; k < nlev; k += group(x, k, nlev, near))
        ks[ng++] = k;
    while (ng-- > 0) {
        int k = ks[ng], g = group(x, k, nlev, near);
        span mine = cut(levels[k], me, dim + k, g);
        swap w[RADIX_MAX - 1] = {{0}};
        for (int v = 1; v < 1 << g; v++) {
            int partner = partner_of(me, dim + k, g, v);
            span theirs = cut(levels[k], partner, dim + k, g);
            w[v - 1] = (swap){MEMBER(x, f, partner), AT(mine), AT(theirs), LEN(mine), LEN(theirs)};
        }
        exchange(x, (1 << g) - 1, w);
    }
}

static void rabenseifner(const blx_xfer *xin)
{
    blx_xfer own = *xin, *x = &own;
    const blx_ep *e = &x->ep;
    const blx_nodes *nodes = blx_nodes_spanned(x->in.nodes, e->np);
    int nlev, p = blx_pof2_floor(e->np, &nlev);
    blx_fold plan, *f = NULL; /* alike on every member */
    if (nodes != NULL && p < e->np) {
        if (blx_fold_plan(&plan, nodes, x->root, e->np) != 0)
            blx_fatal(e->ctxt, e->routine, "out of memory for the fold of %d members", e->np);
        f = &plan;
    }
    int me = blx_fold_place(f, blx_xfer_rel(x));
    if (x->readonly && me < p) /* folded-out members only send theirs */
        blx_xfer_own(x);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, tmp_bytes(x), e->ctxt, e->routine);
    if (blx_fold_in(x, f, tmp, &p)) {
        int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, f != NULL ? f->rel : NULL, dim);
        span levels[33], mine = reduce_scatter(x, f, me, nlev, dim, near, tmp, levels);
        if (x->in.leave_on_all) {
            allgather(x, f, me, nlev, dim, near, levels);
            blx_fold_out(x, f, p);
        } else if (me != 0) { /* gather: every piece straight to the destination */
            blx_send(e, x->buf + mine.lo * x->in.unit, (mine.hi - mine.lo) * x->in.unit, MEMBER(x, f, 0));
        } else {
            gather(x, f, p, nlev, dim, x->in.bytes / x->in.unit);
        }
    }
    if (f != NULL)
        blx_fold_free(f);
}

/* The slices of a sum to all over nodes (two_level.c), on one node's
 * members, a power of two of them, the root first: the reduce-scatter,
 * which returns my piece's place and length in bytes, and the allgather,
 * which gives every member every piece. */
size_t blx_slices_scatter(const blx_xfer *x, size_t *len)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, tmp_bytes(x), x->ep.ctxt, x->ep.routine);
    int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, NULL, dim);
    span levels[33], mine = reduce_scatter(x, NULL, me, nlev, dim, near, tmp, levels);
    *len = (mine.hi - mine.lo) * x->in.unit;
    return mine.lo * x->in.unit;
}

void blx_slices_gather(const blx_xfer *x)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, NULL, dim);
    span levels[33], mine = halving(me, nlev, dim, x->in.bytes / x->in.unit, levels);
    levels[nlev] = mine;
    allgather(x, NULL, me, nlev, dim, near, levels);
}

/* The node of place v of the fold's plan f (NULL: member v), numbered
 * from member 0. */
static int node_at(const blx_nodes *n, const blx_fold *f, int v) { return n->node[blx_fold_rel(f, v)]; }

/* Where the pieces of a level of g cuts (dims) go, among places below p:
 * the most that the members of one node send at once to partners on other
 * nodes (which that node's card carries), returned, and in *inside the
 * most one member sends to partners on its own node. */
static int level_cross(const blx_nodes *n, const blx_fold *f, int p, const int *dim, int g, int *inside)
{
    int most = 0;
    *inside = 0;
    for (int j = 0; j < n->nn; j++) {
        int c = 0;
        for (int i = n->start[j]; i < n->start[j + 1]; i++) {
            int k = blx_fold_place(f, n->order[i]), mine = 0;
            for (int v = 1; k < p && v < 1 << g; v++)
                mine += node_at(n, f, partner_of(k, dim, g, v)) == j;
            c += k < p ? (1 << g) - 1 - mine : 0;
            *inside = mine > *inside ? mine : *inside;
        }
        most = c > most ? c : most;
    }
    return most;
}

/* One level of g cuts at once, 2^g - 1 pieces of 'piece' bytes a member:
 * their latencies (overlapped: the sends after the first cost their
 * overhead) and bytes.  On a scope over nodes, the network's latency where
 * a pair crosses nodes, else the node's, and the slower of the pieces a
 * member sends on its node (the node's beta) and those its busiest card
 * carries (the network's). */
static double level_cost(const blx_route_in *in, const blx_nodes *n, const blx_fold *f, int p, const int *dim,
                         int g, double piece)
{
    int msgs = (1 << g) - 1, inside = msgs, cross = n != NULL ? level_cross(n, f, p, dim, g, &inside) : 0;
    const blx_model *m = n == NULL ? in->model : cross > 0 ? &n->off : &n->on;
    double t = m->overlap ? m->alpha + (msgs - 1) * m->overhead : msgs * m->alpha;
    if (n == NULL)
        return t + msgs * piece * m->beta;
    return t + fmax(inside * piece * n->on.beta, cross * piece * n->off.beta);
}

/* The fold in (alpha + n beta + n gamma) and, for leave-on-all, out
 * (alpha + n beta): at the node's prices where every member folds into one
 * of its own node (the plan f), else at the scope's. */
static double fold_cost(const blx_route_in *in, const blx_nodes *n, const blx_fold *f)
{
    int apart = n == NULL;
    for (int v = f != NULL ? f->p : in->np; v < in->np; v++)
        apart |= node_at(n, f, v) != node_at(n, f, f->pair[v]);
    const blx_model *m = apart ? in->model : &n->on;
    double n_beta = (double)in->bytes * m->beta;
    return m->alpha + n_beta + (double)in->bytes * in->model->gamma +
           (in->leave_on_all ? m->alpha + n_beta : 0);
}

/* The costs above, with the fold of a non-power-of-two np; radix 2^g
 * (c->param): ceil(log2(p) / g) levels, each of 2^g - 1 messages at once,
 * in the order the run takes them. */
static double rabenseifner_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                const blx_tree *tree2)
{
    (void)tree, (void)tree2;
    const blx_model *m = in->model;
    const blx_nodes *nodes = blx_nodes_spanned(in->nodes, in->np);
    int l, p = blx_pof2_floor(in->np, &l), dim[32];
    blx_fold plan,
        *f = nodes != NULL && p < in->np && blx_fold_plan(&plan, nodes, 0, in->np) == 0 ? &plan : NULL;
    if (p < in->np && f == NULL) /* out of memory: priced as on one level */
        nodes = NULL;
    int near = blx_halving_order(nodes, 0, p, f != NULL ? f->rel : NULL, dim);
    double n = (double)in->bytes, part = (p - 1.0) / p, halve = 0;
    for (int k = 0, g; k < l; k += g) {
        g = balanced((k < near ? near : l) - k, radix_bits(param));
        halve += level_cost(in, nodes, f, p, dim + k, g, ldexp(n, -(k + g)));
    }
    double t = halve + part * n * m->gamma;
    if (in->leave_on_all) /* the allgather: the same levels backwards */
        t += halve;
    else /* the gather's p - 1 receives, at once */
        t += part * n * m->beta + (m->overlap ? m->alpha + (p - 1) * m->overhead : (p - 1) * m->alpha);
    if (p < in->np)
        t += fold_cost(in, nodes, f);
    if (f != NULL)
        blx_fold_free(f);
    return t;
}

#define RADIXES ((const int[]){2, 4, RADIX_MAX, -1})

const blx_algorithm blx_alg_rabenseifner = {
    .name = "rabenseifner",
    .keys = "",
    .title = "reduce-scatter + allgather/gather",
    .description = "Rabenseifner's long-vector combine (chosen by the default TOP for long vectors)",
    .tree = NULL,
    .combine_tree = NULL,
    .combine = rabenseifner,
    .combine_cost = rabenseifner_cost,
    .flags = BLX_ALG_REPEATABLE | BLX_ALG_COHERENT | BLX_ALG_CUTS | BLX_ALG_RADIX,
    .weigh = {[BLX_REDUCE] = RADIXES, [BLX_ALLREDUCE] = RADIXES},
};
