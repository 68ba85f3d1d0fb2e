/*
 * topologies/fanin.h - the receive slots of a fan-in (fanin.c), which the
 * combine walker (tree_combine.c) fills and folds.
 *
 * Contributions are numbered q in piece order, the children of piece i's
 * tree in the tree's order (with one tree: q = piece * nkids + j), and
 * posted in q order, at most nslots at a time.  Folded as they arrive, they
 * take their slots from a free list.  Where the combine must be repeatable,
 * each piece takes its children's contributions in the tree's order, and
 * contribution q takes slot q mod nslots once the one before it there is
 * folded.  Along one tree they are folded in q order (its pieces go up in
 * order anyway); along two, a piece of one tree is folded and sent on while
 * the other tree's piece before it still waits for a child.  The bits are
 * the same either way.  The node's sends in flight (at most
 * BLX_STREAM_SENDS, and two requests the stream waits for with them) have
 * requests after the slots', so that one wait serves both.
 */
#ifndef BLX_FANIN_H
#define BLX_FANIN_H

#include "walk.h"

/* Bytes of children's pieces a fan-in keeps posted at once. */
#define BLX_FANIN_BUDGET ((size_t)8 << 20)

typedef struct blx_fanin {
    const blx_xfer *x;
    blx_place at[2];  /* piece i follows tree i % ntrees */
    int ntrees, pair; /* pair: contributions to two consecutive pieces */
    blx_cut cut;
    char *tmp;
    size_t slot_bytes;
    int nslots, posted, folded, total, nfree;
    int low[2];         /* repeatable, two trees: each tree's first contribution not yet folded */
    int smallest_first; /* whole vectors, fewer slots than children: the last child first */
    blx_req *req;       /* [nslots + BLX_STREAM_SENDS + 2] */
    int *q;             /* [nslots] the contribution a slot holds (-1: none) */
    int *arrived;       /* [nslots] its receive has completed */
    int *free;          /* [nslots] free slots (arrival order) */
    int *left;          /* [k] children not yet folded into piece i */
} blx_fanin;

/* Sets up the slots of x's fan-in, cut as cut; their bookkeeping goes in
 * stack (stack_bytes) when it fits, else on the heap (blx_fanin_end). */
BLX_INTERNAL void blx_fanin_start(blx_fanin *f, const blx_xfer *x, const blx_place at[2], int ntrees,
                                  const blx_cut *cut, void *stack, size_t stack_bytes);
BLX_INTERNAL void blx_fanin_end(blx_fanin *f, void *stack);
/* Posts the receives of the next contributions, as far as slots are free. */
BLX_INTERNAL void blx_fanin_post(blx_fanin *f);
/* Folds the contribution in slot s into its piece. */
BLX_INTERNAL void blx_fanin_fold(blx_fanin *f, int s);
/* Slot s has arrived: folded at once, or where the combine must be
 * repeatable, once its piece's earlier children are in. */
BLX_INTERNAL void blx_fanin_arrived(blx_fanin *f, int s);
/* Waits for a contribution to fold or, with sends in flight, one of them;
 * returns the receive slot, or -1 for a send (then done). */
BLX_INTERNAL int blx_fanin_wait(blx_fanin *f, blx_stream *o);

#endif
