/*
 * topologies/topology.h - what an algorithm is, the one table of them, and
 * the registry keyed by the TOP character.
 *
 * An algorithm is one file exporting one descriptor (blx_algorithm): its
 * name, the TOP letters it answers to (none for the ones only the default
 * ' ' chooses), the tree it broadcasts along, the functions that run a
 * broadcast (send and receive side) and a combine, their modelled costs and
 * flags.  An algorithm never sees M, N, LDA, a type or a BLACS context: it
 * gets an endpoint (buffers/bytes.h: the scope's members, the message ID,
 * what to name in reports), a root and a packed contiguous buffer
 * (blx_xfer), and moves bytes with the byte layer's primitives.
 *
 * The registry (registry.c) maps a TOP letter to a route: the descriptor,
 * the tree's letter and its number (rings, branches) after the documented
 * fallbacks, and runs a route on a transfer, taking its trees from the
 * scope's cache; the default ' ' (default.c) weighs its candidates.  Every
 * member of a scope must reach the same route, so routes depend only on
 * values all members share: the letter, the scope size, the message size,
 * the context's BLACS_SET values, its cost model and BLACS_ALGORITHM.
 */
#ifndef BLX_TOPOLOGY_H
#define BLX_TOPOLOGY_H

#include <stddef.h>

#include "../buffers/bytes.h"
#include "model.h"
#include "nodes.h"
#include "tree.h"

/* Folds 'bytes' bytes of 'in' into 'acc' (a combine's element operation,
 * opaque to the topology); with in_first the operands are taken in the other
 * order (acc := in (op) acc). */
typedef void (*blx_merge_fn)(const void *op, void *acc, const void *in, size_t bytes, int in_first);

/* One broadcast or combine: the record the default routes and prices and
 * the registry runs (blx_xfer.in), built once per call by the entry point
 * (blacs/bcast.c, combine.c).  Values every member of the scope shares,
 * so that every member chooses alike.  A part of an operation (a level of
 * two, a slice, the broadcast that spreads a gathered result) has its own,
 * made from its whole's by one function that pricing and running both
 * call (blx_part_in, blx_spread_in). */
struct blx_route_cache;
struct blx_forced;
struct blx_explain;
typedef struct blx_route_in {
    int np; /* scope size (blx_xfer.ep.np) */
    size_t bytes;
    int leave_on_all;                /* combines: RDEST or CDEST = -1 */
    int splittable;                  /* combines: the buffer may be cut between elements (no locations), where
                            it has an element for every member (see unit) */
    int rings, branches;             /* BLACS_SET 11/12 (broadcasts) or 13/14 (combines) */
    const blx_model *model;          /* priced with, and pieces planned with */
    blx_tree_cache *trees;           /* the scope's trees */
    struct blx_route_cache *routes;  /* the scope's recent choices of the default, or NULL (none kept) */
    const struct blx_forced *forced; /* BLACS_ALGORITHM, or NULL (none) */
    const blx_nodes *nodes;          /* the scope's nodes, or NULL (one level only) */
    int mpi;                         /* MPI's own collective can run it: the scope has its own
                                        communicator, and a combine's elements and operation are MPI's */
    const blx_mpi_costs *mpi_costs;  /* what MPI's collectives were measured to cost, or NULL
                                        (the default never weighs them) */
    size_t unit; /* combines: an element's bytes, which the vector is cut between (the merge's
                    granularity); 0: the buffer is merged whole, never cut */
    /* told what the default weighs (topo_table --explain), or NULL; set only with routes NULL, so
     * that every choice is weighed, none recalled */
    struct blx_explain *explain;
} blx_route_in;

/* One broadcast or combine in progress, as a topology sees it. */
/* blx_xfer.notes */
#define BLX_NOTES 1
#define BLX_NOTES_NET 2

