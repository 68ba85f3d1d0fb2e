/*
 * topologies/topology.h - what a topology is, and the registry keyed by the
 * TOP character.
 *
 * A topology is one file exporting one descriptor: the TOP letters it
 * answers to, a name, a one-line description, the tree it broadcasts along,
 * the functions that run a broadcast (send and receive side) and flags.  A
 * topology never sees M, N, LDA, a type or a BLACS context: it gets an
 * endpoint (buffers/bytes.h: the scope's members, the message ID, what to
 * name in reports), a root and a packed contiguous buffer (blx_xfer), and
 * moves bytes with the byte layer's primitives.
 *
 * The registry (registry.c) maps a TOP letter to a route: the descriptor, the
 * tree's letter and its number (rings, branches) after the documented
 * fallbacks and the choice of the default topology ' ', and runs a route on
 * a transfer, taking its trees from the scope's cache.  Every member of a
 * scope must reach the same route, so routes depend only on values all
 * members share: the letter, the scope size, the message size and the
 * context's BLACS_SET values.
 */
#ifndef BLX_TOPOLOGY_H
#define BLX_TOPOLOGY_H

#include <stddef.h>

#include "../buffers/bytes.h"
#include "model.h"
#include "tree.h"

/* Folds 'bytes' bytes of 'in' into 'acc' (a combine's element operation,
 * opaque to the topology); with in_first the operands are taken in the other
 * order (acc := in (op) acc). */
typedef void (*blx_merge_fn)(const void *op, void *acc, const void *in, size_t bytes, int in_first);

/* One broadcast or combine in progress, as a topology sees it. */
typedef struct blx_xfer {
    blx_ep ep;                      /* the scope, this operation's message ID, the routine */
    blx_tree_cache *trees;          /* the scope's trees */
    struct blx_route_cache *routes; /* the scope's recent default choices, or NULL */
    const blx_model *model;         /* the grid's cost model */
    int root;                       /* scope member at the root of the tree */
    char *buf;                      /* packed data: the source's, or where it is received;
                                for a combine, this process's contribution and the result */
    size_t bytes;
    /* set by the registry from the route */
    const blx_tree *tree;  /* broadcast tree, or the combine's fan-in tree */
    const blx_tree *tree2; /* a second tree (two trees: odd pieces follow it), or NULL */
    blx_plan plan;         /* pieces and sends in flight along the tree(s) */
    /* combines only */
    blx_merge_fn merge;
    const void *op;
    size_t unit;      /* merge granularity in bytes; 0: the buffer is merged whole */
    int ordered;      /* repeatable: fold contributions in a fixed order */
    int readonly;     /* buf is the caller's: copy it before folding anything into it */
    int leave_on_all; /* the result goes to every member (root is member 0) */
    int spread_tag;   /* leave-on-all: message ID of spreading the result */
} blx_xfer;

/* My position counted from the root (0 at the root). */
static inline int blx_xfer_rel(const blx_xfer *x) { return blx_ep_rel(&x->ep, x->root); }
/* The member 'rel' places after the root. */
static inline int blx_xfer_member(const blx_xfer *x, int rel) { return blx_ep_member(&x->ep, x->root, rel); }

typedef void (*blx_bcast_fn)(const blx_xfer *x);
typedef void (*blx_combine_fn)(const blx_xfer *x);

/* What an algorithm's modelled time depends on (for the default's choice). */
typedef struct blx_cost_in {
    const blx_model *model;
    int np;
    size_t n;                     /* bytes */
    int leave_on_all;             /* combines */
    int param;                    /* the route's number (variant, rings, branches) */
    const blx_tree *tree, *tree2; /* the route's trees (NULL: none) */
} blx_cost_in;
typedef double (*blx_cost_fn)(const blx_cost_in *c);

/* Topology flags.  The registry acts on POWER_OF_TWO, LEAVE_ON_ALL_ONLY (the
 * documented fallbacks) and GATHERS; the others describe the topology for
 * people and tools (tools/topo_table). */
