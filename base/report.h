/*
 * base/report.h - the BLACS error and warning reports, and the MPI checks
 * every layer shares.
 *
 * Both reports use the reference's layout on stderr, with the routine named
 * first in the message text:
 *
 *   BLACS ERROR 'Cdgesd2d: RDEST = 5 is outside the 2 x 2 grid'
 *   from {0,1}, pnum=1, Contxt=0, on line 88 of file 'blacs/p2p.c'.
 *
 * {row,col} are the caller's coordinates in the context (or -1,-1), pnum its
 * MPI_COMM_WORLD rank.  An error flushes stdout and stderr and calls
 * MPI_Abort(MPI_COMM_WORLD, 1), so every process stops; a warning returns.
 *
 * This is the ground floor: the layers above hand it a context number and a
 * routine name, which it prints.  What a context number means (the caller's
 * grid coordinates, a peer's) is known only to the top layer, which says so
 * through blx_report_set_hook; until it does, coordinates print as -1.
 */
#ifndef BLX_REPORT_H
#define BLX_REPORT_H

#include <mpi.h>

#include "stack.h"
#include "visibility.h"

#if defined(__GNUC__)
#define BLX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define BLX_NORETURN __attribute__((noreturn))
#else
#define BLX_PRINTF(f, a)
#define BLX_NORETURN
#endif

/* The top layer's answers about a context (ctxt as the layers below carry
 * it, opaque to them). */
typedef struct blx_report_hook {
    /* this process's grid coordinates; -1, -1 if it has none there */
    void (*self)(int ctxt, int *row, int *col);
    /* grid coordinates of rank 'rank' of the context's communicator */
    void (*peer)(int ctxt, int rank, int *row, int *col);
    /* called about ten times a second by a polling wait (debug level 2 and
     * above) that has waited 'seconds' so far in context ctxt */
    void (*waiting)(int ctxt, double seconds);
} blx_report_hook;

BLX_INTERNAL void blx_report_set_hook(const blx_report_hook *hook);
/* Sets only the hook's 'waiting'. */
BLX_INTERNAL void blx_report_set_waiting(void (*waiting)(int ctxt, double seconds));
/* Coordinates of a peer, through the hook ({-1,-1} without one). */
BLX_INTERNAL void blx_report_peer(int ctxt, int rank, int *row, int *col);
/* A polling wait tells the hook how long it has waited. */
BLX_INTERNAL void blx_report_waiting(int ctxt, double seconds);

BLX_INTERNAL BLX_NORETURN void blx_fatal_at(const char *file, int line, int ctxt, const char *routine,
                                            const char *fmt, ...) BLX_PRINTF(5, 6);
BLX_INTERNAL void blx_warn_at(const char *file, int line, int ctxt, const char *routine, const char *fmt, ...)
    BLX_PRINTF(5, 6);
/* A fatal error that every process of a group finds at once: only the one
 * that 'speaks' reports it and aborts; the others wait a few seconds for
 * that abort to end them (and abort themselves if it never comes), so the
 * job prints the report once. */
#define blx_fatal_once(speaks, ctxt, routine, ...) \
    ((speaks) ? blx_fatal_at(__FILE__, __LINE__, ctxt, routine, __VA_ARGS__) : blx_fatal_quiet(ctxt, routine))
BLX_INTERNAL BLX_NORETURN void blx_fatal_quiet(int ctxt, const char *routine);

/* An MPI call failed: report its error string. */
BLX_INTERNAL BLX_NORETURN void blx_fatal_mpi(int ctxt, const char *routine, int rc, const char *call);

#define blx_fatal(ctxt, routine, ...) blx_fatal_at(__FILE__, __LINE__, ctxt, routine, __VA_ARGS__)
#define blx_warn(ctxt, routine, ...) blx_warn_at(__FILE__, __LINE__, ctxt, routine, __VA_ARGS__)

/* The MPI calls this thread has checked (each by blx_check_mpi): what
 * BLACS_STATS counts a BLACS call's MPI calls by. */
BLX_INTERNAL extern _Thread_local unsigned long blx_mpi_calls;

/* An MPI call's return code: a clear error naming the routine if it failed.
 * (It also notes how deep the stack is: MPI was called from here, and
 * counts the call.) */
static inline void blx_check_mpi(int ctxt, const char *routine, int rc, const char *call)
{
    blx_stack_note();
    blx_mpi_calls++;
    if (rc != MPI_SUCCESS)
        blx_fatal_mpi(ctxt, routine, rc, call);
}

/* MPI is initialized and not yet finalized. */
BLX_INTERNAL int blx_mpi_up(void);

#endif
