/*
 * blacs/watch.h - what each process is doing, for hang reports and
 * statistics: the call record (call.h) of the call a thread is in is kept
 * while the call lasts.  At debug level 2 and above the layers below poll
 * and report long waits through the report hook (base/report.h) to
 * blx_watch_waiting; at level 1 they block, and a watchdog thread
 * (base/watchdog.h), started with the first grid, has each process report
 * its own wait when it lasts too long.
 *
 * A hang report (level 2 and above).  A process that has waited BLACS_HANG_TIMEOUT seconds in a
 * call of context c sends a request to every other member of c's grid over
 * the grid's watch communicator; each process that is itself waiting in a
 * BLACS call answers with a line describing that call (a polling wait
 * answers within a tenth of a second); the others do not answer, being in
 * their own code, finished, or blocked in MPI outside the BLACS.  After two
 * seconds the requester prints every answer, and which processes gave none,
 * then stops the job (BLACS_HANG_ACTION=abort) or waits on and reports
 * again after each further timeout (=wait).
 */
#ifndef BLX_WATCH_H
#define BLX_WATCH_H

#include "record.h"

/* The calling thread's call from blx_enter to blx_leave (call.c): begin
 * keeps it where a hang may be reported (debug level 1 and above) and
 * stamps its start where calls are watched (level 2 and above, or
 * statistics); end forgets it.  A hang report describes it as a
 * sentence, e.g. "Cdgerv2d (context 0): receiving a 4 x 1 double matrix
 * from {0,1}, message ID 12, for 61.0 s". */
BLX_INTERNAL void blx_watch_begin(blx_call *k);
BLX_INTERNAL void blx_watch_end(const blx_call *k);
/* The report hook's 'waiting' (registered in grid.c). */
BLX_INTERNAL void blx_watch_waiting(int ctxt, double seconds);

/* A grid's debug communicators (watch at level 2, check and agree at 3),
 * made and freed collectively with the grid. */
BLX_INTERNAL void blx_watch_grid_init(blx_ctx *c, const char *routine);
BLX_INTERNAL void blx_watch_grid_free(blx_ctx *c);

/* Level 1 and above: a receive from this process itself that nothing sent yet can
 * never complete: a clear error instead of the hang. */
BLX_INTERNAL void blx_watch_self_receive(const blx_call *k);

#endif
