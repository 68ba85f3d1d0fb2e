/*
 * topologies/rabenseifner.c - long-vector combines: reduce-scatter by
 * recursive halving, then an allgather by recursive doubling (leave-on-all)
 * or a gather to the destination (leave-on-one).  Rabenseifner's algorithm,
 * as MPICH uses it for long messages (Thakur, Rabenseifner and Gropp,
 * sections 4.4 and 4.5); the InterCom paper's "reduce-scatter based
 * combines".  No TOP letter: the default ' ' picks it for long vectors.
 *
 * With p the largest power of two <= np, the members p..np-1 first fold
 * their vectors into members 0..np-p-1 (relative to the destination), which
 * then take part for them.  np = 4, vector [a b c d]:
 *
 *   halving 1:  0 <-> 2: 0 keeps [a b], 2 keeps [c d]; 1 <-> 3 likewise
 *   halving 2:  0 <-> 1: 0 keeps [a], 1 keeps [b];    2 <-> 3 likewise
 *               (now member k holds piece k of the total)
 *   doubling:   the same exchanges in reverse order, swapping whole pieces
 *   (or, for one destination, every member sends its piece to it, which
 *   posts all p - 1 receives at once: their latencies overlap)
 *
 * On a scope over nodes the halving takes first the dimensions whose pairs
 * share a node (blx_halving_order, below): on two nodes of 2 by rank, 0 <-> 1
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
 *   leave-on-all, one fold-out (alpha + n beta).
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
#include "topology.h"

typedef struct {
    size_t lo, hi; /* in units */
} span;

#define RADIX_MAX 8

/* The order of the halving's dimensions, the masks below p (p = 2^nlev):
 * from the highest, as Rabenseifner's; on a scope over nodes, first those
 * whose pairs share a node, then those that cross between nodes, each from
 * the highest (nodes.h).  The first levels move the largest halves, so on
 * the node they stay (on the memory, not the card), and only the last and
 * smallest pieces cross the card: placed by node, the nearest partner
 * first, as MPICH's halving; round robin the farthest first, as before.  The
 * dimensions a member's partners follow are the same for every member, so
 * the pairs match whatever the order. */
int blx_halving_order(const blx_nodes *n, int root, int p, int dim[32])
{
    int cross = n != NULL ? blx_nodes_cross_from(n, root, p) : 0, k = 0, near = 0;
    for (int crossing = 0; crossing <= 1; crossing++)
        for (int mask = p >> 1; mask >= 1; mask >>= 1)
            if (((cross & mask) != 0) == crossing)
                dim[k++] = mask, near += !crossing;
    return near;
}

/* The first g cuts of span s, as member me takes them: at each (mask
 * dim[j]) the member without the mask bit keeps the lower half. */
static span cut(span s, int me, const int *dim, int g)
{
    for (int j = 0; j < g; j++) {
        size_t mid = s.lo + (s.hi - s.lo) / 2;
        if (me & dim[j])
            s.lo = mid;
        else
            s.hi = mid;
    }
    return s;
}

/* The pieces of recursive halving: fills levels[] with the span before
 * each cut; returns the member's final span. */
static span halving(int me, int nlev, const int *dim, size_t n, span *levels)
{
    span s = {0, n};
    for (int k = 0; k < nlev; k++) {
        levels[k] = s;
        s = cut(s, me, dim + k, 1);
    }
    return s;
}

/* A level's cuts where r dimensions are left and a level may take gmax:
 * as few levels as gmax allows, as even as they can be (4 left at radix
 * 8: 2 and 2, not 3 and 1: the same latencies, fewer messages at once). */
static int balanced(int r, int gmax)
{
    int levels = (r + gmax - 1) / gmax;
    return (r + levels - 1) / levels;
}

/* log2 of a radix (0 and 2: 1; at most RADIX_MAX). */
static int radix_bits(int radix)
{
    int g = 1;
    while ((2 << g) <= radix && (2 << g) <= RADIX_MAX)
        g++;
    return g;
}

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

