/*
 * topologies/model.h - the cost model: how long moving data takes, so that a
 * topology can choose how to cut a message into pieces and how many to keep
 * in flight, and the default TOP can choose an algorithm.
 *
 * A message of s bytes between two processes costs alpha + s beta, of which
 * the sender spends o (overhead) before it can start the next; folding s
 * bytes of a combine costs s gamma.  Messages in flight at once overlap
 * their latencies alpha; their bytes share the sender's link, which carries
 * 'window' transfers at full speed (1 on a network link; more on shared
 * memory, where every receiver copies with a core of its own).
 *
 * A pipelined tree.  Cut n bytes into k pieces of s = n/k bytes.  A node
 * forwards each piece to its d children in order, at most W sends in flight
 * (W = 2 for a stream of pieces: the next is posted while one is on the
 * wire; for a message sent whole, below), so one piece costs it about
 *     D(s) = ceil(d/W) alpha + ceil(d/window) s beta + d o,
 * and the j-th child (from 0) gets it (floor(j/W) + 1) alpha +
 * (floor(j/window) + 1) s beta + (j + 1) o after its parent.  With L(s) the
 * longest such sum from the root to a leaf and D(s) the largest over nodes,
 *
 *      T(k) = L(s) + (k - 1) D(s)
 *
 * which the plan minimizes: k* = sqrt((L_beta - D_beta) n beta / D_alpha),
 * the alpha, beta and o parts written apart.  A chain of p (every d = 1,
 * W = 1) then costs about n beta + p alpha + 2 sqrt(p alpha n beta) instead
 * of (p - 1)(alpha + n beta); a binomial tree gains nothing (its best is
 * k = 1); a short message (s beta << alpha) goes out to all children at once.
 *
 * A message sent whole (k = 1) takes 1 + floor(alpha / (n beta)) in
 * flight, so that short ones overlap their latencies and large ones go out
 * one at a time, largest subtree first; but on a network link (window 1)
 * the sends in flight share the card evenly: W posted together all arrive
 * after alpha + W n beta, and the next W start then.  There the plan takes
 * the W, from 1 to 16 or all of a node's children at once, whose batches
 * reach the last leaf first (unless all go at once anyway).  A k-nomial
 * tree's node sends k - 1 messages a level: posted together they pay one
 * latency, where two at a time pay two (64 KiB over 49 nodes, 2.9 us and
 * 43 GB/s: radix 4, three at once, 25 us; the binomial tree 28;
 * sim/results.md, "Times on random platforms").  On a node, whose copies
 * the default's choices were measured with, the first rule stays.
 *
 * A staggered chain.  On a network link (window 1) two pieces in flight
 * share the bandwidth, and two posted at once finish at once: then both
 * sends of the next pair are posted together and spend their latency with
 * the link idle, the alpha / W per piece above.  Started staggered they stay
 * so: if, whenever one send finishes, the other still has r bytes to go
 * with alpha / beta <= r <= s, the next piece's latency passes while those
 * bytes go out, and when the older finishes the newer has s - r + alpha /
 * beta left, again in that range.  A first piece shorter than the others by
 * lead = (s + alpha / beta) / 2 starts the stream in the middle of it.  A
 * node of a chain forwards every piece once, as it arrives, so the stagger
 * carries down the chain, and a piece costs s beta, no latency:
 *
 *      T = L(s) + (k - 1) s beta,   s = 1.15 alpha / beta (at least PIECE_MIN)
 *
 * (s beta >= alpha is what hides the latency; the margin keeps r in range.)
 * A node with two children sends each piece twice at once, so pairs are
 * posted together and no lead staggers them: only chains (every node one
 * child) are planned so, where it is faster than the plan above.
 *
 * Every member of a scope must reach the same plan, so plans depend only on
 * values all members share: the model (the same on every member of a grid,
 * see BLACS_MODEL in doc/guide.md), the tree, the message size.
 */
#ifndef BLX_MODEL_H
#define BLX_MODEL_H

#include <stddef.h>

