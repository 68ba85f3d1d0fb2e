/*
 * blacs/agree.c - debug level 3: processes check that they agree.
 *
 * Broadcasts and combines: before the operation, the members of the scope
 * compare what they were given (operation, type, the element count, the
 * trapezoid, TOP and the BLACS_SET values it reads, the source or the
 * destination, leave-on-one or on all, locations) with two non-blocking
 * reductions (minimum and maximum) over the scope's agree communicator.
 * Where they differ, the values are gathered and the first disagreement is
 * reported, naming two processes and their values.  The waits poll (level
 * 2): a member that never comes is a hang report, not a hang.
 *
 * Point-to-point: every message is preceded, on the grid's check
 * communicator and with the same message ID, by a small one describing it;
 * the receiver compares it with what it expects before receiving the data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agree.h"

enum {
    V_OP,
    V_TYPE,
    V_COUNT,
    V_UPLO,
    V_DIAG,
    V_M,
    V_N,
    V_TOP,
    V_ALL,
    V_ROOT,
    V_LOCATED,
    V_RINGS,
    V_BRANCHES,
    V_REPEAT,
    NV
};
static const char *const what[NV] = {
    "the operation (1 broadcast, 2 sum, 3 absolute max, 4 absolute min, 5 user-defined)",
    "the type (0 i, 1 s, 2 d, 3 c, 4 z)",
    "the number of elements",
    "UPLO",
    "DIAG",
    "M of the trapezoid",
    "N of the trapezoid",
    "TOP",
    "leaving the result on all (1) or on one (0)",
    "the source or destination",
    "locations (LDIA != -1)",
    "the rings of TOP 'M' (BLACS_SET 11 or 13)",
    "the branches of TOP 'T' (BLACS_SET 12 or 14)",
    "repeatability (BLACS_SET 15)"};

/* Scope member k's grid coordinates. */
static void coords(const blx_ctx *c, const blx_scope *s, int k, int *row, int *col)
{
    int g = s->first + k * s->stride;
    *row = g / c->npcol;
    *col = g % c->npcol;
}

static void report(const blx_call *k, const long long *all)
{
    const blx_ctx *c = k->c;
    const blx_scope *s = k->s;
    for (int i = 0; i < NV; i++)
        for (int m = 1; m < s->np; m++) {
            long long a = all[i], b = all[m * NV + i];
            if (a == b)
                continue;
            int r0, c0, rk, ck;
            coords(c, s, 0, &r0, &c0);
            coords(c, s, m, &rk, &ck);
            char va[24], vb[24];
            if (i == V_TOP || i == V_UPLO || i == V_DIAG) {
                snprintf(va, sizeof va, "'%c'", (int)a);
                snprintf(vb, sizeof vb, "'%c'", (int)b);
            } else if (i == V_ROOT) { /* members as coordinates */
                int ra, ca, rb, cb;
                coords(c, s, (int)a, &ra, &ca);
                coords(c, s, (int)b, &rb, &cb);
                snprintf(va, sizeof va, a < 0 ? "everyone" : "{%d,%d}", ra, ca);
                snprintf(vb, sizeof vb, b < 0 ? "everyone" : "{%d,%d}", rb, cb);
            } else {
                snprintf(va, sizeof va, "%lld", a);
                snprintf(vb, sizeof vb, "%lld", b);
            }
            blx_fatal_once(s->me == 0, c->handle, k->name,
                           "the processes of scope '%c' disagree on %s: {%d,%d} passes %s, {%d,%d} passes %s "
                           "(found at BLACS_DEBUG=3)",
                           "RCA"[s->id], what[i], r0, c0, va, rk, ck, vb);
        }
}

/* What the members must agree on, as the record says (values that do not
 * apply are 0). */
static void values(const blx_call *k, long long v[NV])
{
    const blx_ctx *c = k->c;
    const blx_shape *t = &k->shape;
    int bcast = k->kind != BLX_COMBINE, tr = t->uplo != 'G';
    int located = !bcast && k->op != BLX_OP_SUM && k->op != BLX_OP_USER && k->ldia != -1;
    long long all[NV] = {bcast ? 1 : 2 + (int)k->op,
                         (int)k->type,
                         (long long)blx_shape_count(t),
                         t->uplo,
                         tr ? (t->unit ? 'U' : 'N') : 0,
                         tr ? t->m : 0,
                         tr ? t->n : 0,
                         k->letter,
                         !bcast && k->peer < 0,
                         k->peer,
                         located,
                         k->letter == 'M' ? (bcast ? c->nr_bs : c->nr_co) : 0,
                         k->letter == 'T' ? (bcast ? c->nb_bs : c->nb_co) : 0,
                         !bcast && c->topsrepeat != 0};
    memcpy(v, all, sizeof all);
}

