/*
 * topologies/nodes.h - which members of a scope share a node, and the two
 * levels an operation on such a scope can run in.
 *
 * A node is a machine whose processes talk through its memory; between
 * nodes, messages cross each node's network card, which all its processes
 * share.  A scope that spans several nodes with more than one of its
 * members on some node can run its broadcasts and combines in two levels
 * (two_level.c): among the members of each node (on-node model) and among
 * one member of each node, its leader (the network's model).  The grid
 * layer learns the nodes when a grid is made (blacs/grid.c) and hands each
 * scope the node of each member; from here on it is data.
 *
 * Plain C, no MPI.
 */
#ifndef BLX_NODES_H
#define BLX_NODES_H

#include "../base/visibility.h"
#include "model.h"

typedef struct blx_nodes {
    int np;           /* members of the scope */
    int nn;           /* nodes it spans */
    int most;         /* members on its fullest node */
    int *node;        /* [np]: node of member k, the nodes numbered 0.. by their first member */
    int *order;       /* [np]: the members node by node, each node's in scope order */
    int *pos;         /* [np]: where member k stands in order */
    int *start;       /* [nn + 1]: node j's members are order[start[j] .. start[j + 1]) */
    int *rank;        /* [np]: the communicator rank of order[i] (each node's part of the scope) */
    int *lead;        /* [nn]: the communicator ranks of one operation's leaders (work space) */
    int cross;        /* the bits b < np for which members k and k XOR b lie on different nodes for
                      most k: placed by node, the bits of a node's size and above; round robin,
                      those below the number of nodes (a hypercube's dimensions, hypercube.c) */
    blx_model on;     /* the cost model among the processes of one node */
    blx_model off;    /* between two processes of different nodes, the link theirs alone */
    blx_model sliced; /* off with beta times most: every process of a node crossing at once
                         (a sum to all in slices, node_slices.c) */
} blx_nodes;

/* The nodes of a scope of np members: node_id[k] names member k's node
 * (any integers, equal for members of one node), rank[k] is its rank in
 * the communicator.  NULL if out of memory. */
BLX_INTERNAL blx_nodes *blx_nodes_build(int np, const int *node_id, const int *rank, const blx_model *on,
                                        const blx_model *off);
BLX_INTERNAL void blx_nodes_free(blx_nodes *n);
/* The bits b < limit for which members k and k XOR b, both below limit and
 * numbered from member 'root' (k is member (root + k) mod np), lie on
 * different nodes for most k (blx_nodes.cross from member 0 of all np;
 * beyond 128 members, most of 128 evenly spaced k); with 'at' (NULL: k),
 * places k and k XOR b, at[k] the member numbered from root at place k. */
BLX_INTERNAL int blx_nodes_cross_from(const blx_nodes *n, int root, int limit, const int *at);
/* n, the nodes of a scope of np members, where it spans more than one;
 * else NULL (what an algorithm that orders its members by node asks). */
static inline const blx_nodes *blx_nodes_spanned(const blx_nodes *n, int np)
{
    return n != NULL && n->nn > 1 && n->np == np ? n : NULL;
}
/* Whether operations on the scope may run in two levels: it spans more
 * than one node and some node holds more than one of its members. */
static inline int blx_nodes_two_levels(const blx_nodes *n) { return n != NULL && n->nn > 1 && n->most > 1; }
/* Whether a sum to all may run in slices (node_slices.c): two levels, and
 * every node holds the same number of the members, a power of two. */
static inline int blx_nodes_sliceable(const blx_nodes *n)
{
    return blx_nodes_two_levels(n) && n->nn * n->most == n->np && (n->most & (n->most - 1)) == 0;
}
/* The member leading node j in an operation rooted at member 'root': the
 * root on its own node, elsewhere the node's first member. */
static inline int blx_nodes_leader(const blx_nodes *n, int j, int root)
{
    return n->node[root] == j ? root : n->order[n->start[j]];
}

#endif
