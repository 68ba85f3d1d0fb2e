/*
 * buffers/queue.h - locally-blocking sends: one ready buffer and a queue of
 * active buffers (LAWN 73 section 6.2.2).
 *
 * A send packs (or copies) the user's matrix into the ready buffer, starts
 * non-blocking MPI sends from it, moves it to the active queue and returns:
 * the user may reuse A at once, and any number of sends may be outstanding
 * before their receives are posted.  Every BLACS call polls the queue; a
 * buffer whose sends have completed becomes the ready buffer if it is larger
 * than the current one and is freed otherwise, so at most one idle buffer is
 * ever kept.  When memory runs out (malloc fails, or the optional
 * BLACS_BUFFER_LIMIT in bytes of send buffers would be exceeded) the
 * allocator waits, polling, for up to BLACS_BUFFER_WAIT seconds (default 120,
 * as the reference) for active buffers to drain, then stops with a clear
 * error.
 */
#ifndef BLX_QUEUE_H
#define BLX_QUEUE_H

#include <mpi.h>
#include <stddef.h>

#include "../base/visibility.h"

typedef struct blx_buf {
    struct blx_buf *next; /* active queue link */
    char *data;
    size_t cap;       /* bytes usable at data */
    size_t len;       /* bytes asked for by the send that took it */
    int nreq, capreq; /* requests in flight from this buffer */
    MPI_Request *req;
} blx_buf;

typedef struct blx_bufstats {
    int active;         /* buffers with sends in flight */
    int ready;          /* 0 or 1 */
    size_t bytes;       /* bytes held by all buffers */
    size_t ready_bytes; /* capacity of the ready buffer */
    size_t inflight;    /* bytes the active buffers' sends asked for */
} blx_bufstats;

/* Takes the ready buffer, grown to at least 'bytes' (allocating or waiting
 * as described above), to send from.  The caller posts sends from it and
 * hands it to blx_buf_activate. */
BLX_INTERNAL blx_buf *blx_buf_take(size_t bytes, int ctxt, const char *routine);

/* Room for one more request on b; returns its slot. */
BLX_INTERNAL MPI_Request *blx_buf_request(blx_buf *b, int ctxt, const char *routine);

/* b's sends are posted: queue it (or make it ready again if none are left). */
BLX_INTERNAL void blx_buf_activate(blx_buf *b);

/* Tests every active buffer and reclaims the finished ones. */
BLX_INTERNAL void blx_buf_poll(void);

/* Waits for every active buffer (blacs_freebuff with WAIT != 0, blacs_exit).
 * A receiver may legitimately be late, so it waits as long as it takes; after
 * BLACS_BUFFER_WAIT seconds it warns once, naming the routine, so that sends
 * that are never received do not hang silently. */
BLX_INTERNAL void blx_buf_wait_all(const char *routine);

/* Frees the ready buffer (blacs_freebuff, blacs_exit). */
BLX_INTERNAL void blx_buf_free_ready(void);

BLX_INTERNAL blx_bufstats blx_buf_stats(void);

/* Scratch space for what is not a send: a packed matrix being received or
 * broadcast or combined (BLX_SCRATCH_DATA), and the receive temporaries of a
 * topology (BLX_SCRATCH_TMP).  Kept between calls and grown as needed, so
 * repeated operations allocate nothing; valid until the next call for the
 * same slot; released by blacs_freebuff and blacs_exit.  Not counted against
 * BLACS_BUFFER_LIMIT and never waited for: running out of memory here is a
 * clear error at once (waiting could not free anything). */
enum { BLX_SCRATCH_DATA = 0, BLX_SCRATCH_TMP = 1, BLX_NSCRATCH = 2 };
BLX_INTERNAL void *blx_scratch(int slot, size_t bytes, int ctxt, const char *routine);
BLX_INTERNAL void blx_scratch_free(void);

#endif
