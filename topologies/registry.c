/*
 * topologies/registry.c - TOP letter -> topology, the documented fallbacks,
 * the default topology chosen by the cost model, and running a route on a
 * transfer.
 *
 * Fallbacks (every member computes them identically):
 *   broadcast 'H' on a scope whose size is not a power of two -> 1-tree;
 *   combine 'H' when the result goes to one process -> 1-tree (bidirectional
 *   exchange leaves the result everywhere; it handles any size itself);
 *   '1'..'9' and 'T' are one topology; N_b >= np - 1 is the same tree as
 *   N_b = np - 1 (the root reaches everybody in one level);
 *   'M' clamps |N_r| to np - 1.
 *
 * The default ' ' takes, among a few candidate algorithms per operation, the
 * one whose modelled time (model.h; each algorithm's file gives its formula)
 * is least for this scope size and message size, the first on a tie:
 *   broadcast:      binomial tree and wider ones (radix 4 to flat: short
 *                   messages whose sends overlap); scatter +
 *                   recursive-doubling allgather; scatter + ring allgather;
 *                   pipelined chain; two trees
 *   combine to one: binomial and wider fan-ins; pipelined chain fan-in;
 *                   reduce-scatter + gather and two fan-in trees (vectors
 *                   that may be cut)
 *   to all:         bidirectional exchange; reduce-scatter + allgather; the
 *                   fan-ins above followed by the best broadcast
 * The costs depend only on values every member of the scope shares (the
 * grid's model, the scope size, the bytes), so all members choose alike.
 * Its combines always fold their inputs in a fixed order, so that a program
 * that does not choose a topology gets the same bits on every run (as it
 * does from MPI's reductions); the explicit letters keep LAWN 73's
 * arrival-order fan-in unless BLACS_SET 15 asks for repeatability.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>

#include "../base/report.h"
#include "topology.h"

const blx_topology *const blx_topologies[] = {
    &blx_topo_ring,
    &blx_topo_split_ring,
    &blx_topo_multiring,
    &blx_topo_fully_connected,
    &blx_topo_hypercube,
    &blx_topo_general_tree,
    NULL,
};

static char upper(char c) { return (char)toupper((unsigned char)c); }

const blx_topology *blx_topology_find(char top)
{
    char key = upper(top);
    if (key == '\0')
        return NULL;
    for (int i = 0; blx_topologies[i] != NULL; i++)
        for (const char *k = blx_topologies[i]->keys; *k; k++)
            if (*k == key)
                return blx_topologies[i];
    return NULL;
}

static int is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }
static int clamp(long long v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : (int)v); }

/* Letter, fallbacks and number, common to both operations. */
static int route(blx_route *r, char key, int np, int rings, int branches, int combine, int leave_on_all)
{
    const blx_topology *t = blx_topology_find(key);
    if (t == NULL)
        return -1;
    int most = np > 1 ? np - 1 : 1;
    int needs_fallback = combine ? (t->flags & BLX_TOPO_LEAVE_ON_ALL_ONLY) && !leave_on_all
                                 : (t->flags & BLX_TOPO_POWER_OF_TWO) && !is_power_of_two(np);
    if (needs_fallback) {
        t = &blx_topo_general_tree;
        key = '1';
    }
    *r =
        (blx_route){t, combine ? t->combine_tree : t->tree, combine ? t->combine_tree2 : t->tree2, key, 0, 0};
    if (t == &blx_topo_general_tree) {
        r->param = clamp(key == 'T' ? branches : key - '0', 1, most);
        r->key = 'T'; /* '3' and 'T' with N_b = 3 share one cached tree */
    } else if (t == &blx_topo_multiring) {
        r->param = rings < 0 ? -clamp(-(long long)rings, 1, most) : clamp(rings, 1, most);
    }
    return 0;
}

/* ---- the default: the cheapest candidate ---- */