#include "../base/visibility.h"
#include "tree.h"

typedef struct blx_model {
    double alpha;    /* seconds per message (latency) */
    double beta;     /* seconds per byte on one link */
    double gamma;    /* seconds per byte folded */
    double overhead; /* seconds a sender spends per message */
    int window;      /* transfers a link carries at full speed at once (>= 1) */
    int overlap;     /* 1: the latencies of messages received at once overlap (a network,
                        or shared memory with a core per process); 0: each message waits
                        for its sender's turn on a processor (more processes than processors) */
} blx_model;

/* This machine's shared memory (the default); see doc/guide.md. */
BLX_INTERNAL blx_model blx_model_default(void);
/* The default on a node where 'procs' processes share 'cpus' processors
 * (either <= 0: unknown, the plain default).  With more processes than
 * processors, a message waits until its receiver is scheduled: alpha then
 * stands for that wait (BLX_MODEL_OVERSUBSCRIBED_ALPHA), which messages
 * received at once do not share (overlap = 0), and the default TOP prefers
 * algorithms with few synchronizations; folding, which shares the
 * processors too, costs BLX_MODEL_OVERSUBSCRIBED_GAMMA a byte. */
#define BLX_MODEL_OVERSUBSCRIBED_ALPHA 1e-4
#define BLX_MODEL_OVERSUBSCRIBED_GAMMA 2.5e-10
BLX_INTERNAL blx_model blx_model_for_node(int procs, int cpus);
/* The same over a given model (a tuning file's): *m's alpha and gamma at
 * least the values above, overlap 0, where procs > cpus. */
BLX_INTERNAL void blx_model_crowd(blx_model *m, int procs, int cpus);
/* Reads "alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1" (any subset,
 * any order) over *m; returns 0, or -1 (and *m unchanged) on anything else. */
BLX_INTERNAL int blx_model_parse(const char *text, blx_model *m);
/* The same over the two levels of a machine of nodes: a name alone sets
 * both, "node.name" only the model on a node (*on), "net.name" only the
 * network's between nodes (*off); -1 (and both unchanged) on anything else. */
BLX_INTERNAL int blx_model_parse_levels(const char *text, blx_model *on, blx_model *off);
/* MPI's own collectives, as blacs-tune measured them: for a few shapes of
 * scope (np members over nn nodes), per operation, MPI's time divided by
 * the default's own at a few message sizes.  The default TOP runs MPI's
 * collective where the shape measured nearest to a scope's (the same
 * whether on one node or several; then the nearest in members and in
 * members per node, on a log scale) gives a ratio below 1 at the message's
 * size (interpolated between the sizes measured, on a log scale, and the
 * nearest measured beyond them): its modelled time is the default's best
 * times that ratio.  Fixed size: a grid's process 0 hands it to the others
 * as bytes. */
#define BLX_MPI_SIZES 8
#define BLX_MPI_SHAPES 48
typedef struct blx_mpi_shape {
    int op;     /* 0 broadcast, 1 combine to one, 2 combine to all (blx_coll) */
    int np, nn; /* members, nodes */
    int k;      /* sizes measured */
    double bytes[BLX_MPI_SIZES], ratio[BLX_MPI_SIZES];
} blx_mpi_shape;
typedef struct blx_mpi_costs {
    int n; /* shapes */
    blx_mpi_shape shape[BLX_MPI_SHAPES];
} blx_mpi_costs;
/* The ratio for op on np members over nn nodes at 'bytes'; -1: nothing measured (mpi.c). */
BLX_INTERNAL double blx_mpi_ratio(const blx_mpi_costs *t, int op, int np, int nn, size_t bytes);

/* A tuning file (blacs-tune writes one; doc/guide.md): lines of the syntax above,
 * lines "mpi.OP.NPxNN = BYTES:RATIO, ..." (OP bcast, reduce or allreduce;
 * sizes increasing; into *mpi, which may be NULL: such lines are then
 * checked and skipped), blank lines, and '#' to the end of a line a
 * comment.  Returns 0, or the number of the first line that is not a model
 * (1 for the first; *on, *off and *mpi unchanged then); *net: 1 if the file
 * sets a value of the network (a name with net. or alone), else 0. */
