/*
 * blacs/args.c - decoding and checking the arguments of the communication
 * routines.  Every check names the routine and the argument; the report
 * names the process (error.c).
 */
#include <limits.h>
#include <stdio.h>

#include "../topologies/topology.h"
#include "internal.h"

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

blx_scope *blx_scope_arg(blx_ctx *c, const blx_call *call, const char *scope)
{
    int id = blx_scope_index(scope);
    if (id < 0) {
        char buf[8];
        blx_fatal(c->handle, call->name, "Unknown scope %s: SCOPE must be 'R', 'C' or 'A'", show(scope, buf));
    }
    return &c->scope[id];
}

blx_shape blx_shape_arg(const blx_ctx *c, const blx_call *call, const char *uplo, const char *diag, int64_t m,
                        int64_t n, int64_t lda)
{
    char buf[8];
    if (m < 0)
        blx_fatal(c->handle, call->name, "M = %lld must not be negative", (long long)m);
    if (n < 0)
        blx_fatal(c->handle, call->name, "N = %lld must not be negative", (long long)n);
    size_t esz = blx_types[call->type].esz;
    if (uplo == NULL)
        return blx_shape_ge(m, n, lda, esz);
    char u = blx_upper(uplo), d = blx_upper(diag);
    if (u != 'U' && u != 'L')
        blx_fatal(c->handle, call->name, "UPLO = %s must be 'U' or 'L'", show(uplo, buf));
    if (d != 'U' && d != 'N')
        blx_fatal(c->handle, call->name, "DIAG = %s must be 'U' or 'N'", show(diag, buf));
    return blx_shape_tr(u, d == 'U', m, n, lda, esz);
}

void blx_top_error(const blx_ctx *c, const blx_call *call, const char *top)
{
    char buf[8];
    blx_fatal(c->handle, call->name, "Unknown topology %s: TOP must be ' ' or one of %s", show(top, buf),
              blx_topology_letters() + 1);
}

void blx_ptr_arg(const blx_ctx *c, const blx_call *call, const char *name, const void *p, int needed)
{
    if (needed && p == NULL)
        blx_fatal(c->handle, call->name, "%s is a null pointer", name);
}

int blx_coord_arg(const blx_ctx *c, const blx_call *call, const char *rname, int row, const char *cname,
                  int col)
{
    if (row < 0 || row >= c->nprow)
        blx_fatal(c->handle, call->name, "%s = %d is outside the %d x %d grid (rows 0..%d)", rname, row,
                  c->nprow, c->npcol, c->nprow - 1);
    if (col < 0 || col >= c->npcol)
        blx_fatal(c->handle, call->name, "%s = %d is outside the %d x %d grid (columns 0..%d)", cname, col,
                  c->nprow, c->npcol, c->npcol - 1);
    return row * c->npcol + col;
}

int blx_member_arg(const blx_ctx *c, const blx_call *call, const blx_scope *s, const char *rname, int row,
                   const char *cname, int col)
{
    if (s->id == BLX_SCOPE_ROW)
        row = c->myrow;
    if (s->id == BLX_SCOPE_COL)
        col = c->mycol;
    int vpid = blx_coord_arg(c, call, rname, row, cname, col);
    return s->id == BLX_SCOPE_ROW ? col : (s->id == BLX_SCOPE_COL ? row : vpid);
}