typedef struct blx_xfer {
    blx_route_in in; /* the operation, as routed and priced: in.bytes of data, in.model, ... */
    blx_ep ep;       /* the scope, this operation's message ID, the routine */
    int root;        /* scope member at the root of the tree */
    char *buf;       /* packed data: the source's, or where it is received;
                        for a combine, this process's contribution and the result (in.bytes) */
    int notes;       /* broadcasts (tree_bcast.c): BLX_NOTES, the root's children say when they are
                      ready, */
    MPI_Comm side;   /* on this communicator (same ranks and tag), and a root whose children
                      are not all ready may leave its sends in flight and return;
                      BLX_NOTES_NET, on a network link: the same for a message cut into
                      pieces, and a message sent whole leaves at once, no notes */
    int lettered;    /* broadcasts: the TOP named the algorithm (not the default's choice) */
    /* set by the registry from the route */
    const blx_tree *tree;  /* broadcast tree, or the combine's fan-in tree */
    const blx_tree *tree2; /* a second tree (two trees: odd pieces follow it), or NULL */
    blx_plan plan;         /* pieces and sends in flight along the tree(s) */
    int param;             /* the route's number (BLX_ALG_RADIX: the radix) */
    /* combines only (in.unit: the merge's granularity; in.leave_on_all: the
       result goes to every member, root is member 0) */
    blx_merge_fn merge;
    const void *op;
    int ordered;    /* repeatable: fold contributions in a fixed order */
    int readonly;   /* buf is the caller's: copy it before folding anything into it */
    int spread_tag; /* leave-on-all: message ID of spreading the result */
    /* the combine in MPI's terms (topologies/mpi.c): buf holds elements of
       mtype, folded by mop; MPI_DATATYPE_NULL where MPI has no such one */
    MPI_Datatype mtype;
    MPI_Op mop;
} blx_xfer;

/* My position counted from the root (0 at the root). */
static inline int blx_xfer_rel(const blx_xfer *x) { return blx_ep_rel(&x->ep, x->root); }
/* The member 'rel' places after the root. */
static inline int blx_xfer_member(const blx_xfer *x, int rel) { return blx_ep_member(&x->ep, x->root, rel); }

typedef void (*blx_bcast_fn)(const blx_xfer *x);
typedef void (*blx_combine_fn)(const blx_xfer *x);

/* An algorithm's modelled time (for the default's choice) of the operation
 * in, along its route's number (variant, rings, branches) and trees (NULL:
 * none): in->model, in->np, in->bytes, in->leave_on_all. */
typedef double (*blx_cost_fn)(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2);

/* Algorithm flags.  The registry acts on POWER_OF_TWO, LEAVE_ON_ALL_ONLY,
 * CUTS, GATHERS and NODE_ORDER; the others describe the algorithm for people and tools
 * (tools/topo_table): what a composite is, its own functions say (applies, price,
 * run). */
enum {
    BLX_ALG_PIPELINES = 1 << 0,         /* ring-like: consecutive operations pipeline */
    BLX_ALG_USES_RINGS = 1 << 1,        /* reads BLACS_SET code 11/13 */
    BLX_ALG_USES_BRANCHES = 1 << 2,     /* reads BLACS_SET code 12/14 */
    BLX_ALG_LEAVE_ON_ALL_ONLY = 1 << 3, /* its combine needs RDEST = -1 (else the 1-tree) */
    BLX_ALG_REPEATABLE = 1 << 4,        /* combines fold in a fixed order whatever BLACS_SET 15 says */
    BLX_ALG_COHERENT = 1 << 5,          /* leave-on-all results are bitwise equal everywhere */
    BLX_ALG_POWER_OF_TWO = 1 << 6,      /* its broadcast needs a power-of-two scope (else the 1-tree) */
    BLX_ALG_GATHERS = 1 << 7,           /* its combine leaves the result on the root: for leave-on-all
                                           the registry then broadcasts it (the default's best) */
    BLX_ALG_CUTS = 1 << 8,              /* its combine cuts the vector between elements: never for
                                           combines with locations */
    BLX_ALG_LEVELS = 1 << 9,            /* runs the default's choices on a scope's two levels
                                           (nodes.h) */
    BLX_ALG_MPI = 1 << 10,              /* hands the operation to MPI's own collective, where
                                           blx_route_in.mpi says MPI can; weighed by a tuning
                                           file's measurements (blx_mpi_costs) */
    BLX_ALG_NODE_ORDER = 1 << 11,       /* its broadcast tree's number is the scope's crossing bits
                                           (blx_nodes.cross; 0 on one node): the order the shape
                                           leaves free follows the nodes */
    BLX_ALG_SLICES = 1 << 12,           /* a sum to all in slices of the scope's nodes, where
                                           blx_nodes_sliceable */
    BLX_ALG_RADIX = 1 << 13             /* its number is a radix (2, 4 or 8; rabenseifner.c) */
};

