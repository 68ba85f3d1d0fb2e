/*
 * base/perturb.h - a testing aid: random delays and yields where the
 * library meets MPI, so that tests see other interleavings than an idle
 * machine gives.
 *
 *   BLACS_PERTURB=SEED[:MAX_US]   on, from SEED (a whole number from 1);
 *                                 unset or 0: off (the default)
 *
 * Before and after each send, receive, test and wait the byte layer posts
 * (and each MPI collective it calls), a process draws from a generator
 * seeded with SEED and its rank in MPI_COMM_WORLD: half the time nothing,
 * a quarter a yield of the processor, a fifth a busy wait of up to 20 us,
 * the rest a sleep of up to MAX_US microseconds (default 200).  A run is
 * repeatable as far as the machine allows: the same seed makes the same
 * draws in the same order on each process.  Off, it costs one load and a
 * branch at each of those places.  make stress runs the tests under it
 * with several seeds (test/stress.sh).
 */
#ifndef BLX_PERTURB_H
#define BLX_PERTURB_H

#include "visibility.h"

/* 1 until BLACS_PERTURB is read, then 0 (off) or 2 (on). */
BLX_INTERNAL extern int blx_perturb_mode;
BLX_INTERNAL void blx_perturb_step(void);

static inline void blx_perturb(void)
{
    if (blx_perturb_mode != 0)
        blx_perturb_step();
}

#endif
