/*
 * msgid/msgid.h - message IDs (MPI tags) computed from send/receive counters.
 *
 * The BLACS never ask the user for a message ID.  LAWN 73 section 6.1 shows how
 * to compute one from purely local information, given two rules every BLACS
 * program already obeys: a receiver names its source, and messages between a
 * pair of processes (or within a scope) are consumed in the order they were
 * produced.
 *
 * The ID range [lo, hi] (from MPI_TAG_UB, or from BLACS_SET code 1) is split:
 *
 *    lo                                  mid                                  hi
 *    | point-to-point: Ng subranges       | row scope | column scope | all scope |
 *    | (one per source vpid = p*Q + q)    |  Q subr.  |   P subr.    |  Ng subr. |
 *
 * Point-to-point: a message from source vpid s carries
 *      base_p2p + s * stride_p2p + (count % span_p2p),
 * where count is the sender's number of earlier sends to that destination
 * (the receiver uses its number of earlier receives from s: the two agree
 * because the pair is FIFO).
 *
 * Scoped operations: each scope keeps one counter per member.  An operation
 * rooted at member r (the source of a broadcast, the destination of a combine)
 * uses   base_scope + r * stride_scope + (count[r] % span_scope)   and every
 * member then advances count[r].  LAWN 73 keeps a scalar for the broadcasts a
 * process starts plus a vector for those it receives; our vector indexed by
 * the root, the caller included, holds exactly the same numbers.
 *
 * Normally stride = span: every source or root owns its own subrange.  When
 * the range is too small for that (a huge grid, or a narrow range from
 * BLACS_SET 1), the subranges of one kind are shared (stride 0): IDs then
 * repeat sooner, which stays correct because every receive names its source
 * (a receive from any source, vGERVA2D, first finds which source's next
 * message has arrived and then receives from that source by name), MPI keeps
 * the messages of a pair in order, and the operations of a scope are ordered
 * for every pair of its members.  The IDs keep point-to-point traffic apart from scoped
 * traffic, whose order relative to it is not defined.
 *
 * Everything here is plain C with no MPI, so it is unit-tested on its own.
 */
#ifndef BLX_MSGID_H
#define BLX_MSGID_H

#include "../base/visibility.h"

enum { BLX_SCOPE_ROW = 0, BLX_SCOPE_COL = 1, BLX_SCOPE_ALL = 2, BLX_NSCOPE = 3 };

/* Smallest range (hi - lo + 1) a grid can work with: one ID for each half's
 * kind of traffic. */
#define BLX_MSGID_MIN_RANGE 6

typedef struct blx_idlayout {
    int p2p_base;                 /* first point-to-point ID */
    int p2p_span;                 /* IDs a source cycles through */
    int p2p_stride;               /* distance between sources' subranges (span, or 0) */
    int scope_base[BLX_NSCOPE];   /* first ID of each scope's range */
    int scope_span[BLX_NSCOPE];   /* IDs a root cycles through */
    int scope_stride[BLX_NSCOPE]; /* distance between roots' subranges (span, or 0) */
} blx_idlayout;

typedef struct blx_msgids {
    blx_idlayout layout;
    int ng;                       /* processes in the grid */
    int scope_size[BLX_NSCOPE];   /* Q, P, P*Q */
    unsigned *snd;                /* [ng] sends made to each vpid */
    unsigned *rcv;                /* [ng] receives done from each vpid */
    unsigned *scoped[BLX_NSCOPE]; /* [scope size] operations rooted at each member */
} blx_msgids;

/* Splits [lo, hi] for a nprow x npcol grid.  Returns 0, or -1 when the range
 * is below BLX_MSGID_MIN_RANGE (or the arguments make no sense). */
BLX_INTERNAL int blx_idlayout_init(blx_idlayout *L, int lo, int hi, int nprow, int npcol);

BLX_INTERNAL int blx_msgid_p2p(const blx_idlayout *L, int src_vpid, unsigned count);
BLX_INTERNAL int blx_msgid_scoped(const blx_idlayout *L, int scope, int root, unsigned count);

/* Counter state of one grid.  init returns 0, -1 (range too small) or -2 (no memory). */
BLX_INTERNAL int blx_msgids_init(blx_msgids *M, int lo, int hi, int nprow, int npcol);
BLX_INTERNAL void blx_msgids_free(blx_msgids *M);

/* ID of the next message this process sends to / receives from a vpid;
 * advances the matching counter. */
BLX_INTERNAL int blx_msgid_next_send(blx_msgids *M, int src_vpid, int dest_vpid);
BLX_INTERNAL int blx_msgid_next_recv(blx_msgids *M, int src_vpid);
/* The ID the next receive from src_vpid will use, without advancing: what a
 * receive from any source looks for from each candidate. */
BLX_INTERNAL int blx_msgid_peek_recv(const blx_msgids *M, int src_vpid);

/* ID of the next operation rooted at scope member 'root'; advances its counter.
 * Every member of the scope calls this once per operation, in the same order. */
BLX_INTERNAL int blx_msgid_next_scoped(blx_msgids *M, int scope, int root);

#endif