BLX_INTERNAL int blx_model_parse_file(const char *text, blx_model *on, blx_model *off, int *net,
                                      blx_mpi_costs *mpi);

/* The network between nodes when nothing better is known: a message
 * crosses two cards (BLX_MODEL_NET_ALPHA), at BLX_MODEL_NET_BETA a byte,
 * the link carrying one transfer at full speed; folding as on the node.
 * Each message costs its sender BLX_MODEL_NET_OVERHEAD of its own time
 * (posting it to the card and completing it: what the shared-memory
 * model's 0.2 us measures on a node), which the start-up probe does not
 * measure (blacs-tune does): without it, an algorithm of many small
 * messages looked free beside one of few (a radix-8 reduce-scatter for a
 * 2 KiB sum on 8 nodes: 42 MPI calls a process where the hypercube makes
 * 9, and ScaLAPACK's PDGEQRF simulated on 64 processes made twice the MPI
 * calls for 0.7% of its simulated time; doc/performance.md). */
#define BLX_MODEL_NET_ALPHA 2e-6
#define BLX_MODEL_NET_BETA 1e-10
#define BLX_MODEL_NET_OVERHEAD 3e-7
BLX_INTERNAL blx_model blx_model_network(const blx_model *on);
/* A flat algorithm's model on a scope whose members are spread over
 * several nodes, at most 'sharing' of them on one node: the network's,
 * every member's bytes sharing its node's card with the others' (beta
 * times sharing), since any of its steps may send them all off the node at
 * once. */
BLX_INTERNAL blx_model blx_model_across(const blx_model *off, int sharing);

/* How a message moves along a tree: its pieces and the sends a node keeps
 * in flight. */
typedef struct blx_plan {
    size_t piece; /* wanted piece size (blx_cut_make makes it exact) */
    int window;   /* sends in flight per node */
    size_t lead;  /* the first piece this much shorter: a staggered chain (0: not) */
} blx_plan;

/* A pipeline's shape in the terms above: per piece, the steps of latency,
 * of bytes and of overhead on the longest path (L) and at the busiest node
 * (D), for a window W. */
typedef struct blx_steps {
    double la, lb, lo; /* L: alpha, beta and overhead steps */
    double da, db, dd; /* D */
} blx_steps;

/* The steps of tree t when its nodes keep W sends in flight. */
BLX_INTERNAL blx_steps blx_model_tree_steps(const blx_model *m, const blx_tree *t, int W);
/* The window that covers one latency with pieces of s bytes (1 .. 1024). */
BLX_INTERNAL int blx_model_window(const blx_model *m, double s);

/* The best plan for n bytes along a pipeline whose steps steps(W) gives
 * (pieces a multiple of unit bytes; the piece size non-decreasing in n). */
typedef blx_steps (*blx_steps_fn)(const blx_model *m, const void *shape, int W);
BLX_INTERNAL blx_plan blx_model_plan(const blx_model *m, blx_steps_fn steps, const void *shape, size_t n,
                                     size_t unit);
/* The modelled time of a given plan for n bytes along that pipeline. */
BLX_INTERNAL double blx_model_plan_time(const blx_model *m, blx_steps_fn steps, const void *shape, size_t n,
                                        blx_plan plan);
/* The same for a chain of 'hops' links (a point-to-point message packed and
 * sent piece by piece is a chain of 2: copy, move). */
BLX_INTERNAL blx_plan blx_model_chain_plan(const blx_model *m, int hops, size_t n, size_t unit);
/* The same for a tree (a chain on a network link may be staggered). */
BLX_INTERNAL blx_plan blx_model_tree_plan(const blx_model *m, const blx_tree *t, size_t n, size_t unit);
BLX_INTERNAL double blx_model_tree_time(const blx_model *m, const blx_tree *t, size_t n);

#endif
