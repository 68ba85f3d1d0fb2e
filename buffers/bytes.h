/*
 * buffers/bytes.h - the byte layer: every message the library sends or
 * receives goes through here.
 *
 * An endpoint is one process's view of one operation's traffic: the
 * communicator, the members of the scope and how to address them, the
 * message ID (MPI tag) of the operation, and what to name in a report.
 * Callers address members by their index in the scope; this layer turns an
 * index into a rank, posts the MPI calls, cuts messages above BLX_MAX_MSG
 * into pieces (MPI counts are int), and checks every finished receive: a
 * message of another size than the receiver expects is a clear error naming
 * both processes, never a silent prefix or a hang.
 *
 * The communicator must return errors (MPI_ERRORS_RETURN), so that a
 * truncated receive reaches the check instead of MPI's own handler.
 */
#ifndef BLX_BYTES_H
#define BLX_BYTES_H

#include <mpi.h>
#include <stddef.h>

#include "../base/visibility.h"
#include "queue.h"

typedef struct blx_ep {
    MPI_Comm comm;
    int np, me;          /* members of the scope; my index among them */
    int first, stride;   /* rank in comm of member k: first + k * stride, */
    const int *map;      /* or map[k] where map is not NULL (a part of a scope) */
    int tag;             /* message ID of the operation */
    int ctxt;            /* for reports only */
    const char *routine; /* for reports only */
    size_t whole;        /* for reports: bytes of the whole operation here (0: each message's) */
    MPI_Comm own;        /* the scope's own communicator, rank = member index, for MPI's
                            collectives; MPI_COMM_NULL for a part of a scope */
} blx_ep;

/* The largest single MPI message: longer data travel as several. */
#define BLX_MAX_MSG ((size_t)1 << 30)

/* How a message of n bytes travels as pieces.  Every piece but the first
 * and the last has s bytes; the first may be 'lead' bytes shorter (a stream
 * that starts staggered, topologies/model.h); the last has what remains,
 * (n + lead) mod s, so it is always shorter than the others (and empty when
 * s divides n + lead).  In other words: the cut of n + lead bytes into
 * pieces of s with the first lead bytes left out.  A message goes whole (one
 * piece, s > n) when the wanted piece size is at least n.  Sender and
 * receiver cut by the same rule from their own n, and callers keep the
 * wanted size a non-decreasing function of n and the lead a function of the
 * piece size: then a receiver expecting another size than was sent meets a
 * piece of another length than it expects at the latest at its own last
 * piece (a clear error from the receive check), never a silent prefix of the
 * message nor a wait for a piece that never comes (test/unit/test_cut.c). */
typedef struct blx_cut {
    size_t n, s;
    int k;       /* pieces */
    size_t lead; /* the first piece is s - lead bytes (k > 1) */
} blx_cut;

/* The cut of n bytes into pieces of about 'want' bytes, a multiple of unit
 * (want is rounded up to a multiple of unit and lowered to BLX_MAX_MSG):
 * whole when want > n and n fits one message; the first piece shorter by
 * 'lead' rounded down to a multiple of unit (no lead if that is not shorter
 * than a piece). */
BLX_INTERNAL blx_cut blx_cut_make(size_t n, size_t want, size_t unit, size_t lead);
/* Piece i: its offset; its length in *len. */
static inline size_t blx_cut_piece(const blx_cut *c, int i, size_t *len)
{
    size_t off = i == 0 ? 0 : (size_t)i * c->s - c->lead;
    size_t end = i == c->k - 1 ? c->n : (size_t)(i + 1) * c->s - c->lead;
    *len = end - off;
    return off;
}

static inline int blx_ep_rank(const blx_ep *e, int member)
{
    return e->map != NULL ? e->map[member] : e->first + member * e->stride;
}
/* My position counted from member 'root' (0 for the root itself). */
static inline int blx_ep_rel(const blx_ep *e, int root) { return (e->me - root + e->np) % e->np; }
/* The member 'rel' places after 'root'. */
static inline int blx_ep_member(const blx_ep *e, int root, int rel) { return (rel + root) % e->np; }

/* Blocking, any size (in pieces of BLX_MAX_MSG beyond it).  sendrecv posts
 * its receive first, so the two sides of an exchange never wait for each
 * other; a negative member skips a side. */
BLX_INTERNAL void blx_send(const blx_ep *e, const void *buf, size_t bytes, int to);
/* As blx_send, but returns only once the receiver has the data (MPI
 * synchronous mode), where MPI may buffer a short message and return at
 * once: sends made one after the other then never share the link. */
BLX_INTERNAL void blx_ssend(const blx_ep *e, const void *buf, size_t bytes, int to);
BLX_INTERNAL void blx_recv(const blx_ep *e, void *buf, size_t bytes, int from);
BLX_INTERNAL void blx_sendrecv(const blx_ep *e, const void *out, size_t outbytes, int to, void *in,
                               size_t inbytes, int from);

