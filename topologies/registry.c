/*
 * topologies/registry.c - TOP letter -> topology, the documented fallbacks,
 * the default topology, and running a route on a transfer.
 *
 * Fallbacks (every member computes them identically):
 *   broadcast 'H' on a scope whose size is not a power of two -> 1-tree;
 *   combine 'H' when the result goes to one process -> 1-tree (bidirectional
 *   exchange leaves the result everywhere; it handles any size itself);
 *   '1'..'9' and 'T' are one topology; N_b >= np - 1 is the same tree as
 *   N_b = np - 1 (the root reaches everybody in one level);
 *   'M' clamps |N_r| to np - 1.
 * The default ' ' is looked up in a table by operation, scope size and
 * message size: trees and the bidirectional exchange for short messages,
 * scatter + allgather broadcasts and reduce-scatter based combines for long
 * ones (the InterCom and MPICH papers).  Its combines always fold their
 * inputs in a fixed order, so that a program that
 * does not choose a topology gets the same bits on every run (as it does from
 * MPI's reductions); the explicit letters keep LAWN 73's arrival-order fan-in
 * unless BLACS_SET 15 asks for repeatability.
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

/* The default topology ' ': the first row of the operation's table that
 * fits (scope size, message size, and whether the vector may be cut between
 * elements).  Pure data, so every member of a scope picks the same row. */
typedef struct {
    int min_np;       /* scope size at least */
    size_t min_bytes; /* message at least */
    int needs_split;  /* only for vectors that may be cut (combines without locations) */
    const blx_topology *topo;
    char key;
    int param;
} default_row;

static const default_row default_bcast[] = {
    {3, (size_t)512 << 10, 0, &blx_topo_scatter_allgather, 0, 0},
    {1, 0, 0, &blx_topo_general_tree, 'T', 1}, /* binomial tree, pipelined when deep */
};
static const default_row default_reduce[] = {
    {3, (size_t)256 << 10, 1, &blx_topo_rabenseifner, 0, 0},
    {1, 0, 0, &blx_topo_general_tree, 'T', 1}, /* binomial fan-in */
};
static const default_row default_allreduce[] = {
    {2, (size_t)64 << 10, 1, &blx_topo_rabenseifner, 0, 0},
    {1, 0, 0, &blx_topo_hypercube, 'H', 0}, /* bidirectional exchange: coherent */
};

static const default_row *default_row_for(const default_row *table, int np, size_t bytes, int split)
{
    while (np < table->min_np || bytes < table->min_bytes || (table->needs_split && !split))
        table++;
    return table;
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
    r->topo = t;
    r->key = key;
    r->param = 0;
    r->fixed_order = 0;
    if (t == &blx_topo_general_tree) {
        r->param = clamp(key == 'T' ? branches : key - '0', 1, most);
        r->key = 'T'; /* '3' and 'T' with N_b = 3 share one cached tree */
    } else if (t == &blx_topo_multiring) {
        r->param = rings < 0 ? -clamp(-(long long)rings, 1, most) : clamp(rings, 1, most);
    }
    r->shape = combine ? t->combine_tree : t->tree;
    return 0;
}

/* A default row: a letter goes through the letter's rules (its number is the
 * row's), an unlettered long-message algorithm is taken as it is. */
static int route_row(blx_route *r, const default_row *row, int np, int combine, int leave_on_all)
{
    if (row->key != 0)
        return route(r, row->key, np, row->param, row->param, combine, leave_on_all);
    r->topo = row->topo;
    r->shape = NULL;
    r->key = 0;
    r->param = 0;
    return 0;
}

int blx_route_bcast(blx_route *r, char top, int np, size_t bytes, int nr_bs, int nb_bs)
{
    char key = upper(top);
    int rc = key == ' ' ? route_row(r, default_row_for(default_bcast, np, bytes, 0), np, 0, 0)
                        : route(r, key, np, nr_bs, nb_bs, 0, 0);
    r->fixed_order = 0;
    return rc;
}

int blx_route_combine(blx_route *r, char top, int np, size_t bytes, int leave_on_all, int splittable,
                      int nr_co, int nb_co)
{
    char key = upper(top);
    if (key != ' ') {
        int rc = route(r, key, np, nr_co, nb_co, 1, leave_on_all);
        r->fixed_order = 0;
        return rc;
    }
    const default_row *table = leave_on_all ? default_allreduce : default_reduce;
    int rc = route_row(r, default_row_for(table, np, bytes, splittable), np, 1, leave_on_all);
    r->fixed_order = 1;
    return rc;
}

/* The tree of a route for x's scope, from the scope's cache. */
static const blx_tree *tree_for(const blx_xfer *x, const blx_route *r)
{
    const blx_tree *t = blx_tree_cached(x->trees, x->ep.np, r->shape, r->key, r->param);
    if (t == NULL)
        blx_fatal(x->ep.ctxt, x->ep.routine, "cannot build the %s tree for %d processes (out of memory?)",
                  r->topo->name, x->ep.np);
    return t;
}

/* Runs per descriptor: the lettered ones, then the default's own. */
static const blx_topology *const counted[] = {
    &blx_topo_ring,      &blx_topo_split_ring,   &blx_topo_multiring,         &blx_topo_fully_connected,
    &blx_topo_hypercube, &blx_topo_general_tree, &blx_topo_scatter_allgather, &blx_topo_rabenseifner,
};
static unsigned long runs[sizeof counted / sizeof counted[0]];

static void count_run(const blx_topology *t)
{
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        runs[i] += counted[i] == t;
}

unsigned long blx_topology_runs(const blx_topology *t)
{
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        if (counted[i] == t)
            return runs[i];
    return 0;
}

void blx_bcast_run(const blx_route *r, blx_xfer *x, int is_source)
{
    count_run(r->topo);
    x->tree = r->shape != NULL ? tree_for(x, r) : NULL; /* long-message algorithms walk no tree */
    (is_source ? r->topo->bcast_send : r->topo->bcast_recv)(x);
}

void blx_combine_run(const blx_route *r, blx_xfer *x)
{
    count_run(r->topo);
    x->ordered |= r->fixed_order;
    x->tree = NULL;
    x->rebcast = NULL;
    if (r->shape != NULL) {
        x->tree = tree_for(x, r);
        if (x->leave_on_all) { /* the one result is spread along a binomial tree */
            blx_route spread = {&blx_topo_general_tree, blx_topo_general_tree.tree, 'T', 1, 0};
            x->rebcast = tree_for(x, &spread);
        }
    }
    r->topo->combine(x);
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
