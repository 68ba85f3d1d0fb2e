/*
 * buffers/queue.c - the ready buffer and the active queue; see queue.h.
 *
 * All state is per process (not per context): buffers outlive the grid whose
 * send filled them, exactly like the reference.  The BLACS are not thread
 * safe, so neither is this.
 */
#include "queue.h"

#include <stdlib.h>
#include <time.h>

#include "../base/env.h"
#include "../base/perturb.h"
#include "../base/report.h"

#define BUF_ALIGN 64
#define BUF_MIN 1024

static blx_buf *ready; /* at most one idle buffer */
static blx_buf *active_head, *active_tail;
static int nactive;
static size_t held; /* bytes held by every buffer we own */

/* Environment knobs, read once (0: no limit). */
static size_t limit_bytes(void)
{
    static int read;
    static size_t limit;
    if (!read) {
        limit = blx_env_bytes("BLACS_BUFFER_LIMIT", 0);
        read = 1;
    }
    return limit;
}

static double wait_seconds(void)
{
    static double wait = -1.0;
    if (wait < 0.0)
        wait = blx_env_seconds("BLACS_BUFFER_WAIT", 120.0);
    return wait;
}

static void buf_free(blx_buf *b)
{
    held -= b->cap;
    free(b->data);
    free(b->req);
    free(b);
}

static blx_buf *try_alloc(size_t cap)
{
    blx_buf *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    void *p = NULL;
    if (posix_memalign(&p, BUF_ALIGN, cap) != 0) {
        free(b);
        return NULL;
    }
    b->data = p;
    b->cap = cap;
    held += cap;
    return b;
}

/* A finished buffer: keep the larger of it and the ready one, free the other. */
static void reclaim(blx_buf *b)
{
    b->nreq = 0;
    if (ready == NULL) {
        ready = b;
    } else if (b->cap > ready->cap) {
        buf_free(ready);
        ready = b;
    } else {
        buf_free(b);
    }
}

/* Whether every send from b has completed (finished requests become
 * MPI_REQUEST_NULL, so each is tested until it is done). */
static int sends_done(blx_buf *b)
{
    int all = 1;
    for (int i = 0; i < b->nreq; i++) {
        int done = 0;
        MPI_Status st; /* not MPI_STATUS_IGNORE: gcc misreads MPICH's */
        blx_perturb();
        blx_check_mpi(-1, "BLACS buffer queue", MPI_Test(&b->req[i], &done, &st), "MPI_Test");
        all &= done;
    }
    return all;
}

void blx_buf_poll(void)
{
    blx_buf *prev = NULL, *b = active_head;
    while (b != NULL) {
        blx_buf *next = b->next;
        if (sends_done(b)) {
            if (prev == NULL)
                active_head = next;
            else
                prev->next = next;
            if (active_tail == b)
                active_tail = prev;
            nactive--;
            reclaim(b);
        } else {
            prev = b;
        }
        b = next;
    }
}

static void pause_briefly(void)
{
    struct timespec ts = {0, 200000}; /* 0.2 ms: lets the receivers run on a busy node */
    nanosleep(&ts, NULL);
}

/* Allocates a buffer of cap bytes, waiting for active buffers to drain when
 * memory (or the configured limit) is exhausted. */
static blx_buf *alloc_buf(size_t cap, int ctxt, const char *routine)
{
    size_t limit = limit_bytes();
    double t0 = -1.0;
    for (;;) {
        if (limit == 0 || held + cap <= limit) {
            blx_buf *b = try_alloc(cap);
            if (b != NULL)
                return b;
        }
        if (nactive == 0) {
            if (limit != 0 && cap > limit)
                blx_fatal(ctxt, routine, "a message of %zu bytes exceeds BLACS_BUFFER_LIMIT=%zu", cap, limit);
            blx_fatal(ctxt, routine, "cannot allocate a %zu-byte send buffer (out of memory)", cap);
        }
        if (t0 < 0.0) {
            t0 = MPI_Wtime();
        } else if (MPI_Wtime() - t0 > wait_seconds()) {
            blx_fatal(ctxt, routine,
                      "BLACS out of buffer space: %zu bytes needed, %d sends holding %zu bytes "
                      "still unreceived after %.0f s (are their receives ever posted?)",
                      cap, nactive, held, wait_seconds());
        }
        blx_buf_poll();
        if (ready != NULL) {
            buf_free(ready);
            ready = NULL;
        }
        pause_briefly();
    }
}

