/*
 * topologies/default.c - the default TOP ' ': the algorithm BLACS_ALGORITHM
 * names where it can run, else the cheapest of the candidates by the cost
 * model, the first of the table on a tie.
 *
 * The candidates are the table's algorithms whose weigh[] names the
 * operation, each with the numbers listed there (topology.h): today
 *   broadcast:      binomial tree and wider ones (radix 4 to flat: short
 *                   messages whose sends overlap); scatter + recursive-
 *                   doubling or ring allgather; pipelined chain; two trees
 *   combine to one: binomial and wider fan-ins; pipelined chain fan-in;
 *                   reduce-scatter + gather and two fan-in trees (vectors
 *                   that may be cut)
 *   to all:         bidirectional exchange; reduce-scatter + allgather; the
 *                   fan-ins above followed by the best broadcast
 * and, where they apply, the composites, which price themselves (their
 * parts at this file's prices): two levels and node slices (nodes.h), and
 * MPI's collective, the table's last row, priced against the best of ours.
 * The costs depend only on values every member of the scope shares (the
 * grid's model, the scope size, the bytes), so all members choose alike.
 * Its combines always fold their inputs in a fixed order, so that a program
 * that does not choose a topology gets the same bits on every run (as it
 * does from MPI's reductions); the explicit letters keep LAWN 73's
 * arrival-order fan-in unless BLACS_SET 15 asks for repeatability.
 */
#include "../base/stack.h"
#include "topology.h"

int blx_algorithm_provides(const blx_algorithm *a, blx_coll op)
{
    return a->applies != NULL ? a->applies(NULL, op)
           : op == BLX_BCAST
               ? a->bcast != NULL
               : a->combine != NULL && !(op == BLX_REDUCE && (a->flags & BLX_ALG_LEAVE_ON_ALL_ONLY));
}

/* Whether the vector may be cut so that every member of in's scope gets
 * an element: judged for each scope (a two-level operation's levels
 * too), so that 4 KiB of doubles cut among 64 nodes' leaders where they
 * could not be among all 1024 members. */
static int cuts(const blx_route_in *in)
{
    return in->splittable && (in->unit == 0 || in->bytes == 0 || in->bytes / in->unit >= (size_t)in->np);
}

/* Whether a can run op for in (a forced algorithm that cannot falls back
 * to the default's choice; the default never weighs it there). */
static int can_run(const blx_algorithm *a, blx_coll op, const blx_route_in *in)
{
    return blx_algorithm_provides(a, op) && (a->applies == NULL || a->applies(in, op)) &&
           !(op == BLX_BCAST && (a->flags & BLX_ALG_POWER_OF_TWO) && !blx_is_pof2(in->np)) &&
           !(op != BLX_BCAST && (a->flags & BLX_ALG_CUTS) && !cuts(in));
}

/* The route of algorithm a with number param: a letter's by its rules (a
 * tree of param branches, a ring in the first letter's direction), an
 * algorithm without letters as it is. */
static blx_route route_of(const blx_algorithm *a, int param, const blx_route_in *in, blx_coll op)
{
    blx_route r;
    if (a->keys[0] != '\0') {
        blx_route_in p = *in;
        p.rings = p.branches = param;
        blx_route_letter(&r, a->flags & BLX_ALG_USES_BRANCHES ? 'T' : a->keys[0], &p, op);
        return r;
    }
    int combine = op != BLX_BCAST;
    r = (blx_route){a, combine ? a->combine_tree : a->tree, combine ? a->combine_tree2 : a->tree2, 0, param,
                    0};
    return r;
}

/* The tree of a shape for a scope of np, from the cache (NULL: no shape). */
static const blx_tree *cached(blx_tree_cache *trees, int np, blx_tree_shape shape, char key, int param)
{
    return shape != NULL ? blx_tree_cached(trees, np, shape, key, param) : NULL;
}

static void weigh(blx_route *best, double *best_cost, const blx_route_in *in, blx_coll op);
static double part_cost(blx_route *r, const blx_route_in *in, blx_coll op);

blx_route_in blx_spread_in(const blx_route_in *combine)
{
    blx_route_in b = {.np = combine->np,
                      .bytes = combine->bytes,
                      .model = combine->model,
                      .trees = combine->trees,
                      .routes = combine->routes,
                      .forced = combine->forced,
                      .nodes = combine->nodes,
                      .explain = combine->explain};
    return b;
}

/* The modelled time of route r; BLX_NEVER if one of its trees cannot be
 * built (out of memory: the route is never chosen).  A composite prices
 * itself (ours: the cheapest weighed before it, or negative).  A
 * leave-on-all combine that gathers adds the broadcast that spreads the
 * result; a row of no model (one BLACS_ALGORITHM forces) costs what the
 * default's best does. */
static double cost_of(const blx_route *r, const blx_route_in *in, blx_coll op, double ours)
{
    if (r->alg->price != NULL)
        return r->alg->price(r, in, op, ours, part_cost);
    blx_cost_fn model = op == BLX_BCAST ? r->alg->bcast_cost : r->alg->combine_cost;
    if (model == NULL) {
        blx_route best;
        double t;
        weigh(&best, &t, in, op);
        return t;
    }
    const blx_tree *tree = cached(in->trees, in->np, r->shape, r->key, r->param),
                   *tree2 = cached(in->trees, in->np, r->shape2, r->key, r->param);
    if ((r->shape && !tree) || (r->shape2 && !tree2))
        return BLX_NEVER;
    double t = model(in, r->param, tree, tree2);
    if (op == BLX_ALLREDUCE && (r->alg->flags & BLX_ALG_GATHERS)) {
        blx_route b;
        blx_route_in spread = blx_spread_in(in);
        t += part_cost(&b, &spread, BLX_BCAST);
    }
    return t;
}

