/*
 * buffers/bytes.c - the byte layer; see bytes.h.
 */
#include "bytes.h"

#include <sched.h>
#include <stdlib.h>

#include "../base/debug.h"
#include "../base/perturb.h"
#include "../base/report.h"

blx_cut blx_cut_make(size_t n, size_t want, size_t unit, size_t lead)
{
    unit = unit ? unit : 1;
    size_t most = BLX_MAX_MSG / unit * unit;
    /* rounded up, so that a wanted size above n (whole) stays above it */
    size_t s = want <= unit ? unit : (want >= most ? most : (want + unit - 1) / unit * unit);
    if (s > n)
        return (blx_cut){n, n + 1, 1, 0}; /* whole */
    lead = lead / unit * unit;
    lead = lead < s ? lead : 0;
    return (blx_cut){n, s, (int)((n + lead) / s) + 1, lead};
}

static void check(const blx_ep *e, int rc, const char *call) { blx_check_mpi(e->ctxt, e->routine, rc, call); }

/* A finished receive of 'expected' bytes (of a message of 'whole' bytes)
 * from member 'from': a clear error for a failed MPI call or a message of
 * another size.  A piece longer than expected means a longer message, a
 * shorter one a shorter message (blx_cut_make). */
static void recv_check(const blx_ep *e, int rc, const MPI_Status *st, size_t expected, size_t whole, int from)
{
    int got = -1;
    if (rc == MPI_SUCCESS)
        MPI_Get_count(st, MPI_BYTE, &got);
    if (rc == MPI_SUCCESS && (size_t)got == expected)
        return;
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (rc != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE)
        blx_fatal_mpi(e->ctxt, e->routine, rc, "MPI_Recv");
    int row, col;
    blx_report_peer(e->ctxt, blx_ep_rank(e, from), &row, &col);
    blx_fatal(e->ctxt, e->routine,
              "the message from process {%d,%d} is %s than the %zu bytes this call expects: "
              "sender and receiver must describe the same number of elements and type",
              row, col, got < 0 ? "longer" : "shorter", e->whole ? e->whole : whole);
}

static void post_send(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r, int sync)
{
    if (bytes > BLX_MAX_MSG)
        blx_fatal(e->ctxt, e->routine, "internal error: a single message of %zu bytes", bytes);
    r->peer = to;
    r->recv = 0;
    r->bytes = bytes;
    int rank = blx_ep_rank(e, to);
    blx_perturb();
    if (sync)
        check(e, MPI_Issend(buf, (int)bytes, MPI_BYTE, rank, e->tag, e->comm, &r->mpi), "MPI_Issend");
    else
        check(e, MPI_Isend(buf, (int)bytes, MPI_BYTE, rank, e->tag, e->comm, &r->mpi), "MPI_Isend");
    blx_perturb();
}

void blx_isend(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r)
{
    post_send(e, buf, bytes, to, r, 0);
}

void blx_issend(const blx_ep *e, const void *buf, size_t bytes, int to, blx_req *r)
{
    post_send(e, buf, bytes, to, r, 1);
}

void blx_irecv(const blx_ep *e, void *buf, size_t bytes, int from, blx_req *r)
{
    if (bytes > BLX_MAX_MSG)
        blx_fatal(e->ctxt, e->routine, "internal error: a single message of %zu bytes", bytes);
    r->peer = from;
    r->recv = 1;
    r->bytes = r->whole = bytes;
    blx_perturb();
    check(e, MPI_Irecv(buf, (int)bytes, MPI_BYTE, blx_ep_rank(e, from), e->tag, e->comm, &r->mpi),
          "MPI_Irecv");
    blx_perturb();
}

void blx_irecv_piece(const blx_ep *e, void *buf, const blx_cut *c, int i, int from, blx_req *r)
{
    size_t len;
    blx_cut_piece(c, i, &len);
    blx_irecv(e, buf, len, from, r);
    r->whole = c->n;
}

