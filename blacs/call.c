/*
 * blacs/call.c - entering and leaving a communication call: the arguments
 * every kind shares, decoded and checked; see call.h.  Every check names
 * the routine and the argument; the report names the process.
 */
#include <limits.h>
#include <stdio.h>

#include "../base/debug.h"
#include "../topologies/topology.h"
#include "call.h"
#include "stats.h"
#include "threads.h"
#include "watch.h"

#ifdef BLACS_ILP64
int blx_int_arg(blacs_int v, const char *routine, const char *name)
{
    if (v < INT_MIN || v > INT_MAX)
        blx_fatal(-1, routine,
                  "%s = %lld does not fit in 32 bits: contexts, process coordinates and grid sizes are "
                  "MPI ranks (int) even in the ILP64 library (a program compiled with 32-bit INTEGER "
                  "must link the LP64 library, libblacs-<mpi>)",
                  name, (long long)v);
    return (int)v;
}
#endif

/* A character argument as it can be printed. */
static const char *show(const char *p, char out[8])
{
    unsigned char ch = p ? (unsigned char)*p : 0;
    if (ch >= 32 && ch < 127)
        snprintf(out, 8, "'%c'", ch);
    else
        snprintf(out, 8, "\\x%02x", ch);
    return out;
}

static blx_scope *scope_arg(const blx_call *k)
{
    int id = blx_scope_index(k->scope);
    if (id < 0) {
        char buf[8];
        blx_fatal(k->c->handle, k->name, "Unknown scope %s: SCOPE must be 'R', 'C' or 'A'",
                  show(k->scope, buf));
    }
    return &k->c->scope[id];
}

/* A general matrix (no UPLO; vTUOP2D: UPLO 'G') or a trapezoid. */
static blx_shape shape_arg(const blx_call *k)
{
    char buf[8], u = blx_upper(k->uplo), d = blx_upper(k->diag);
    if (k->m < 0)
        blx_fatal(k->c->handle, k->name, "M = %lld must not be negative", (long long)k->m);
    if (k->n < 0)
        blx_fatal(k->c->handle, k->name, "N = %lld must not be negative", (long long)k->n);
    size_t esz = blx_types[k->type].esz;
    if (k->uplo == NULL || (k->user != NULL && u == 'G'))
        return blx_shape_ge(k->m, k->n, k->lda, esz);
    if (u != 'U' && u != 'L')
        blx_fatal(k->c->handle, k->name,
                  k->user ? "UPLO = %s must be 'G', 'U' or 'L'" : "UPLO = %s must be 'U' or 'L'",
                  show(k->uplo, buf));
    if (d != 'U' && d != 'N')
        blx_fatal(k->c->handle, k->name, "DIAG = %s must be 'U' or 'N'", show(k->diag, buf));
    return blx_shape_tr(u, d == 'U', k->m, k->n, k->lda, esz);
}

/* The grid rank of process (row, col), checked. */
static int coord_arg(const blx_call *k, const char *rname, int row, const char *cname, int col)
{
    const blx_ctx *c = k->c;
    if (row < 0 || row >= c->nprow)
        blx_fatal(c->handle, k->name, "%s = %d is outside the %d x %d grid (rows 0..%d)", rname, row,
                  c->nprow, c->npcol, c->nprow - 1);
    if (col < 0 || col >= c->npcol)
        blx_fatal(c->handle, k->name, "%s = %d is outside the %d x %d grid (columns 0..%d)", cname, col,
                  c->nprow, c->npcol, c->npcol - 1);
    return row * c->npcol + col;
}

/* The other side: RDEST/CDEST (sends, combines) or RSRC/CSRC.  A row
 * scope reads only the column, a column scope only the row (spec 4.1,
 * 5.2); RDEST or CDEST = -1 leaves a combine's result everywhere. */
static int peer_arg(const blx_call *k)
{
    int to = k->kind == BLX_SEND || k->kind == BLX_COMBINE;
    const char *rname = to ? "RDEST" : "RSRC", *cname = to ? "CDEST" : "CSRC";
    int row = blx_int_arg(k->row, k->name, rname), col = blx_int_arg(k->col, k->name, cname);
    if (k->s == NULL)
        return coord_arg(k, rname, row, cname, col);
    if (k->kind == BLX_COMBINE && (row == -1 || col == -1))
        return -1;
    if (k->s->id == BLX_SCOPE_ROW)
        row = k->c->myrow;
    if (k->s->id == BLX_SCOPE_COL)
        col = k->c->mycol;
    int vpid = coord_arg(k, rname, row, cname, col);
    return k->s->id == BLX_SCOPE_ROW ? col : (k->s->id == BLX_SCOPE_COL ? row : vpid);
}

static int decode_peer(const blx_call *k)
{
    switch (k->kind) {
    case BLX_BCAST_SEND: return k->s->me;
    case BLX_BARRIER: return -1;
    case BLX_RECV:
        if (k->src_row != NULL) /* from any process: found later */
            return -1;
        return peer_arg(k);
    case BLX_BCAST_RECV: {
        int root = peer_arg(k);
        if (root == k->s->me)
            blx_fatal(k->c->handle, k->name,
                      "the source {%d,%d} is this process: the source of a broadcast calls the "
                      "broadcast/send routine, the others the broadcast/receive",
                      k->c->myrow, k->c->mycol);
        return root;
    }
    default: return peer_arg(k);
    }
}

void blx_enter(blx_call *k)
{
    int ctxt = blx_int_arg(k->ctxt, k->name, "ConTxt");
    blx_thread_enter(ctxt, k->name);
    k->c = blx_ctx_get(ctxt, k->name);
    k->s = k->kind == BLX_SEND || k->kind == BLX_RECV ? NULL : scope_arg(k);
    if (k->kind != BLX_BARRIER)
        k->shape = shape_arg(k);
    k->peer = decode_peer(k);
    k->letter = blx_upper(k->top);
    k->tag = -1;
    k->reports = 0;
    blx_watch_begin(k);
}

void blx_leave(blx_call *k, size_t bytes, const char *algorithm)
{
    if (k->watched && blx_debug_get()->stats)
        blx_stats_count(k, bytes, algorithm);
    blx_watch_end(k);
    blx_thread_leave();
}

void blx_top_error(const blx_call *k)
{
    char buf[8];
    blx_fatal(k->c->handle, k->name, "Unknown topology %s: TOP must be ' ' or one of %s", show(k->top, buf),
              blx_algorithm_letters() + 1);
}

void blx_ptr_arg(const blx_call *k, const char *name, const void *p, int needed)
{
    if (needed && p == NULL)
        blx_fatal(k->c->handle, k->name, "%s is a null pointer", name);
}