typedef struct {
    const blx_topology *topo;
    char key;        /* a letter routed by its rules, or 0 */
    int param;       /* the letter's number, or the algorithm's variant */
    int needs_split; /* only for vectors that may be cut between elements */
} candidate;

static const candidate bcast_candidates[] = {
    {&blx_topo_general_tree, 'T', 1, 0}, /* binomial tree */
    {&blx_topo_general_tree, 'T', 3, 0}, /* wider trees: short messages, when sends overlap */
    {&blx_topo_general_tree, 'T', 7, 0},
    {&blx_topo_general_tree, 'T', 15, 0},
    {&blx_topo_general_tree, 'T', 63, 0},
    {&blx_topo_fully_connected, 'F', 0, 0}, /* the source sends to all */
    {&blx_topo_scatter_doubling, 0, 0, 0},  /* scatter + recursive-doubling allgather */
    {&blx_topo_scatter_allgather, 0, 0, 0}, /* scatter + ring allgather */
    {&blx_topo_ring, 'I', 0, 0},            /* pipelined chain */
    {&blx_topo_two_tree, 0, 0, 0},          /* two trees, pipelined */
};
static const candidate reduce_candidates[] = {
    {&blx_topo_general_tree, 'T', 1, 0}, /* binomial fan-in */
    {&blx_topo_general_tree, 'T', 3, 0}, /* wider fan-ins */
    {&blx_topo_general_tree, 'T', 15, 0}, {&blx_topo_fully_connected, 'F', 0, 0},
    {&blx_topo_ring, 'I', 0, 0},       /* pipelined chain fan-in */
    {&blx_topo_rabenseifner, 0, 0, 1}, /* reduce-scatter + gather */
    {&blx_topo_two_tree, 0, 0, 1},     /* two fan-in trees, pipelined */
};
static const candidate allreduce_candidates[] = {
    {&blx_topo_hypercube, 'H', 0, 0},    /* bidirectional exchange */
    {&blx_topo_rabenseifner, 0, 0, 1},   /* reduce-scatter + allgather */
    {&blx_topo_general_tree, 'T', 1, 0}, /* binomial fan-in, then the best broadcast */
    {&blx_topo_ring, 'I', 0, 0},         /* chain fan-in, then the best broadcast */
};
#define NCAND(a) (sizeof a / sizeof a[0])

static blx_route candidate_route(const candidate *c, const blx_route_in *in, int combine)
{
    blx_route r;
    if (c->key != 0) {
        route(&r, c->key, in->np, c->param, c->param, combine, in->leave_on_all);
        return r;
    }
    const blx_topology *t = c->topo;
    r = (blx_route){
        t, combine ? t->combine_tree : t->tree, combine ? t->combine_tree2 : t->tree2, 0, c->param, 0};
    return r;
}

/* The tree of a shape for a scope of np, from the cache (NULL: no shape). */
static const blx_tree *cached(blx_tree_cache *trees, int np, blx_tree_shape shape, char key, int param)
{
    return shape != NULL ? blx_tree_cached(trees, np, shape, key, param) : NULL;
}

/* What a route's cost depends on; 0 if one of its trees cannot be built
 * (out of memory: the route is never chosen). */
static int cost_in(blx_cost_in *c, const blx_route *r, const blx_route_in *in, int leave_on_all)
{
    *c = (blx_cost_in){in->model,
                       in->np,
                       in->bytes,
                       leave_on_all,
                       r->param,
                       cached(in->trees, in->np, r->shape, r->key, r->param),
                       cached(in->trees, in->np, r->shape2, r->key, r->param)};
    return (!r->shape || c->tree) && (!r->shape2 || c->tree2);
}

static double bcast_cost(const blx_route *r, const blx_route_in *in)
{
    blx_cost_in c;
    return cost_in(&c, r, in, 0) ? r->topo->bcast_cost(&c) : 1e300;
}

/* The cheapest broadcast or combine for in: recalled, or weighed and kept. */
static void choose(blx_route *best, double *cost, const blx_route_in *in, int combine);

