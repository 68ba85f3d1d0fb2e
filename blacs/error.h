/*
 * blacs/error.h - the BLACS error and warning reports.
 *
 * Both use the reference's layout on stderr, with the routine named first in
 * the message text:
 *
 *   BLACS ERROR 'Cdgesd2d: RDEST = 5 is outside the 2 x 2 grid'
 *   from {0,1}, pnum=1, Contxt=0, on line 88 of file 'blacs/p2p.c'.
 *
 * {row,col} are the caller's coordinates in the context (or -1,-1), pnum its
 * MPI_COMM_WORLD rank.  An error flushes stdout and stderr and calls
 * MPI_Abort(MPI_COMM_WORLD, 1), so every process stops; a warning returns.
 */
#ifndef BLX_ERROR_H
#define BLX_ERROR_H

#include "visibility.h"

#if defined(__GNUC__)
#define BLX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define BLX_NORETURN __attribute__((noreturn))
#else
#define BLX_PRINTF(f, a)
#define BLX_NORETURN
#endif

BLX_INTERNAL BLX_NORETURN void blx_fatal_at(const char *file, int line, int ctxt,
                                            const char *routine, const char *fmt, ...)
    BLX_PRINTF(5, 6);
BLX_INTERNAL void blx_warn_at(const char *file, int line, int ctxt, const char *routine,
                              const char *fmt, ...) BLX_PRINTF(5, 6);
/* An MPI call failed: report its error string. */
BLX_INTERNAL BLX_NORETURN void blx_fatal_mpi(int ctxt, const char *routine, int rc,
                                             const char *call);

#define blx_fatal(ctxt, routine, ...) blx_fatal_at(__FILE__, __LINE__, ctxt, routine, __VA_ARGS__)
#define blx_warn(ctxt, routine, ...) blx_warn_at(__FILE__, __LINE__, ctxt, routine, __VA_ARGS__)

#endif