/* The operations the default TOP chooses an algorithm for. */
typedef enum blx_coll { BLX_BCAST, BLX_REDUCE, BLX_ALLREDUCE, BLX_NCOLL } blx_coll;

struct blx_route;

/* What a composite prices and runs its parts with, handed down by the
 * default (default.c) and the registry's run (run.c), so that a row never
 * calls up into them: the default's route for a part and its modelled
 * time; running a broadcast or a combine along a route. */
typedef double (*blx_part_cost)(struct blx_route *r, const blx_route_in *in, blx_coll op);
typedef struct blx_runner {
    blx_part_cost route; /* (its modelled time is not needed to run) */
    void (*bcast)(const struct blx_route *r, blx_xfer *x);
    void (*combine)(const struct blx_route *r, blx_xfer *x);
} blx_runner;

typedef struct blx_algorithm {
    const char *name;  /* identifier: BLACS_ALGORITHM, statistics */
    const char *keys;  /* TOP letters, upper case ("": the default's only) */
    const char *title; /* in words, for tables */
    const char *description;
    blx_tree_shape tree;          /* broadcast tree, relative to the source */
    blx_tree_shape tree2;         /* a second broadcast tree (two-tree), or NULL */
    blx_bcast_fn bcast;           /* run by every member, the source x->root too */
    blx_tree_shape combine_tree;  /* fan-in tree, relative to the destination (NULL: none) */
    blx_tree_shape combine_tree2; /* a second fan-in tree (two trees), or NULL */
    blx_combine_fn combine;       /* run by every member of the scope */
    blx_cost_fn bcast_cost;       /* modelled times, for algorithms the default weighs */
    blx_cost_fn combine_cost;
    blx_plan (*plan)(const blx_xfer *x); /* pieces and window, if not the tree's (model.h) */
    /* A composite's own, where the fields above cannot say it (NULL for
     * the others):
     *   applies  whether it runs op on in's scope (in NULL: whether it
     *            provides op at all);
     *   price    its modelled time: its parts as the default would run
     *            them ('part'), or relative to 'ours', the cheapest row
     *            weighed before it (negative: none); BLX_UNPRICED: not a
     *            candidate here;
     *   run      the operation op on x, its parts along the default's
     *            routes ('with'). */
    int (*applies)(const blx_route_in *in, blx_coll op);
    double (*price)(const struct blx_route *r, const blx_route_in *in, blx_coll op, double ours,
                    blx_part_cost part);
    void (*run)(const struct blx_route *r, blx_xfer *x, blx_coll op, const blx_runner *with);
    unsigned flags;
    /* The default's candidates: per operation, the numbers (branches,
     * variant) it weighs this algorithm with, ended by -1; NULL: never. */
    const int *weigh[BLX_NCOLL];
} blx_algorithm;

/* A price: never chosen (a tree that cannot be built); not weighed at all. */
#define BLX_NEVER 1e300
#define BLX_UNPRICED (-1.0)

/* weigh[] of an algorithm that has no number: weighed once. */
#define BLX_WEIGH_ONCE ((const int[]){0, -1})