/* The member that differs from me in the group's dimensions by the bits of v. */
static int partner_of(int me, const int *dim, int g, int v)
{
    for (int j = 0; j < g; j++)
        me ^= (v >> j & 1) ? dim[j] : 0;
    return me;
}

/* The destination's gather: every member's piece, the receives posted at
 * once so that their latencies overlap; one after the other (blx_recv cuts
 * them) when a piece is too long for a single message. */
static void gather(const blx_xfer *x, int p, int nlev, const int *dim, size_t n)
{
    const blx_ep *e = &x->ep;
    size_t unit = x->in.unit;
    span scratch[33];
    if ((n / (size_t)p + 1) * unit > BLX_MAX_MSG) {
        for (int r = 1; r < p; r++) {
            span s = halving(r, nlev, dim, n, scratch);
            blx_recv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, blx_xfer_member(x, r));
        }
        return;
    }
    blx_req *rq = malloc((size_t)p * sizeof *rq);
    if (rq == NULL)
        blx_fatal(e->ctxt, e->routine, "out of memory for %d receives", p - 1);
    for (int r = 1; r < p; r++) {
        span s = halving(r, nlev, dim, n, scratch);
        blx_irecv(e, x->buf + s.lo * unit, (s.hi - s.lo) * unit, blx_xfer_member(x, r), &rq[r - 1]);
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
static void scatter_level(const blx_xfer *x, int me, const int *dim, int g, span whole, char *tmp)
{
    swap w[RADIX_MAX - 1] = {{0}};
    span mine = cut(whole, me, dim, g);
    for (int v = 1; v < 1 << g; v++) {
        int partner = partner_of(me, dim, g, v);
        span give = cut(whole, partner, dim, g);
        w[v - 1] =
            (swap){blx_xfer_member(x, partner), AT(give), tmp + (v - 1) * LEN(mine), LEN(give), LEN(mine)};
    }
    exchange(x, (1 << g) - 1, w);
    for (int v = 1; v < 1 << g; v++)
        x->merge(x->op, AT(mine), w[v - 1].in, LEN(mine), me > partner_of(me, dim, g, v));
}

/* The reduce-scatter among members 0..p-1 (relative to the root; p = 2^nlev),
 * radix x->param: I keep levels[k + g] of levels[k] and give each partner
 * theirs.  Returns my piece of the total. */
static span reduce_scatter(const blx_xfer *x, int me, int nlev, const int *dim, int near, char *tmp,
                           span *levels)
{
    levels[nlev] = halving(me, nlev, dim, x->in.bytes / x->in.unit, levels);
    for (int k = 0, g; k < nlev; k += g) {
        g = group(x, k, nlev, near);
        scatter_level(x, me, dim + k, g, levels[k], tmp);
    }
    return levels[nlev];
}

/* The allgather: the same levels backwards, each member sending its whole
 * piece to every partner of its group. */
static void allgather(const blx_xfer *x, int me, int nlev, const int *dim, int near, const span *levels)
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
            w[v - 1] = (swap){blx_xfer_member(x, partner), AT(mine), AT(theirs), LEN(mine), LEN(theirs)};
        }
        exchange(x, (1 << g) - 1, w);
    }
}

static void rabenseifner(const blx_xfer *xin)
{
    blx_xfer own = *xin, *x = &own;
    const blx_ep *e = &x->ep;
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(e->np, &nlev);
    if (x->readonly && me < p) /* folded-out members only send theirs */
        blx_xfer_own(x);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, tmp_bytes(x), e->ctxt, e->routine);
    if (!blx_fold_in(x, tmp, &p))
        return;
    int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, dim);
    span levels[33], mine = reduce_scatter(x, me, nlev, dim, near, tmp, levels);
    if (x->in.leave_on_all) {
        allgather(x, me, nlev, dim, near, levels);
        blx_fold_out(x, p);
    } else if (me != 0) { /* gather: every piece straight to the destination */
        blx_send(e, x->buf + mine.lo * x->in.unit, (mine.hi - mine.lo) * x->in.unit, blx_xfer_member(x, 0));
    } else {
        gather(x, p, nlev, dim, x->in.bytes / x->in.unit);
    }
}

