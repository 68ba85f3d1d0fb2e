/*
 * topologies/tree.h - communication trees as data.
 *
 * Every broadcast topology of LAWN 73 section 4.3 (rings, split ring,
 * multiring, fully connected, hypercube, general trees) is a spanning tree of
 * the scope rooted at the source, with each node's children in the order it
 * sends to them.  A combine walks the same kind of tree the other way round
 * (fan-in towards the destination, LAWN 73 section 5.4).  So the topologies
 * only describe trees, built once per (scope size, topology, parameter) and
 * cached per scope (blx_tree_cache), and the walkers (tree_bcast.c,
 * tree_combine.c) move the data.
 *
 * Trees use relative numbering: node 0 is the root; node r is scope member
 * (r + root) mod np.  Every topology is invariant under that rotation, so one
 * tree serves every root.
 *
 * Each edge also carries the step at which it is used in LAWN 73's timing
 * model (all processes start together; a node forwards from the step after
 * it received).  The steps are what the unit tests compare with Table 9.
 *
 * Plain C, no MPI.
 */
#ifndef BLX_TREE_H
#define BLX_TREE_H

#include <stddef.h>

#include "../base/visibility.h"

typedef struct blx_tree {
    int np;                     /* nodes */
    int *parent;                /* [np]: parent of node r; -1 for the root */
    int *step;                  /* [np]: step at which r receives (0 for the root) */
    int *first;                 /* [np + 1]: children of r are kids[first[r] .. first[r + 1]) */
    int *kids;                  /* [np - 1]: children, each parent's in send order */
    int nsteps;                 /* largest step */
    int nedges;                 /* edges added so far (== np - 1 when complete) */
    struct blx_tree_memo *memo; /* the cost model's cache, which a const tree may fill */
} blx_tree;

/* The cost model's steps of a tree for the last few windows asked
 * (model.c): W, L alpha, L beta, L overhead, most children; valid for
 * 'links', replaced round robin from 'next'. */
#define BLX_TREE_MEMO 8
typedef struct blx_tree_memo {
    int links, next;
    int steps[BLX_TREE_MEMO][5];
} blx_tree_memo;

/* A tree shape: fills t (already sized for t->np nodes) with blx_tree_edge.
 * key is the TOP letter (upper case), param its number (rings, branches). */
typedef void (*blx_tree_shape)(blx_tree *t, char key, int param);

/* Builds a tree of np nodes with 'shape'; NULL if out of memory or if the
 * shape did not produce a spanning tree (a bug, reported by the caller). */
BLX_INTERNAL blx_tree *blx_tree_build(int np, blx_tree_shape shape, char key, int param);
BLX_INTERNAL void blx_tree_free(blx_tree *t);

/* Used by shapes, in send order: 'parent' sends to 'child' at 'step'. */
BLX_INTERNAL void blx_tree_edge(blx_tree *t, int parent, int child, int step);

/* A chain of len nodes first, first + dir, ... (mod np): 'from' sends to
 * 'first' at 'step', and each node forwards to the next one step later. */
BLX_INTERNAL void blx_tree_chain(blx_tree *t, int from, int first, int len, int dir, int step);

static inline int blx_tree_nkids(const blx_tree *t, int r) { return t->first[r + 1] - t->first[r]; }
static inline const int *blx_tree_kids(const blx_tree *t, int r) { return t->kids + t->first[r]; }

/* Powers of two, for the shapes and the exchange-based algorithms: whether
 * n is one; the largest one <= n (n >= 1), its log2 in *lg (lg may be
 * NULL); ceil(log2 n). */
static inline int blx_is_pof2(int n) { return n > 0 && (n & (n - 1)) == 0; }
static inline int blx_pof2_floor(int n, int *lg)
{
    int p = 1, l = 0;
    for (; p <= n / 2; p *= 2)
        l++;
    if (lg != NULL)
        *lg = l;
    return p;
}
static inline int blx_log2_ceil(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/* The trees one scope has used, each built on first use and kept; the
 * least recently used of BLX_TREE_CACHE is replaced, so the two trees one
 * combine asks for in a row never push each other out.  Zero-initialized
 * means empty. */
#define BLX_TREE_CACHE 24
typedef struct blx_tree_cache {
    struct blx_tree_slot {
        blx_tree_shape shape;
        char key;
        int param;
        blx_tree *tree;
        unsigned long used; /* when it was last looked up */
    } slot[BLX_TREE_CACHE];
    unsigned long clock;
} blx_tree_cache;

/* The tree of np nodes of this shape, from the cache; NULL if it cannot be
 * built (out of memory). */
BLX_INTERNAL const blx_tree *blx_tree_cached(blx_tree_cache *c, int np, blx_tree_shape shape, char key,
                                             int param);
BLX_INTERNAL void blx_tree_cache_free(blx_tree_cache *c);

#endif
