/*
 * blacs/threads.h - one thread at a time inside the BLACS, per process.
 *
 * The library keeps per-process state (the buffer queue, the work space,
 * each grid's message-ID counters) that two threads inside it at once
 * would corrupt, even on different grids.  The rule (doc/guide.md, "Threads"):
 * any thread may call the BLACS, one at a time; MPI must have been started
 * with at least MPI_THREAD_SERIALIZED.  The routines that communicate or
 * change grids enter and leave through here: a second thread entering
 * while another is inside is a clear error naming both routines, instead
 * of corrupted data.  The cost is one atomic compare-and-swap per call.
 */
#ifndef BLX_THREADS_H
#define BLX_THREADS_H

#include "../base/visibility.h"

/* Entering 'routine' (nested calls by the same thread are allowed). */
BLX_INTERNAL void blx_thread_enter(int ctxt, const char *routine);
BLX_INTERNAL void blx_thread_leave(void);

#endif