/* Every algorithm, one row each, in the default's order of preference on a
 * tie (the first of equal costs wins).  Adding one: write its file,
 * topologies/<name>.c, which opens with the algorithm, its cost and its
 * non-power-of-two plan and defines `const blx_algorithm blx_alg_<name>`
 * (name "<name>"; letters, flags, functions, and in weigh[] the operations
 * the default may choose it for), and add its row here.  Its TOP letters,
 * its place among the default's candidates, its run counter, its
 * BLACS_ALGORITHM name and the tables of tools/topo_table all come from
 * this list (test/unit/test_trees.c checks that they do).  MPI's row
 * stays last: it is priced against the best of the rows before it. */
#define BLX_ALGORITHMS(X) \
    X(hypercube)          \
    X(general_tree)       \
    X(fully_connected)    \
    X(scatter_doubling)   \
    X(scatter_ring)       \
    X(ring)               \
    X(rabenseifner)       \
    X(ring_allreduce)     \
    X(two_tree)           \
    X(split_ring)         \
    X(multiring)          \
    X(two_level)          \
    X(node_slices)        \
    X(mpi)

#define BLX_ALG_DECLARE(name) BLX_INTERNAL extern const blx_algorithm blx_alg_##name;
BLX_ALGORITHMS(BLX_ALG_DECLARE)
#undef BLX_ALG_DECLARE
#define BLX_ALG_COUNT(name) +1
enum { BLX_NALGORITHMS = 0 BLX_ALGORITHMS(BLX_ALG_COUNT) };
#undef BLX_ALG_COUNT

/* The table, in the order above. */
BLX_INTERNAL extern const blx_algorithm *const blx_algorithms[BLX_NALGORITHMS];
/* An algorithm's row in the table (-1: none). */
BLX_INTERNAL int blx_algorithm_index(const blx_algorithm *a);
/* Whether a provides op at all (default.c). */
BLX_INTERNAL int blx_algorithm_provides(const blx_algorithm *a, blx_coll op);
/* The algorithm answering to a TOP letter (any case), or NULL. */
BLX_INTERNAL const blx_algorithm *blx_algorithm_find(char top);
/* The TOP letters the registry answers to, in a string: the default ' '
 * first, then the letters in character order (for sweeps and error texts). */
BLX_INTERNAL const char *blx_algorithm_letters(void);
/* How many broadcasts and combines this process has run along a (tests
 * check that the algorithm they meant ran). */
BLX_INTERNAL unsigned long blx_algorithm_runs(const blx_algorithm *a);

/* BLACS_ALGORITHM: per operation, the algorithm the default TOP runs (its
 * row in the table; -1: the default's own choice) and its number. */
typedef struct blx_forced {
    int alg[BLX_NCOLL];
    int param[BLX_NCOLL];
} blx_forced;
BLX_INTERNAL blx_forced blx_forced_none(void);
/* Reads "bcast=two_tree,allreduce=rabenseifner,reduce=general_tree:3"
 * (operations bcast, reduce, allreduce; an algorithm's name, with its
 * number after ':'; "default" for the default's own choice) over *f;
 * returns 0, or -1 (and *f unchanged) with the reason in why[len]. */
BLX_INTERNAL int blx_forced_parse(const char *text, blx_forced *f, char *why, size_t len);

/* A resolved TOP: which algorithm, its trees' shapes, letter and number. */
typedef struct blx_route {
    const blx_algorithm *alg;
    blx_tree_shape shape;  /* NULL for an algorithm that walks no tree */
    blx_tree_shape shape2; /* the second tree of two trees, or NULL */
    char key;
    int param;
    int fixed_order; /* fold combine inputs in a fixed order even when
                        repeatability is not asked for (the default TOP) */
} blx_route;