/* MPICH 4.0 raises the errors of MPI_Wait and MPI_Waitany (a truncated
 * receive among them) on MPI_COMM_WORLD's error handler, not on the
 * request's communicator, which returns errors to us: so while we wait,
 * MPI_COMM_WORLD returns them too, and the user's handler is put back
 * after.  Open MPI raises them on the request's communicator. */
#if defined(MPICH_VERSION)
typedef MPI_Errhandler world_handler;
static world_handler world_returns(void)
{
    MPI_Errhandler h;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return h;
}
static void world_restore(world_handler h)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, h);
    MPI_Errhandler_free(&h);
}
#else
typedef int world_handler;
static world_handler world_returns(void) { return 0; }
static void world_restore(world_handler h) { (void)h; }
#endif

/* How a finished request ended (rc and st as MPI_Wait gave them). */
static void finish(const blx_ep *e, blx_req *r, int rc, const MPI_Status *st)
{
    if (r->recv)
        recv_check(e, rc, st, r->bytes, r->whole, r->peer);
    else
        check(e, rc, "MPI_Isend");
    r->peer = -1;
}

/* One look at n requests: MPI_Test of each active one in turn (what
 * MPI_Testany does, but SMPI's 3.32 answered "done, none" there); *k the
 * one finished, MPI_UNDEFINED (and done) when none is active. */
static int test_any(int n, MPI_Request *h, int *k, int *done, MPI_Status *st)
{
    *k = MPI_UNDEFINED;
    *done = 1;
    for (int i = 0; i < n; i++) {
        if (h[i] == MPI_REQUEST_NULL)
            continue;
        int rc = MPI_Test(&h[i], done, st);
        if (rc != MPI_SUCCESS || *done) {
            *k = i;
            return rc;
        }
    }
    return MPI_SUCCESS;
}

static int yields; /* waits are loops of tests that yield (blx_waits_yield) */

void blx_waits_yield(int yes) { yields = yes; }

/* A wait that tests, yielding the processor between tests (where waits
 * yield, or poll); where it reports (debug level 2 and above, waits poll),
 * telling the report hook how long it has waited (every 0.1 s; a hang
 * report after BLACS_HANG_TIMEOUT). */
static int poll_any(const blx_ep *e, int n, MPI_Request *h, int *k, MPI_Status *st, int reports)
{
    double t0 = reports ? MPI_Wtime() : 0, next = t0 + 0.1;
    for (;;) {
        int done = 0, rc = test_any(n, h, k, &done, st);
        if (rc != MPI_SUCCESS || done)
            return rc;
        double now = reports ? MPI_Wtime() : 0;
        if (reports && now >= next) {
            blx_report_waiting(e->ctxt, now - t0);
            next = now + 0.1;
        }
        sched_yield(); /* busy, but let the others of an oversubscribed node run */
    }
}

/* MPI_Wait or MPI_Waitany (all: MPI_Waitall, st then one status a
 * request), marked for level 1's watchdog; or, where waits poll (level 2
 * and above) or yield, a loop of tests (never with all: such waits go one
 * at a time).  With statistics on, the time spent is counted as waiting. */
static int wait_any(const blx_ep *e, int n, MPI_Request *h, int *k, MPI_Status *st, int all)
{
    const blx_debug *d = blx_debug_get();
    blx_stack_note();
    blx_perturb();
    double t0 = d->stats ? MPI_Wtime() : 0;
    world_handler w = world_returns();
    int rc;
    if (d->watchdog)
        blx_wait_mark();
    if (d->polls || yields) {
        rc = poll_any(e, n, h, k, st, d->polls);
    } else if (all) {
        rc = MPI_Waitall(n, h, st);
    } else if (n == 1) { /* Waitany of one costs more than Wait in a loop of short messages */
        *k = *h == MPI_REQUEST_NULL ? MPI_UNDEFINED : 0;
        rc = MPI_Wait(h, st);
    } else {
        rc = MPI_Waitany(n, h, k, st);
    }
    if (d->watchdog)
        blx_wait_unmark();
    world_restore(w);
    if (d->stats)
        blx_debug_add_waited(MPI_Wtime() - t0);
    blx_perturb();
    return rc;
}