/* Every row that can run op, each with its numbers, the cheapest kept
 * (the first on a tie, and the first candidate at all, whatever its
 * cost); a row priced relative to ours (MPI's collective, the table's
 * last) against the cheapest before it. */
static void weigh(blx_route *best, double *best_cost, const blx_route_in *in, blx_coll op)
{
    int first = 1;
    *best_cost = BLX_NEVER;
    for (int i = 0; i < BLX_NALGORITHMS; i++) {
        const blx_algorithm *a = blx_algorithms[i];
        for (const int *p = a->weigh[op]; p != NULL && *p >= 0 && can_run(a, op, in); p++) {
            blx_route r = route_of(a, *p, in, op);
            double t = cost_of(&r, in, op, first ? -1 : *best_cost);
            if (t == BLX_UNPRICED)
                continue;
            if (in->explain != NULL)
                in->explain->weighed(in->explain, op, in, &r, t);
            if (t < *best_cost || first) {
                *best_cost = t;
                *best = r;
                first = 0;
            }
        }
    }
}

/* ---- the default's recent choices (blx_route_cache) ---- */

/* What a slot was chosen for: 1 a broadcast; 2 + 2 leave_on_all + cuts a combine;
 * plus 8 where MPI's collective can run, and 16 more where it is weighed. */
static int choice_kind(const blx_route_in *in, blx_coll op)
{
    return (op != BLX_BCAST ? 2 + 2 * (op == BLX_ALLREDUCE) + cuts(in) : 1) + 8 * (in->mpi != 0) +
           16 * (in->mpi && in->mpi_costs != NULL);
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

/* The route BLACS_ALGORITHM forces for op, if it can run there; its cost
 * is the model's, only where asked for (a composite's part, a spread). */
static int forced(blx_route *r, double *cost, const blx_route_in *in, blx_coll op)
{
    if (in->forced == NULL || in->forced->alg[op] < 0)
        return 0;
    const blx_algorithm *a = blx_algorithms[in->forced->alg[op]];
    if (!can_run(a, op, in))
        return 0;
    *r = route_of(a, in->forced->param[op], in, op);
    if (cost != NULL)
        *cost = cost_of(r, in, op, -1);
    return 1;
}

/* The size a choice is weighed for: bytes with all but their four leading
 * bits cleared (4000 bytes are weighed as 3840; powers of two and sizes
 * below 16 bytes as themselves), less than 1/8 below the size.  A loop
 * whose sizes change at every call (a panel's columns, each a little
 * shorter) then finds its choice in the cache instead of weighing every
 * candidate again, which took 0.6 us a call on 2 processes, more than the
 * reference's whole call.  A pure function of the size: every member of a
 * scope still chooses alike, whatever it chose before. */
static size_t size_class(size_t bytes)
{
    int high = 0; /* the leading bit */
    for (size_t v = bytes; v >>= 1;)
        high++;
    return high < 4 ? bytes : bytes >> (high - 3) << (high - 3);
}

/* The default's own choice for op, recalled or weighed; its cost. */
static double weighed(blx_route *best, const blx_route_in *in, blx_coll op)
{
    blx_route_in at = *in;
    at.bytes = size_class(in->bytes);
    int kind = choice_kind(&at, op);
    const struct blx_route_slot *s = recall(&at, kind);
    if (s != NULL) {
        *best = s->route;
        return s->cost;
    }
    double t;
    weigh(best, &t, &at, op);
    keep(&at, kind, best, t);
    return t;
}

/* The route for op and its modelled cost (cost NULL: a call's route alone). */
static void choose(blx_route *best, double *cost, const blx_route_in *in, blx_coll op)
{
    blx_stack_note_below(BLX_STACK_SUPPORT); /* weighing recurses deep (base/stack.h) */
    double t = 0;
    if (in->np < 2) /* nothing moves (the column scopes of a 1 x Q grid): no weighing */
        *best = route_of(&blx_alg_general_tree, 1, in, op);
    else if (forced(best, cost, in, op))
        return; /* its cost, where asked for, is set */
    else {
        if (in->explain != NULL)
            in->explain->depth++;
        t = weighed(best, in, op);
        if (in->explain != NULL)
            in->explain->depth--;
    }
    if (cost != NULL)
        *cost = t;
}

/* The route for op and its modelled time (a composite's part, a spread). */
static double part_cost(blx_route *r, const blx_route_in *in, blx_coll op)
{
    double t;
    choose(r, &t, in, op);
    return t;
}

int blx_route_bcast(blx_route *r, char top, const blx_route_in *in)
{
    if (top != ' ')
        return blx_route_letter(r, top, in, BLX_BCAST);
    choose(r, NULL, in, BLX_BCAST);
    return 0;
}

int blx_route_combine(blx_route *r, char top, const blx_route_in *in)
{
    blx_coll op = in->leave_on_all ? BLX_ALLREDUCE : BLX_REDUCE;
    if (top != ' ')
        return blx_route_letter(r, top, in, op);
    choose(r, NULL, in, op);
    r->fixed_order = 1;
    return 0;
}