enum {
    BLX_TOPO_PIPELINES = 1 << 0,         /* ring-like: consecutive operations pipeline */
    BLX_TOPO_USES_RINGS = 1 << 1,        /* reads BLACS_SET code 11/13 */
    BLX_TOPO_USES_BRANCHES = 1 << 2,     /* reads BLACS_SET code 12/14 */
    BLX_TOPO_LEAVE_ON_ALL_ONLY = 1 << 3, /* its combine needs RDEST = -1 (else the 1-tree) */
    BLX_TOPO_REPEATABLE = 1 << 4,        /* combines fold in a fixed order whatever BLACS_SET 15 says */
    BLX_TOPO_COHERENT = 1 << 5,          /* leave-on-all results are bitwise equal everywhere */
    BLX_TOPO_POWER_OF_TWO = 1 << 6,      /* its broadcast needs a power-of-two scope (else the 1-tree) */
    BLX_TOPO_GATHERS = 1 << 7            /* its combine leaves the result on the root: for leave-on-all
                                            the registry then broadcasts it (the default's best) */
};

typedef struct blx_topology {
    const char *keys; /* TOP letters, upper case */
    const char *name;
    const char *description;
    blx_tree_shape tree;          /* broadcast tree, relative to the source */
    blx_tree_shape tree2;         /* a second broadcast tree (two-tree), or NULL */
    blx_bcast_fn bcast_send;      /* run by the source */
    blx_bcast_fn bcast_recv;      /* run by every other member */
    blx_tree_shape combine_tree;  /* fan-in tree, relative to the destination (NULL: none) */
    blx_tree_shape combine_tree2; /* a second fan-in tree (two trees), or NULL */
    blx_combine_fn combine;       /* run by every member of the scope */
    blx_cost_fn bcast_cost;       /* modelled times, for topologies the default may choose */
    blx_cost_fn combine_cost;
    blx_plan (*plan)(const blx_xfer *x); /* pieces and window, if not the tree's (model.h) */
    unsigned flags;
} blx_topology;

/* The descriptors, one per file. */
BLX_INTERNAL extern const blx_topology blx_topo_ring;            /* I D */
BLX_INTERNAL extern const blx_topology blx_topo_split_ring;      /* S */
BLX_INTERNAL extern const blx_topology blx_topo_multiring;       /* M */
BLX_INTERNAL extern const blx_topology blx_topo_fully_connected; /* F */
BLX_INTERNAL extern const blx_topology blx_topo_hypercube;       /* H */
BLX_INTERNAL extern const blx_topology blx_topo_general_tree;    /* 1-9 T */
/* Algorithms without a TOP letter, chosen by the default ' '. */
BLX_INTERNAL extern const blx_topology blx_topo_scatter_allgather; /* broadcast: scatter + ring allgather */
BLX_INTERNAL extern const blx_topology blx_topo_scatter_doubling;  /* broadcast: scatter + rec. doubling */
BLX_INTERNAL extern const blx_topology blx_topo_two_tree;          /* broadcast */
BLX_INTERNAL extern const blx_topology blx_topo_rabenseifner;      /* combines */

/* A resolved TOP: which descriptor, its trees' shapes, letter and number. */
typedef struct blx_route {
    const blx_topology *topo;
    blx_tree_shape shape;  /* NULL for an algorithm that walks no tree */
    blx_tree_shape shape2; /* the second tree of two trees, or NULL */
    char key;
    int param;
    int fixed_order; /* fold combine inputs in a fixed order even when
                              repeatability is not asked for (the default TOP) */
} blx_route;

/* The default's last few choices on one scope.  Weighing every candidate
 * costs more than a short broadcast itself (about 0.3 us here against
 * 0.15 us for 8 bytes between two processes), so a loop of short operations
 * recalls the choice instead; it depends only on the slot's key. */
#define BLX_ROUTE_CACHE 8
typedef struct blx_route_cache {
    struct blx_route_slot {
        int kind; /* 0: empty; what was chosen for (registry.c) */
        int np;
        size_t bytes;
        const blx_model *model;
        blx_route route;
        double cost;        /* its modelled time */
        unsigned long used; /* when it was last recalled */
    } slot[BLX_ROUTE_CACHE];
    unsigned long clock;
    int last; /* the slot recalled or kept last: looked at first */
} blx_route_cache;

