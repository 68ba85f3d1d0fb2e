/*
 * base/debug.h - the debug and timing levels, chosen at run time (LAWN 73
 * section 7.1.4), read once from the environment:
 *
 *   BLACS_DEBUG        0: argument checks (they cost nothing measurable),
 *                      and MPI's blocking waits;
 *                      1 (default): also a process whose wait lasts longer
 *                      than BLACS_HANG_TIMEOUT reports where it waits, then
 *                      waits on (a report after each further timeout).  The
 *                      waits stay MPI's blocking ones: a watchdog thread
 *                      (blacs/watch.c) notices a wait that has not ended;
 *                      2: also every wait polls MPI's test, a hang report
 *                      asks every process of the grid what it is doing,
 *                      finds cycles of receives, and ends the job
 *                      (BLACS_HANG_ACTION); every call is timed, and cheap
 *                      local checks (a receive from itself with nothing
 *                      sent);
 *                      3: also the processes of a scope check that they
 *                      agree before each broadcast or combine, and every
 *                      point-to-point message is preceded by a small one
 *                      describing it.
 *   BLACS_HANG_TIMEOUT seconds before a hang report (default 60; 0: never)
 *   BLACS_HANG_ACTION  abort (the default at levels 2 and 3): the report
 *                      ends the job; wait (the default at level 1): it is
 *                      printed and the wait goes on (again after each
 *                      further timeout), unless (not asked for) a level 2
 *                      report finds a cycle of receives: a deadlock
 *   BLACS_STATS        1, yes, true or on: at BLACS_EXIT (or MPI_Finalize)
 *                      every process prints its statistics; a file's path
 *                      (with a '/', or ending in .csv): they are written
 *                      there as CSV; unset, 0, no, false or off: no
 *                      statistics, no cost; anything else is an error.
 *
 * Nothing here costs anything when the levels are off but reading an int.
 */
#ifndef BLX_DEBUG_H
#define BLX_DEBUG_H

#include "visibility.h"

typedef struct blx_debug {
    int level;              /* 0..3 */
    double hang_timeout;    /* seconds; 0: off */
    int hang_wait;          /* keep waiting after a hang report */
    int hang_wait_asked;    /* ... because BLACS_HANG_ACTION=wait says so */
    int polls;              /* waits poll and report hangs (level 2 and above, a timeout) */
    int watchdog;           /* a thread reports long waits (level 1, a timeout) */
    int stats;              /* statistics are kept */
    const char *stats_file; /* NULL: print them */
} blx_debug;

/* The settings (read from the environment at the first call). */
BLX_INTERNAL const blx_debug *blx_debug_get(void);

static inline int blx_debug_level(void) { return blx_debug_get()->level; }
/* Blocking waits poll and report hangs (level 2 and above). */
static inline int blx_debug_polls(void) { return blx_debug_get()->polls; }

/* Level 1's watchdog: a blocking wait of the layers below the entry points
 * marks its start and end; blx_wait_seq is 0 while none is under way, and
 * otherwise a number that differs from one wait to the next, so that a
 * thread that sees the same number twice, a second apart, knows that one
 * wait has lasted that second.  Two atomic stores a wait. */
BLX_INTERNAL void blx_wait_mark(void);
BLX_INTERNAL void blx_wait_unmark(void);
BLX_INTERNAL unsigned long blx_wait_seq(void);

/* Seconds this thread has spent in blocking waits of the layers below the
 * entry points (kept only with statistics on; read and reset by them). */
BLX_INTERNAL double blx_debug_take_waited(void);
BLX_INTERNAL void blx_debug_add_waited(double seconds);

#endif
