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
    int first, stride;   /* rank in comm of member k: first + k * stride */
    int tag;             /* message ID of the operation */
    int ctxt;            /* for reports only */
    const char *routine; /* for reports only */
} blx_ep;

/* The largest single MPI message: longer data travel as several. */
#define BLX_MAX_MSG ((size_t)1 << 30)

static inline int blx_ep_rank(const blx_ep *e, int member) { return e->first + member * e->stride; }
/* My position counted from member 'root' (0 for the root itself). */
static inline int blx_ep_rel(const blx_ep *e, int root) { return (e->me - root + e->np) % e->np; }
/* The member 'rel' places after 'root'. */
static inline int blx_ep_member(const blx_ep *e, int root, int rel) { return (rel + root) % e->np; }

/* Blocking, any size.  sendrecv posts its receive first, so the two sides
 * of an exchange never wait for each other; a negative member skips a side. */
BLX_INTERNAL void blx_send(const blx_ep *e, const void *buf, size_t bytes, int to);
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
} blx_req;

BLX_INTERNAL void blx_isend(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r);
BLX_INTERNAL void blx_irecv(const blx_ep *e, void *buf, size_t bytes, int from, blx_req *r);
BLX_INTERNAL void blx_wait(const blx_ep *e, blx_req *r);
BLX_INTERNAL void blx_waitall(const blx_ep *e, int n, blx_req *r);
/* Waits for one of r[0..n) that is still active; returns its index. */
BLX_INTERNAL int blx_waitany(const blx_ep *e, int n, blx_req *r);

/* A locally-blocking send: b's 'bytes' bytes go to member 'to' from the
 * buffer itself, which then joins the active queue (queue.h) and is
 * reclaimed once MPI is done with it.  Returns at once. */
BLX_INTERNAL void blx_send_buffered(const blx_ep *e, blx_buf *b, size_t bytes, int to);

#endif
