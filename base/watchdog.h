/*
 * base/watchdog.h - level 1's hang reports (BLACS_DEBUG=1, the default): a
 * thread that notices a wait that does not end.
 *
 * At level 1 the waits are MPI's blocking ones (MPI_Wait, MPI_Waitany), as
 * at level 0: a process that polled instead would make an MPI call every
 * few hundred nanoseconds of every wait, which costs a real machine's
 * progress engine and a simulator's clock alike.  The waits mark their
 * start and end (debug.h, blx_wait_mark); the watchdog wakes every eighth
 * of BLACS_HANG_TIMEOUT (10 ms to 1 s) and, when it finds the same wait
 * under way as at its last look, counts that time as waited.  After each
 * BLACS_HANG_TIMEOUT of one wait it calls the report function.
 *
 * The thread makes no MPI call itself, so MPI needs no thread support; the
 * report function must make none either but MPI_Abort.  Under SimGrid's
 * SMPI there is no thread: the simulator finds deadlocks itself.
 */
#ifndef BLX_WATCHDOG_H
#define BLX_WATCHDOG_H

#include "visibility.h"

/* Starts the thread once (later calls do nothing); report(seq, seconds):
 * wait 'seq' (blx_wait_seq) has lasted 'seconds'. */
BLX_INTERNAL void blx_watchdog_start(void (*report)(unsigned long seq, double seconds));

#endif