void blx_wait(const blx_ep *e, blx_req *r)
{
    MPI_Status st;
    int k;
    int rc = wait_any(e, 1, &r->mpi, &k, &st, 0);
    finish(e, r, rc, &st);
}

int blx_test(const blx_ep *e, blx_req *r)
{
    MPI_Status st;
    int done = 0;
    blx_stack_note();
    blx_perturb();
    world_handler w = world_returns();
    int rc = MPI_Test(&r->mpi, &done, &st);
    world_restore(w);
    blx_perturb();
    if (rc != MPI_SUCCESS || done)
        finish(e, r, rc, &st);
    return rc != MPI_SUCCESS || done;
}

void blx_cancel_recv(const blx_ep *e, blx_req *r)
{
    MPI_Status st;
    int cancelled = 0;
    check(e, MPI_Cancel(&r->mpi), "MPI_Cancel");
    check(e, MPI_Wait(&r->mpi, &st), "MPI_Wait");
    check(e, MPI_Test_cancelled(&st, &cancelled), "MPI_Test_cancelled");
    if (!cancelled)
        blx_fatal(e->ctxt, e->routine, "internal error: a receive to withdraw was matched");
    r->peer = -1;
}

void blx_wait_mpi(const blx_ep *e, MPI_Request *r, const char *call)
{
    MPI_Status st;
    int k;
    check(e, wait_any(e, 1, r, &k, &st, 0), call);
}

