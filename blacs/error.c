/*
 * blacs/error.c - error and warning reports; see error.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

static void report(const char *kind, const char *file, int line, int ctxt, const char *routine,
                   const char *fmt, va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    int row = -1, col = -1;
    blx_ctx *c = blx_ctx_find(ctxt);
    if (c != NULL) {
        row = c->myrow;
        col = c->mycol;
    }
    int pnum = blx_g.initialized ? blx_g.world_rank : -1;
    fflush(stdout);
    fprintf(stderr, "BLACS %s '%s%s%s'\nfrom {%d,%d}, pnum=%d, Contxt=%d, on line %d of file '%s'.\n\n",
            kind, routine ? routine : "", routine ? ": " : "", text, row, col, pnum, ctxt, line,
            file);
    fflush(stderr);
}

void blx_fatal_at(const char *file, int line, int ctxt, const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("ERROR", file, line, ctxt, routine, fmt, ap);
    va_end(ap);
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void blx_warn_at(const char *file, int line, int ctxt, const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("WARNING", file, line, ctxt, routine, fmt, ap);
    va_end(ap);
}

void blx_fatal_mpi(int ctxt, const char *routine, int rc, const char *call)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        len = snprintf(msg, sizeof msg, "MPI error %d", rc);
    blx_fatal(ctxt, routine, "%s failed: %.*s", call, len, msg);
}