/* Non-blocking, at most BLX_MAX_MSG bytes each (callers cut longer data
 * into segments).  A request is complete after blx_wait, blx_waitall or
 * being returned by blx_waitany; receives are checked there. */
typedef struct blx_req {
    MPI_Request mpi;
    int peer; /* member; -1: none (MPI_REQUEST_NULL) */
    int recv; /* a receive of 'bytes' bytes */
    size_t bytes;
    size_t whole; /* receives: the bytes of the whole message (for reports) */
} blx_req;

BLX_INTERNAL void blx_isend(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r);
/* A send that completes only once the receiver has the message (MPI
 * synchronous mode): waiting for it bounds what is in flight on a link,
 * which a buffered send cannot. */
BLX_INTERNAL void blx_issend(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r);
BLX_INTERNAL void blx_irecv(const blx_ep *e, void *buf, size_t bytes, int from, blx_req *r);
/* The receive of piece i of a cut message, into buf (where that piece goes). */
BLX_INTERNAL void blx_irecv_piece(const blx_ep *e, void *buf, const blx_cut *c, int i, int from, blx_req *r);
BLX_INTERNAL void blx_wait(const blx_ep *e, blx_req *r);
BLX_INTERNAL void blx_waitall(const blx_ep *e, int n, blx_req *r);
/* Waits for one of r[0..n) that is still active; returns its index. */
BLX_INTERNAL int blx_waitany(const blx_ep *e, int n, blx_req *r);
/* Whether r has finished (then checked and complete, as after blx_wait). */
BLX_INTERNAL int blx_test(const blx_ep *e, blx_req *r);
/* Withdraws a receive that no message may match any more; a receive that
 * was matched after all is an internal error. */
BLX_INTERNAL void blx_cancel_recv(const blx_ep *e, blx_req *r);
/* Waits for any MPI request (a non-blocking collective, say) as the others
 * (polling at debug level 2 and above); a failure is a clear error. */
BLX_INTERNAL void blx_wait_mpi(const blx_ep *e, MPI_Request *r, const char *call);
/* How the waits above wait (set once, before the first message; off at
 * first): MPI's blocking waits, or (yes) loops of MPI_Test that yield the
 * processor between tests.  A node running more processes than it has
 * processors needs the second: MPICH's blocking waits spin without giving
 * way, so a waiting process keeps the one it waits for from running
 * (blacs/state.c, BLACS_WAIT). */
BLX_INTERNAL void blx_waits_yield(int yes);

/* MPI's own collectives over the scope's communicator e->own (which must
 * not be MPI_COMM_NULL), any size (several calls beyond BLX_MAX_MSG), with
 * MPI's failures clear errors.  MPI makes it erroneous for members to pass
 * different counts, and checks nothing of it: callers that may meet such
 * input check it first (blacs/agree.c at BLACS_DEBUG=3).  A broadcast of
 * 'bytes' bytes from member 'root'; a reduction of 'bytes' bytes of
 * elements of t by op, from 'in' into 'out' (never the same memory) on
 * member 'root' (-1: on every member; 'out' is not used on the others).
 * Never MPI_IN_PLACE: MPICH 4.0.2 (Debian 12's) crashes in MPI_Reduce in
 * place at a root other than 0 (pmodels/mpich issue 6540, fixed in 4.1.2),
 * and in-place reductions have had bugs in Open MPI's components too. */
BLX_INTERNAL void blx_mpi_bcast(const blx_ep *e, void *buf, size_t bytes, int root);
BLX_INTERNAL void blx_mpi_reduce(const blx_ep *e, const void *in, void *out, size_t bytes, MPI_Datatype t,
                                 MPI_Op op, int root);

/* Waits until, from some member k with tags[k] >= 0, a message with tag
 * tags[k] has arrived (without receiving it), and returns that k.  Members
 * with tags[k] < 0 are not candidates.  A message with another tag, or from
 * a member that is not a candidate, is left alone however long it waits:
 * the caller then receives from k by name.  Polls (MPI_Iprobe) and yields
 * the processor in between; the report hook hears how long it has waited. */
BLX_INTERNAL int blx_probe_first(const blx_ep *e, const int *tags);
/* Whether a message with this tag from member k has arrived (not received:
 * MPI_Iprobe). */
BLX_INTERNAL int blx_arrived(const blx_ep *e, int k, int tag);

/* A locally-blocking send, piece by piece: each piece of b (at most
 * BLX_MAX_MSG bytes at offset off) goes to member 'to' as soon as it is
 * there; then blx_buf_activate(b) puts the buffer on the active queue
 * (queue.h), which reclaims it once MPI is done with it. */
BLX_INTERNAL void blx_send_piece_buffered(const blx_ep *e, blx_buf *b, size_t off, size_t len, int to);

#endif
