/*
 * topologies/walk.h - what the tree walkers share (tree_bcast.c, fanin.c,
 * fanin_slots.c): a node's place in a tree, and the stream of its sends.
 *
 * A node's sends along its tree or two trees (stream.c).  The pieces of a
 * tree go in piece order, each to every destination the node has in that
 * tree (its children in a broadcast, its parent in a fan-in), as soon as
 * the piece is ready, at most 'window' sends in flight.  The trees do not
 * wait for each other (a node that forwards in both would otherwise hold
 * one tree's pieces until the other's first piece had come down all of its
 * tree), but while both have sends left, neither takes more than
 * window - 1 of the sends in flight:
 *   - a fan-in's receivers post their receives in piece order, as many as
 *     their slots allow, and a synchronous send completes only once its
 *     receive is posted: with the reserve, the lowest piece not yet
 *     everywhere can always go, so the combine never deadlocks;
 *   - a node's own pieces (as a leaf of one tree, always ready) then never
 *     delay the pieces it forwards in the other, which its parent waits for.
 * With a window of 1, and where both trees lead to the same process (whose
 * receives from this node are then posted in piece order), the pieces go in
 * piece order across the trees.  Sends are synchronous when there are more
 * than the window (paced: completion means delivery, where MPI would
 * buffer a short message), ordinary when all fit in it.
 */
#ifndef BLX_WALK_H
#define BLX_WALK_H

#include "topology.h"

#define BLX_STACK_REQS 32
#define BLX_STREAM_SENDS 16

/* n requests: from the stack when few, else from the heap (a fatal error
 * if out of memory); each starts inactive. */
BLX_INTERNAL blx_req *blx_walk_reqs(const blx_xfer *x, blx_req *stack, int n);

/* My parent (-1 at the root) and children in a tree, as members. */
typedef struct blx_place {
    int parent, nkids;
    const int *kids; /* relative to the root */
} blx_place;

/* My place in the tree of each piece: at[0] for even pieces, at[1] for
 * odd; returns the number of trees. */
BLX_INTERNAL int blx_places(const blx_xfer *x, blx_place at[2]);

typedef struct blx_stream {
    const blx_xfer *x;
    const blx_cut *cut;
    const blx_place *at;
    const int *left;
    int ntrees, up, in_order; /* up: to the parent (a fan-in); in_order: across the trees */
    int ndest[2];             /* each tree's destinations of a piece */
    int piece[2], dest[2];    /* each tree's next send: its piece (>= cut->k: none) and destination */
    int busy[2];              /* each tree's sends in flight */
    int inflight, sent, total, window, sync, used; /* used: requests set up so far */
    blx_req *req;                                  /* [window], then what the caller waits for with them */
    char tree[BLX_STREAM_SENDS];                   /* the tree of the send in each request */
} blx_stream;

/* Starts the stream of a node at at[] of ntrees trees, to its parents (up)
 * or children; piece i is ready once left[i] == 0 (left NULL: all are);
 * req has room for BLX_STREAM_SENDS requests and the caller's after them. */
BLX_INTERNAL void blx_stream_start(blx_stream *o, const blx_xfer *x, const blx_cut *cut,
                                   const blx_place at[2], int ntrees, int up, const int *left, blx_req *req);
/* Posts every send that may go now. */
BLX_INTERNAL void blx_stream_push(blx_stream *o);
/* Send s has completed. */
BLX_INTERNAL void blx_stream_done(blx_stream *o, int s);
/* Once every send is posted: waits for those in flight. */
BLX_INTERNAL void blx_stream_drain(blx_stream *o);
/* Waits for one of the sends in flight or of r[0..n) (NULL or inactive:
 * none); returns the index in r of the one that completed, or -1 for a
 * send (then done). */
BLX_INTERNAL int blx_stream_wait(blx_stream *o, blx_req *const r[], int n);

#endif
