/*
 * topologies/run.c - running a route on a transfer: its trees from the
 * scope's cache, its plan from the model, the algorithm's functions (a
 * composite's own run), and the broadcast that spreads a gathered
 * leave-on-all result; and the run counters, one per row of the table.
 */
#include "../base/report.h"
#include "topology.h"

static unsigned long runs[BLX_NALGORITHMS];

unsigned long blx_algorithm_runs(const blx_algorithm *a)
{
    int i = blx_algorithm_index(a);
    return i < 0 ? 0 : runs[i];
}

static void count_run(const blx_algorithm *a)
{
    int i = blx_algorithm_index(a);
    if (i >= 0)
        runs[i]++;
}

/* The route's trees for x's scope, from the scope's cache, and the plan. */
static void prepare(const blx_route *r, blx_xfer *x, size_t unit)
{
    x->tree = x->tree2 = NULL;
    x->param = r->param;
    x->plan = (blx_plan){x->in.bytes + 1, x->in.model->window, 0}; /* whole */
    blx_tree_shape shapes[2] = {r->shape, r->shape2};
    const blx_tree **trees[2] = {&x->tree, &x->tree2};
    for (int i = 0; i < 2; i++) {
        if (shapes[i] == NULL)
            continue;
        *trees[i] = blx_tree_cached(x->in.trees, x->ep.np, shapes[i], r->key, r->param);
        if (*trees[i] == NULL)
            blx_fatal(x->ep.ctxt, x->ep.routine, "cannot build the %s tree for %d processes (out of memory?)",
                      r->alg->title, x->ep.np);
    }
    if (r->alg->plan != NULL)
        x->plan = r->alg->plan(x);
    else if (x->tree != NULL)
        x->plan = blx_model_tree_plan(x->in.model, x->tree, x->in.bytes, unit ? unit : 1);
}

static void run_bcast(const blx_route *r, blx_xfer *x)
{
    x->ep.whole = x->in.bytes;
    prepare(r, x, 1);
    r->alg->bcast(x);
}

/* The default's route for a composite's part. */
static double part_route(blx_route *r, const blx_route_in *in, blx_coll op)
{
    if (op == BLX_BCAST)
        blx_route_bcast(r, ' ', in);
    else
        blx_route_combine(r, ' ', in);
    return 0;
}

static const blx_runner runner = {part_route, blx_bcast_run, blx_combine_run};

/* A broadcast along r, uncounted (the spreading of a gathered result). */
static void bcast_along(const blx_route *r, blx_xfer *x)
{
    if (r->alg->run != NULL)
        r->alg->run(r, x, BLX_BCAST, &runner);
    else
        run_bcast(r, x);
}

void blx_bcast_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->alg);
    bcast_along(r, x);
}

void blx_combine_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->alg);
    x->ordered |= r->fixed_order;
    if (r->alg->run != NULL) { /* a composite: its parts counted as they run */
        r->alg->run(r, x, x->in.leave_on_all ? BLX_ALLREDUCE : BLX_REDUCE, &runner);
        return;
    }
    x->ep.whole = x->in.bytes;
    prepare(r, x, x->in.unit);
    r->alg->combine(x);
    if (x->in.leave_on_all && (r->alg->flags & BLX_ALG_GATHERS)) { /* the result is on member 0: spread it */
        blx_xfer spread = *x;
        spread.in = blx_spread_in(&x->in);
        spread.ep.tag = x->spread_tag;
        blx_route b;
        blx_route_bcast(&b, ' ', &spread.in);
        bcast_along(&b, &spread);
    }
}