void blx_agree_collective(const blx_call *k)
{
    const blx_ctx *c = k->c;
    const blx_scope *s = k->s;
    long long v[NV];
    values(k, v);
    long long lo[NV], hi[NV];
    MPI_Comm comm = c->agree[s->id];
    blx_ep e = blx_scope_ep(c, s, 0, k->name);
    MPI_Request r[2];
    blx_check_mpi(c->handle, k->name, MPI_Iallreduce(v, lo, NV, MPI_LONG_LONG, MPI_MIN, comm, &r[0]),
                  "MPI_Iallreduce");
    blx_check_mpi(c->handle, k->name, MPI_Iallreduce(v, hi, NV, MPI_LONG_LONG, MPI_MAX, comm, &r[1]),
                  "MPI_Iallreduce");
    blx_wait_mpi(&e, &r[0], "MPI_Iallreduce");
    blx_wait_mpi(&e, &r[1], "MPI_Iallreduce");
    if (memcmp(lo, hi, sizeof lo) == 0)
        return;
    long long *all = malloc((size_t)s->np * NV * sizeof *all);
    if (all == NULL)
        blx_fatal(c->handle, k->name,
                  "the processes disagree (found at BLACS_DEBUG=3); out of memory to say how");
    MPI_Request g;
    blx_check_mpi(c->handle, k->name, MPI_Iallgather(v, NV, MPI_LONG_LONG, all, NV, MPI_LONG_LONG, comm, &g),
                  "MPI_Iallgather");
    blx_wait_mpi(&e, &g, "MPI_Iallgather");
    report(k, all); /* every member reports the same; the first to abort ends the job */
    free(all);
}

/* FNV-1a over the bytes, 64 bits: a difference anywhere changes it. */
static unsigned long long digest(const unsigned char *b, size_t n)
{
    unsigned long long h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

void blx_agree_result(const blx_call *k, const void *buf, size_t bytes, const char *alg)
{
    const blx_ctx *c = k->c;
    const blx_scope *s = k->s;
    unsigned long long h = digest(buf, bytes), lo, hi;
    blx_ep e = blx_scope_ep(c, s, 0, k->name);
    MPI_Request r[2];
    MPI_Comm comm = c->agree[s->id];
    blx_check_mpi(c->handle, k->name,
                  MPI_Iallreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm, &r[0]), "MPI_Iallreduce");
    blx_check_mpi(c->handle, k->name,
                  MPI_Iallreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm, &r[1]), "MPI_Iallreduce");
    blx_wait_mpi(&e, &r[0], "MPI_Iallreduce");
    blx_wait_mpi(&e, &r[1], "MPI_Iallreduce");
    if (lo != hi)
        blx_fatal(
            c->handle, k->name,
            "process {%d,%d}: the result of this combine to all (%zu bytes, along %s) differs between "
            "the members of the %s scope (found at BLACS_DEBUG=3): it should be the same bits everywhere",
            c->myrow, c->mycol, bytes, alg,
            s->id == BLX_SCOPE_ROW   ? "row"
            : s->id == BLX_SCOPE_COL ? "column"
                                     : "all");
}

/* The description of a point-to-point message. */
typedef struct p2p_header {
    long long bytes, m, n;
    int type;
    char uplo, diag;
} p2p_header;

static const char *type_name(int t)
{
    static const char *const names[BLX_NTYPES] = {"integer", "real", "double", "complex", "double complex"};
    return t >= 0 && t < BLX_NTYPES ? names[t] : "?";
}

static void describe(const p2p_header *h, char *buf, size_t len)
{
    if (h->uplo == 'G')
        snprintf(buf, len, "a %lld x %lld %s matrix (%lld bytes)", h->m, h->n, type_name(h->type), h->bytes);
    else
        snprintf(buf, len, "a %lld x %lld %s trapezoid UPLO '%c' DIAG '%c' (%lld bytes)", h->m, h->n,
                 type_name(h->type), h->uplo, h->diag, h->bytes);
}

static p2p_header header_of(const blx_call *k)
{
    const blx_shape *s = &k->shape;
    p2p_header h = {(long long)blx_shape_bytes(s),
                    s->m,
                    s->n,
                    (int)k->type,
                    s->uplo,
                    s->uplo == 'G' ? 'N' : (s->unit ? 'U' : 'N')};
    return h;
}

size_t blx_agree_header_bytes(void) { return sizeof(p2p_header); }

void blx_agree_send(const blx_call *k, blx_buf *b, size_t at)
{
    p2p_header h = header_of(k);
    memcpy(b->data + at, &h, sizeof h);
    blx_ep e = blx_grid_ep(k->c, k->tag, k->name);
    e.comm = k->c->check;
    blx_send_piece_buffered(&e, b, at, sizeof h, k->peer);
}

void blx_agree_recv(const blx_call *k)
{
    const blx_ctx *c = k->c;
    p2p_header got, want = header_of(k);
    blx_ep e = blx_grid_ep(c, k->tag, k->name);
    e.comm = c->check;
    blx_recv(&e, &got, sizeof got, k->peer);
    /* a general matrix may be received with another M x N of the same size */
    int same = got.bytes == want.bytes && got.type == want.type && got.uplo == want.uplo &&
               (want.uplo == 'G' || (got.m == want.m && got.n == want.n && got.diag == want.diag));
    if (same)
        return;
    char gs[128], ws[128];
    describe(&got, gs, sizeof gs);
    describe(&want, ws, sizeof ws);
    blx_fatal(c->handle, k->name, "process {%d,%d} sends %s, this call receives %s (found at BLACS_DEBUG=3)",
              k->peer / c->npcol, k->peer % c->npcol, gs, ws);
}