int blx_arrived(const blx_ep *e, int k, int tag)
{
    int flag = 0;
    check(e, MPI_Iprobe(blx_ep_rank(e, k), tag, e->comm, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
    return flag;
}

/* One look: first at whatever message MPI offers from any source (the
 * common case: it is a candidate's), else at each candidate in turn,
 * starting after this member, so that a message of another kind waiting
 * ahead of them (a broadcast not received yet) hides none of them. */
static int probe_once(const blx_ep *e, const int *tags)
{
    int flag = 0;
    MPI_Status st;
    blx_perturb();
    check(e, MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, e->comm, &flag, &st), "MPI_Iprobe");
    if (!flag)
        return -1;
    int off = st.MPI_SOURCE - e->first;
    if (e->map == NULL && off >= 0 && (e->stride == 0 ? off == 0 : off % e->stride == 0)) {
        int k = e->stride == 0 ? 0 : off / e->stride;
        if (k < e->np && tags[k] >= 0 && tags[k] == st.MPI_TAG)
            return k;
    }
    for (int i = 1; i <= e->np; i++) {
        int k = (e->me + i) % e->np;
        if (tags[k] >= 0 && blx_arrived(e, k, tags[k]))
            return k;
    }
    return -1;
}

int blx_probe_first(const blx_ep *e, const int *tags)
{
    const blx_debug *d = blx_debug_get();
    double t0 = MPI_Wtime(), next = t0 + 0.1;
    int k;
    if (d->watchdog)
        blx_wait_mark();
    while ((k = probe_once(e, tags)) < 0) {
        double now = MPI_Wtime();
        if (d->polls && now >= next) {
            blx_report_waiting(e->ctxt, now - t0);
            next = now + 0.1;
        }
        sched_yield();
    }
    if (d->watchdog)
        blx_wait_unmark();
    if (d->stats)
        blx_debug_add_waited(MPI_Wtime() - t0);
    return k;
}

/* Several requests in one MPI_Waitall, not a wait each (a tree's sends to
 * its children); where waits poll or yield, one at a time. */
void blx_waitall(const blx_ep *e, int n, blx_req *r)
{
    MPI_Request h[16];
    MPI_Status st[16];
    int at[16], m = 0, k;
    for (int i = 0; i < n; i++)
        if (r[i].peer >= 0 && (m == 16 || yields || blx_debug_get()->polls))
            blx_wait(e, &r[i]);
        else if (r[i].peer >= 0)
            at[m] = i, h[m++] = r[i].mpi;
    int rc = m > 0 ? wait_any(e, m, h, &k, st, 1) : MPI_SUCCESS;
    for (int j = 0; j < m; j++) {
        r[at[j]].mpi = h[j];
        if (rc != MPI_ERR_IN_STATUS || st[j].MPI_ERROR != MPI_ERR_PENDING)
            finish(e, &r[at[j]], rc == MPI_ERR_IN_STATUS ? st[j].MPI_ERROR : rc, &st[j]);
    }
    if (rc == MPI_ERR_IN_STATUS) /* failures (a short receive) first, then what MPI left pending */
        blx_waitall(e, n, r);
    blx_mpi_calls -= m > 1 ? (unsigned long)m - 1 : 0; /* each finish counted one: one call */
}

int blx_waitany(const blx_ep *e, int n, blx_req *r)
{
    /* MPI_Waitany needs the handles side by side; copies of a handle name
     * the same request, and the finished one is written back. */
    MPI_Request stack[64], *h = stack;
    if (n > 64 && (h = malloc((size_t)n * sizeof *h)) == NULL)
        blx_fatal(e->ctxt, e->routine, "out of memory for %d MPI requests", n);
    for (int i = 0; i < n; i++)
        h[i] = r[i].peer >= 0 ? r[i].mpi : MPI_REQUEST_NULL;
    int k = MPI_UNDEFINED;
    MPI_Status st;
    int rc = wait_any(e, n, h, &k, &st, 0);
    free(h != stack ? h : NULL);
    if (k == MPI_UNDEFINED) {
        check(e, rc, "MPI_Waitany");
        blx_fatal(e->ctxt, e->routine, "internal error: no message to wait for");
    }
    r[k].mpi = MPI_REQUEST_NULL;
    finish(e, &r[k], rc, &st);
    return k;
}

void blx_sendrecv(const blx_ep *e, const void *out, size_t outbytes, int to, void *in, size_t inbytes,
                  int from)
{
    blx_cut cs = blx_cut_make(outbytes, BLX_MAX_MSG, 1, 0), cr = blx_cut_make(inbytes, BLX_MAX_MSG, 1, 0);
    int ns = to < 0 ? 0 : cs.k, nr = from < 0 ? 0 : cr.k;
    for (int i = 0; i < ns || i < nr; i++) {
        blx_req r[2] = {{.peer = -1}, {.peer = -1}};
        size_t len;
        if (i < nr) /* the receive is posted first, so the incoming data need not wait */
            blx_irecv_piece(e, (char *)in + blx_cut_piece(&cr, i, &len), &cr, i, from, &r[0]);
        if (i < ns) {
            size_t off = blx_cut_piece(&cs, i, &len);
            blx_isend(e, (const char *)out + off, len, to, &r[1]);
        }
        blx_waitall(e, 2, r);
    }
}

void blx_send(const blx_ep *e, const void *buf, size_t bytes, int to)
{
    blx_sendrecv(e, buf, bytes, to, NULL, 0, -1);
}

void blx_ssend(const blx_ep *e, const void *buf, size_t bytes, int to)
{
    blx_cut c = blx_cut_make(bytes, BLX_MAX_MSG, 1, 0);
    for (int i = 0; i < c.k; i++) {
        blx_req r = {.peer = -1};
        size_t len, off = blx_cut_piece(&c, i, &len);
        blx_issend(e, (const char *)buf + off, len, to, &r);
        blx_wait(e, &r);
    }
}

void blx_recv(const blx_ep *e, void *buf, size_t bytes, int from)
{
    blx_sendrecv(e, NULL, 0, -1, buf, bytes, from);
}

void blx_send_piece_buffered(const blx_ep *e, blx_buf *b, size_t off, size_t len, int to)
{
    if (len > BLX_MAX_MSG)
        blx_fatal(e->ctxt, e->routine, "internal error: a single message of %zu bytes", len);
    MPI_Request *slot = blx_buf_request(b, e->ctxt, e->routine);
    blx_perturb();
    check(e, MPI_Isend(b->data + off, (int)len, MPI_BYTE, blx_ep_rank(e, to), e->tag, e->comm, slot),
          "MPI_Isend");
    blx_perturb();
}