static void weigh_bcast(blx_route *best, const blx_route_in *in, double *cost)
{
    *cost = 1e300;
    for (size_t i = 0; i < NCAND(bcast_candidates); i++) {
        blx_route r = candidate_route(&bcast_candidates[i], in, 0);
        double t = bcast_cost(&r, in);
        if (t < *cost) {
            *cost = t;
            *best = r;
        }
    }
}

static double combine_cost(const blx_route *r, const blx_route_in *in)
{
    blx_cost_in c;
    if (!cost_in(&c, r, in, in->leave_on_all))
        return 1e300;
    double t = r->topo->combine_cost(&c), spread = 0;
    if (in->leave_on_all && (r->topo->flags & BLX_TOPO_GATHERS)) {
        blx_route b; /* the result is then spread by the cheapest broadcast */
        choose(&b, &spread, in, 0);
    }
    return t + spread;
}

static void weigh_combine(blx_route *best, const blx_route_in *in, double *best_cost)
{
    const candidate *cand = in->leave_on_all ? allreduce_candidates : reduce_candidates;
    size_t n = in->leave_on_all ? NCAND(allreduce_candidates) : NCAND(reduce_candidates);
    double cost = 1e300;
    for (size_t i = 0; i < n; i++) {
        if (cand[i].needs_split && !in->splittable)
            continue;
        blx_route r = candidate_route(&cand[i], in, 1);
        double t = combine_cost(&r, in);
        if (t < cost || i == 0) {
            cost = t;
            *best = r;
        }
    }
    *best_cost = cost;
}

/* ---- the default's recent choices (blx_route_cache) ---- */

/* What a slot was chosen for: 1 a broadcast; 2 + 2 leave_on_all + splittable a combine. */
static int choice_kind(const blx_route_in *in, int combine)
{
    return combine ? 2 + 2 * (in->leave_on_all != 0) + (in->splittable != 0) : 1;
}

static int slot_is(const struct blx_route_slot *s, const blx_route_in *in, int kind)
{
    return s->kind == kind && s->bytes == in->bytes && s->np == in->np && s->model == in->model;
}

static const struct blx_route_slot *recall(const blx_route_in *in, int kind)
{
    blx_route_cache *rc = in->routes;
    if (rc == NULL)
        return NULL;
    int i = rc->last; /* a loop of one operation asks for the same slot again */
    if (!slot_is(&rc->slot[i], in, kind))
        for (i = 0; i < BLX_ROUTE_CACHE && !slot_is(&rc->slot[i], in, kind); i++)
            ;
    if (i == BLX_ROUTE_CACHE)
        return NULL;
    rc->slot[i].used = ++rc->clock;
    rc->last = i;
    return &rc->slot[i];
}

/* Keeps a choice in place of the least recently recalled one. */
static void keep(const blx_route_in *in, int kind, const blx_route *r, double cost)
{
    blx_route_cache *rc = in->routes;
    if (rc == NULL)
        return;
    int old = 0;
    for (int i = 1; i < BLX_ROUTE_CACHE; i++)
        if (rc->slot[i].used < rc->slot[old].used)
            old = i;
    rc->slot[old] = (struct blx_route_slot){kind, in->np, in->bytes, in->model, *r, cost, ++rc->clock};
    rc->last = old;
}

static void choose(blx_route *best, double *cost, const blx_route_in *in, int combine)
{
    int kind = choice_kind(in, combine);
    const struct blx_route_slot *s = recall(in, kind);
    if (s != NULL) {
        *best = s->route;
        *cost = s->cost;
        return;
    }
    (combine ? weigh_combine : weigh_bcast)(best, in, cost);
    keep(in, kind, best, *cost);
}

void blx_route_remember(const blx_route_in *in, int combine, const blx_route *r)
{
    keep(in, choice_kind(in, combine), r, 0);
}

int blx_route_bcast(blx_route *r, char top, const blx_route_in *in)
{
    char key = upper(top);
    if (key != ' ')
        return route(r, key, in->np, in->rings, in->branches, 0, 0);
    double cost;
    choose(r, &cost, in, 0);
    return 0;
}