/* The slices of a sum to all over nodes (two_level.c), on one node's
 * members, a power of two of them, the root first: the reduce-scatter,
 * which returns my piece's place and length in bytes, and the allgather,
 * which gives every member every piece. */
size_t blx_slices_scatter(const blx_xfer *x, size_t *len)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    char *tmp = blx_scratch(BLX_SCRATCH_TMP, tmp_bytes(x), x->ep.ctxt, x->ep.routine);
    int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, dim);
    span levels[33], mine = reduce_scatter(x, me, nlev, dim, near, tmp, levels);
    *len = (mine.hi - mine.lo) * x->in.unit;
    return mine.lo * x->in.unit;
}

void blx_slices_gather(const blx_xfer *x)
{
    int nlev, me = blx_xfer_rel(x), p = blx_pof2_floor(x->ep.np, &nlev);
    int dim[32], near = blx_halving_order(x->in.nodes, x->root, p, dim);
    span levels[33], mine = halving(me, nlev, dim, x->in.bytes / x->in.unit, levels);
    levels[nlev] = mine;
    allgather(x, me, nlev, dim, near, levels);
}

/* Where the pieces of a level of g cuts (dims) go, among members below p:
 * the most that the members of one node send at once to partners on other
 * nodes (which that node's card carries), returned, and in *inside the
 * most one member sends to partners on its own node. */
static int level_cross(const blx_nodes *n, int p, const int *dim, int g, int *inside)
{
    int most = 0;
    *inside = 0;
    for (int j = 0; j < n->nn; j++) {
        int c = 0;
        for (int i = n->start[j]; i < n->start[j + 1]; i++) {
            int mine = 0;
            for (int v = 1; n->order[i] < p && v < 1 << g; v++)
                mine += n->node[partner_of(n->order[i], dim, g, v)] == j;
            c += n->order[i] < p ? (1 << g) - 1 - mine : 0;
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
static double level_cost(const blx_route_in *in, const blx_nodes *n, int p, const int *dim, int g,
                         double piece)
{
    int msgs = (1 << g) - 1, inside = msgs, cross = n != NULL ? level_cross(n, p, dim, g, &inside) : 0;
    const blx_model *m = n == NULL ? in->model : cross > 0 ? &n->off : &n->on;
    double t = m->overlap ? m->alpha + (msgs - 1) * m->overhead : msgs * m->alpha;
    if (n == NULL)
        return t + msgs * piece * m->beta;
    return t + fmax(inside * piece * n->on.beta, cross * piece * n->off.beta);
}

/* The costs above, with the fold-in (and fold-out) of a non-power-of-two
 * np; radix 2^g (c->param): ceil(log2(p) / g) levels, each of 2^g - 1
 * messages at once, in the order the run takes them. */
static double rabenseifner_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                const blx_tree *tree2)
{
    (void)tree, (void)tree2;
    const blx_model *m = in->model;
    const blx_nodes *nodes =
        in->nodes != NULL && in->nodes->nn > 1 && in->nodes->np == in->np ? in->nodes : NULL;
    int l, p = blx_pof2_floor(in->np, &l), dim[32], near = blx_halving_order(nodes, 0, p, dim);
    double n = (double)in->bytes, part = (p - 1.0) / p, halve = 0;
    for (int k = 0, g; k < l; k += g) {
        g = balanced((k < near ? near : l) - k, radix_bits(param));
        halve += level_cost(in, nodes, p, dim + k, g, ldexp(n, -(k + g)));
    }
    double t = halve + part * n * m->gamma;
    if (in->leave_on_all) /* the allgather: the same levels backwards */
        t += halve;
    else /* the gather's p - 1 receives, at once */
        t += part * n * m->beta + (m->overlap ? m->alpha + (p - 1) * m->overhead : (p - 1) * m->alpha);
    if (p < in->np)
        t += m->alpha + n * (m->beta + m->gamma) + (in->leave_on_all ? m->alpha + n * m->beta : 0);
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
