/*
 * topologies/model.h - the alpha-beta-gamma cost model: how long moving data
 * takes, so that a topology can choose how to cut a message into pieces and
 * the default TOP can choose an algorithm.
 *
 * A message of n bytes between two processes costs alpha + n beta; folding
 * n bytes of a combine costs n gamma.  'window' says how many transfers a
 * process's link carries at full speed at once: 1 for a network link, whose
 * bandwidth every message in flight shares; more on shared memory, where
 * every receiver copies with a core of its own.
 *
 * A pipelined tree.  Cut n bytes into k pieces of s = n/k bytes.  A node
 * forwards each piece to its children in order, at most 'window' sends at
 * once, so one piece costs a node with d children about ceil(d / window)
 * (alpha + s beta).  With L such steps before the first piece reaches the
 * last node and D the most steps any node spends per piece,
 *
 *      T(k) = (L + (k - 1) D) (alpha + n beta / k)
 *      k*   = sqrt((L - D) n beta / (D alpha))
 *      T*   = D n beta + (L - D) alpha + 2 sqrt((L - D) D alpha n beta)
 *
 * A chain of p (L = p - 1, D = 1) then costs about n beta + p alpha +
 * 2 sqrt(p alpha n beta) instead of (p - 1)(alpha + n beta); a binomial tree
 * (L = D = log2 p) gains nothing, and its best is k = 1.
 *
 * Every member of a scope must reach the same plan, so plans depend only on
 * values all members share: the model (the same on every member of a grid,
 * see BLACS_MODEL in the README), the tree, the message size.
 */
#ifndef BLX_MODEL_H
#define BLX_MODEL_H

#include <stddef.h>

#include "../base/visibility.h"
#include "tree.h"

typedef struct blx_model {
    double alpha; /* seconds per message */
    double beta;  /* seconds per byte on one link */
    double gamma; /* seconds per byte folded */
    int window;   /* transfers a link carries at full speed at once (>= 1) */
} blx_model;

/* This machine's shared memory (the default); see the README. */
BLX_INTERNAL blx_model blx_model_default(void);
/* Reads "alpha=1e-6,beta=1e-10,gamma=0,window=1" (any subset, any order)
 * over *m; returns 0, or -1 (and *m unchanged) on anything else. */
BLX_INTERNAL int blx_model_parse(const char *text, blx_model *m);

/* How a message moves along a tree: its pieces and the sends a node keeps
 * in flight. */
typedef struct blx_plan {
    size_t piece; /* wanted piece size (blx_cut_make makes it exact) */
    int window;   /* sends in flight per node */
} blx_plan;

/* The best plan for n bytes on a pipeline of L steps with bottleneck D (as
 * defined above; pieces a multiple of unit bytes), and its modelled time. */
BLX_INTERNAL blx_plan blx_model_plan(const blx_model *m, int L, int D, size_t n, size_t unit);
BLX_INTERNAL double blx_model_time(const blx_model *m, int L, int D, size_t n);
/* The same for tree t. */
BLX_INTERNAL blx_plan blx_model_tree_plan(const blx_model *m, const blx_tree *t, size_t n, size_t unit);
BLX_INTERNAL double blx_model_tree_time(const blx_model *m, const blx_tree *t, size_t n);

/* Steps of a tree under a window: L (first piece to the last node) and D
 * (the most any node spends per piece), as defined above. */
BLX_INTERNAL void blx_model_tree_steps(const blx_model *m, const blx_tree *t, int *L, int *D);

#endif