/* The default's last choices on one scope.  Weighing every candidate
 * costs more than a short broadcast itself, so a loop of short operations
 * recalls the choice instead; it depends only on the slot's key.  Keys are
 * size classes, 8 an octave (default.c): 32 slots hold the 4 octaves a
 * panel's loop may run through, where 8 were fewer than the 9 classes of
 * one octave and its end, and a loop over them missed every time. */
#define BLX_ROUTE_CACHE 32
typedef struct blx_route_cache {
    struct blx_route_slot {
        int kind; /* 0: empty; what was chosen for (default.c) */
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

/* Told every candidate the default weighs, with its modelled time, as it
 * weighs it (tools/topo_table --explain); depth: 1 for the call's own
 * choice, more for the choices a candidate's cost makes (its levels, the
 * broadcast that spreads a gathered result). */
typedef struct blx_explain {
    void (*weighed)(struct blx_explain *x, blx_coll op, const blx_route_in *in, const blx_route *r,
                    double cost);
    int depth;
} blx_explain;

/* Route of a broadcast or a combine: returns 0, or -1 for an unknown letter.
 * The default ' ' takes the algorithm BLACS_ALGORITHM names where it can
 * run, else the one the cost model finds fastest (default.c). */
BLX_INTERNAL int blx_route_bcast(blx_route *r, char top, const blx_route_in *in);
BLX_INTERNAL int blx_route_combine(blx_route *r, char top, const blx_route_in *in);
/* The broadcast that spreads a gathered leave-on-all result (GATHERS), as
 * the default prices it and the registry runs it: in's scope, size and
 * model, one of our own algorithms (MPI's broadcast is not weighed). */
BLX_INTERNAL blx_route_in blx_spread_in(const blx_route_in *combine);
/* The route of a letter, after the documented fallbacks (registry.c). */
BLX_INTERNAL int blx_route_letter(blx_route *r, char top, const blx_route_in *in, blx_coll op);

/* Runs a broadcast (the source: member x->root) or a combine along a route: the
 * route's trees come from x->in.trees and the plan from x->in.model; x->tree,
 * x->tree2, x->plan and (for the default TOP) x->ordered are set here.  A
 * leave-on-all combine along an algorithm that GATHERS then spreads the
 * result with the broadcast the default would choose. */
BLX_INTERNAL void blx_bcast_run(const blx_route *r, blx_xfer *x);
BLX_INTERNAL void blx_combine_run(const blx_route *r, blx_xfer *x);

/* The walkers every tree algorithm uses (tree_bcast.c, fanin.c).  Broadcast: the root
 * sends, every other member receives from its parent and forwards to its
 * children.  Combine: the other way round, each member folds its
 * children's contributions into its own and sends the result to its parent.
 * With x->tree2, pieces alternate between the two trees.  Messages
 * travel in the pieces of x->plan, a node keeping at most plan.window sends
 * in flight, children in the tree's order (largest subtree first). */
BLX_INTERNAL void blx_tree_bcast(const blx_xfer *x);
/* How many broadcasts this process has rooted with its sends left in flight (tests). */
BLX_INTERNAL unsigned long blx_tree_bcast_detached(void);
BLX_INTERNAL void blx_tree_combine(const blx_xfer *x);
/* The plan of a lettered ring ('I', 'D', 'S'; ring.c): the message whole if
 * the TOP named the ring and 'whole', else the pieces of its tree. */
BLX_INTERNAL blx_plan blx_lettered_plan(const blx_xfer *x, int whole);
/* Their modelled times, for the default's choice. */
BLX_INTERNAL double blx_tree_bcast_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                        const blx_tree *tree2);
BLX_INTERNAL double blx_tree_combine_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                          const blx_tree *tree2);

/* The parts of a two-level operation on x's scope (two_level.c): my
 * node's members, rooted at member 'leader' of x's scope; the leaders of
 * an operation rooted at member 'root', one per node. */