/* What a route depends on besides the letter: values every member of the
 * scope shares. */
typedef struct blx_route_in {
    int np; /* scope size */
    size_t bytes;
    int leave_on_all;    /* combines: RDEST or CDEST = -1 */
    int splittable;      /* combines: the buffer may be cut between elements (no locations) */
    int rings, branches; /* BLACS_SET 11/12 (broadcasts) or 13/14 (combines) */
    const blx_model *model;
    blx_tree_cache *trees;   /* the scope's trees, which the default's costs look at */
    blx_route_cache *routes; /* the scope's recent choices of the default, or NULL (none kept) */
} blx_route_in;

/* The descriptor answering to a TOP letter (any case), or NULL. */
BLX_INTERNAL const blx_topology *blx_topology_find(char top);
/* Every lettered descriptor, NULL-terminated (for listings and tests). */
BLX_INTERNAL extern const blx_topology *const blx_topologies[];

/* Route of a broadcast or a combine: returns 0, or -1 for an unknown letter.
 * The default ' ' takes the algorithm the cost model finds fastest. */
BLX_INTERNAL int blx_route_bcast(blx_route *r, char top, const blx_route_in *in);
BLX_INTERNAL int blx_route_combine(blx_route *r, char top, const blx_route_in *in);

/* Makes r the default's remembered choice for in, as if it had been
 * chosen (tests: to run an algorithm where the model would not take it). */
BLX_INTERNAL void blx_route_remember(const blx_route_in *in, int combine, const blx_route *r);

/* Runs a broadcast (the source: is_source) or a combine along a route: the
 * route's trees come from x->trees and the plan from x->model; x->tree,
 * x->tree2, x->plan and (for the default TOP) x->ordered are set here.  A
 * leave-on-all combine along a topology that GATHERS then spreads the result
 * with the broadcast the default would choose. */
BLX_INTERNAL void blx_bcast_run(const blx_route *r, blx_xfer *x, int is_source);
BLX_INTERNAL void blx_combine_run(const blx_route *r, blx_xfer *x);

/* How many broadcasts and combines this process has run along topology t
 * (long-message tests check that the algorithm they meant ran). */
BLX_INTERNAL unsigned long blx_topology_runs(const blx_topology *t);

/* The TOP letters the registry answers to, in a string (the default ' '
 * first), for sweeps and error texts. */
BLX_INTERNAL const char *blx_topology_letters(void);

/* The walkers every tree topology uses (tree_walk.c).  Broadcast: the root
 * sends, every other member receives from its parent and forwards to its
 * children.  Combine: the other way round, each member folds its
 * children's contributions into its own and sends the result to its parent.
 * With x->tree2, pieces alternate between the two trees.  Messages
 * travel in the pieces of x->plan, a node keeping at most plan.window sends
 * in flight, children in the tree's order (largest subtree first). */
BLX_INTERNAL void blx_tree_bcast(const blx_xfer *x);
BLX_INTERNAL void blx_tree_combine(const blx_xfer *x);
/* Their modelled times, for the default's choice. */
BLX_INTERNAL double blx_tree_bcast_cost(const blx_cost_in *c);
BLX_INTERNAL double blx_tree_combine_cost(const blx_cost_in *c);

/* Makes x->buf the combine's own copy (in work space) of a read-only
 * contribution (x->readonly), before anything is folded into it. */
BLX_INTERNAL void blx_xfer_own(blx_xfer *x);

/* The non-power-of-two plan of the exchange-based combines: with p the
 * largest power of two <= np, the member p + i (relative to the root) folds
 * its vector into member i.  blx_fold_in returns p and whether this member
 * takes part in the power-of-two exchange (the others are done: for
 * leave-on-all they got the result back; tmp is x->bytes of scratch); after
 * the exchange, blx_fold_out hands the result back to the folded members. */
BLX_INTERNAL int blx_fold_in(const blx_xfer *x, char *tmp, int *p);
BLX_INTERNAL void blx_fold_out(const blx_xfer *x, int p);

#endif