int blx_route_combine(blx_route *r, char top, const blx_route_in *in)
{
    char key = upper(top);
    if (key != ' ')
        return route(r, key, in->np, in->rings, in->branches, 1, in->leave_on_all);
    double cost;
    choose(r, &cost, in, 1);
    r->fixed_order = 1;
    return 0;
}

/* ---- running a route ---- */

/* Runs per descriptor: the lettered ones, then the default's own. */
static const blx_topology *const counted[] = {
    &blx_topo_ring,      &blx_topo_split_ring,   &blx_topo_multiring,         &blx_topo_fully_connected,
    &blx_topo_hypercube, &blx_topo_general_tree, &blx_topo_scatter_allgather, &blx_topo_scatter_doubling,
    &blx_topo_two_tree,  &blx_topo_rabenseifner,
};
static unsigned long runs[NCAND(counted)];

static void count_run(const blx_topology *t)
{
    for (size_t i = 0; i < NCAND(counted); i++)
        if (counted[i] == t) {
            runs[i]++;
            return;
        }
}

unsigned long blx_topology_runs(const blx_topology *t)
{
    for (size_t i = 0; i < NCAND(counted); i++)
        if (counted[i] == t)
            return runs[i];
    return 0;
}

/* The route's trees for x's scope, from the scope's cache, and the plan. */
static void prepare(const blx_route *r, blx_xfer *x, size_t unit)
{
    x->tree = x->tree2 = NULL;
    x->plan = (blx_plan){x->bytes + 1, x->model->window, 0}; /* whole */
    blx_tree_shape shapes[2] = {r->shape, r->shape2};
    const blx_tree **trees[2] = {&x->tree, &x->tree2};
    for (int i = 0; i < 2; i++) {
        if (shapes[i] == NULL)
            continue;
        *trees[i] = blx_tree_cached(x->trees, x->ep.np, shapes[i], r->key, r->param);
        if (*trees[i] == NULL)
            blx_fatal(x->ep.ctxt, x->ep.routine, "cannot build the %s tree for %d processes (out of memory?)",
                      r->topo->name, x->ep.np);
    }
    if (r->topo->plan != NULL)
        x->plan = r->topo->plan(x);
    else if (x->tree != NULL)
        x->plan = blx_model_tree_plan(x->model, x->tree, x->bytes, unit ? unit : 1);
}

static void run_bcast(const blx_route *r, blx_xfer *x, int is_source)
{
    x->ep.whole = x->bytes;
    prepare(r, x, 1);
    (is_source ? r->topo->bcast_send : r->topo->bcast_recv)(x);
}

void blx_bcast_run(const blx_route *r, blx_xfer *x, int is_source)
{
    count_run(r->topo);
    run_bcast(r, x, is_source);
}

void blx_combine_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->topo);
    x->ordered |= r->fixed_order;
    x->ep.whole = x->bytes;
    prepare(r, x, x->unit);
    r->topo->combine(x);
    if (x->leave_on_all && (r->topo->flags & BLX_TOPO_GATHERS)) { /* the result is on member 0: spread it */
        blx_route_in in = {x->ep.np, x->bytes, 0, 0, 0, 0, x->model, x->trees, x->routes};
        blx_route b;
        double cost;
        choose(&b, &cost, &in, 0);
        blx_xfer spread = *x;
        spread.ep.tag = x->spread_tag;
        run_bcast(&b, &spread, blx_xfer_rel(x) == 0);
    }
}

const char *blx_topology_letters(void)
{
    static char letters[64];
    if (letters[0] == '\0') {
        size_t n = 0;
        letters[n++] = ' ';
        for (int i = 0; blx_topologies[i] != NULL; i++)
            for (const char *k = blx_topologies[i]->keys; *k && n + 1 < sizeof letters; k++)
                letters[n++] = *k;
        letters[n] = '\0';
    }
    return letters;
}