BLX_INTERNAL blx_xfer blx_level_node(const blx_xfer *x, int leader);
BLX_INTERNAL blx_xfer blx_level_leaders(const blx_xfer *x, int root);
/* A part of the operation in (two_level.c): np members under 'model',
 * 'bytes' of it, the result to all of them or not; no nodes of its own,
 * never forced, no communicator of its own (MPI's collectives never run
 * it); the rest as in (a part may cut the vector where it has an element
 * for each of its members).  What a composite's price weighs a part with,
 * and what its run routes the part with (blx_level_node, ...). */
BLX_INTERNAL blx_route_in blx_part_in(const blx_route_in *in, int np, size_t bytes, const blx_model *model,
                                      int leave_on_all);
/* The default's route for 'level', a part of an operation, for op. */
BLX_INTERNAL blx_route blx_level_route(const blx_xfer *level, blx_coll op, const blx_runner *with);
/* A sum to all in slices (node_slices.c): the members of x's scope that
 * hold piece 'index' of their node, one per node (two_level.c); and on one node's
 * members, the root first (rabenseifner.c), the reduce-scatter, which
 * returns my piece's place and length in bytes, and the allgather. */
BLX_INTERNAL blx_xfer blx_level_slice(const blx_xfer *x, int index);
BLX_INTERNAL size_t blx_slices_scatter(const blx_xfer *x, size_t *len);
BLX_INTERNAL void blx_slices_gather(const blx_xfer *x);
/* The dimensions of recursive halving (rabenseifner.c), the masks below p
 * (a power of two) in the order they are used, for members numbered from
 * 'root' on a scope over the nodes n (NULL: one level): those whose pairs
 * share a node first, then those that cross nodes, each from the highest;
 * returns how many share a node (all of them on one level).  at: the
 * places of a fold's plan (blx_fold.rel), or NULL. */
BLX_INTERNAL int blx_halving_order(const blx_nodes *n, int root, int p, const int *at, int dim[32]);
/* How many levels of radix 4 or 8 this process has run (tests). */
BLX_INTERNAL unsigned long blx_rabenseifner_groups(void);

/* Makes x->buf the combine's own copy (in work space) of a read-only
 * contribution (x->readonly), before anything is folded into it. */
BLX_INTERNAL void blx_xfer_own(blx_xfer *x);

/* The non-power-of-two plan of the exchange-based combines (exchange.c): with p the
 * largest power of two <= np, np - p members fold their vectors into others,
 * and the p that stay take part in the power-of-two exchange at places
 * 0..p-1.  A plan (blx_fold_plan; NULL: member p + i folds into member i,
 * places are members): rel[v], the member (numbered from the root) at place
 * v; place[rel], the member's place; pair[v], for a place v >= p the place it
 * folds into, for one below p the place folded into it, or -1.  On the nodes
 * n (NULL: none) a member folds into one of its own node where one is left;
 * the root stays at place 0.  blx_fold_plan returns -1 if out of memory. */
typedef struct blx_fold {
    int p;
    int *rel, *place, *pair;
} blx_fold;
BLX_INTERNAL int blx_fold_plan(blx_fold *f, const blx_nodes *n, int root, int np);
BLX_INTERNAL void blx_fold_free(blx_fold *f);
static inline int blx_fold_rel(const blx_fold *f, int v) { return f != NULL ? f->rel[v] : v; }
static inline int blx_fold_place(const blx_fold *f, int rel) { return f != NULL ? f->place[rel] : rel; }
/* blx_fold_in returns p and whether this member takes part in the
 * exchange (the others are done: for leave-on-all they got the result back;
 * tmp is x->in.bytes of scratch); after the exchange, blx_fold_out hands the
 * result back to the folded members. */
BLX_INTERNAL int blx_fold_in(const blx_xfer *x, const blx_fold *f, char *tmp, int *p);
BLX_INTERNAL void blx_fold_out(const blx_xfer *x, const blx_fold *f, int p);
/* How many vectors this process has folded away by a plan (tests). */
BLX_INTERNAL unsigned long blx_fold_planned(void);

#endif