blx_buf *blx_buf_take(size_t bytes, int ctxt, const char *routine)
{
    if (ready != NULL && ready->cap >= bytes) {
        blx_buf *b = ready;
        ready = NULL;
        b->len = bytes;
        return b;
    }
    if (ready != NULL) { /* too small: LAWN 73 frees it and allocates the right size */
        buf_free(ready);
        ready = NULL;
    }
    size_t cap = bytes < BUF_MIN ? BUF_MIN : (bytes + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
    blx_buf *b = alloc_buf(cap, ctxt, routine);
    b->len = bytes;
    return b;
}

MPI_Request *blx_buf_request(blx_buf *b, int ctxt, const char *routine)
{
    if (b->nreq == b->capreq) {
        int cap = b->capreq ? 2 * b->capreq : 4;
        MPI_Request *r = realloc(b->req, (size_t)cap * sizeof *r);
        if (r == NULL)
            blx_fatal(ctxt, routine, "out of memory for MPI requests");
        b->req = r;
        b->capreq = cap;
    }
    return &b->req[b->nreq++];
}

void blx_buf_activate(blx_buf *b)
{
    if (b->nreq == 0) {
        reclaim(b);
        return;
    }
    b->next = NULL;
    if (active_tail != NULL)
        active_tail->next = b;
    else
        active_head = b;
    active_tail = b;
    nactive++;
    blx_buf_poll();
}

void blx_buf_wait_all(const char *routine)
{
    double t0 = MPI_Wtime();
    int warned = 0;
    blx_buf_poll();
    while (active_head != NULL) {
        if (!warned && MPI_Wtime() - t0 > wait_seconds()) {
            blx_warn(-1, routine,
                     "still waiting after %.0f s for %d buffered sends (%zu bytes) to be received: "
                     "every send needs a matching receive",
                     wait_seconds(), nactive, held);
            warned = 1;
        }
        pause_briefly();
        blx_buf_poll();
    }
}

void blx_buf_free_ready(void)
{
    if (ready != NULL) {
        buf_free(ready);
        ready = NULL;
    }
}

static void *scratch[BLX_NSCRATCH];
static size_t scratch_cap[BLX_NSCRATCH];

void *blx_scratch(int slot, size_t bytes, int ctxt, const char *routine)
{
    if (bytes > scratch_cap[slot]) {
        free(scratch[slot]);
        scratch[slot] = NULL;
        scratch_cap[slot] = 0;
        void *p = NULL;
        size_t cap = bytes < BUF_MIN ? BUF_MIN : (bytes + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
        if (posix_memalign(&p, BUF_ALIGN, cap) != 0)
            blx_fatal(ctxt, routine, "cannot allocate %zu bytes of work space (out of memory)", bytes);
        scratch[slot] = p;
        scratch_cap[slot] = cap;
    }
    return scratch[slot];
}

void blx_scratch_free(void)
{
    for (int s = 0; s < BLX_NSCRATCH; s++) {
        free(scratch[s]);
        scratch[s] = NULL;
        scratch_cap[s] = 0;
    }
}

blx_bufstats blx_buf_stats(void)
{
    blx_bufstats s = {nactive, ready != NULL, held, ready ? ready->cap : 0, 0};
    for (const blx_buf *b = active_head; b != NULL; b = b->next)
        s.inflight += b->len;
    return s;
}
