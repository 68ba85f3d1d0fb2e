/*
 * blacs/timers.c - the BLACS timers, C and Fortran.
 *
 * Kept in their own object file: the C tester (xCbtest) defines its own
 * Fortran-named wrappers for every other routine but imports dwalltime00_
 * from the library, so a static link must not drag the rest of the Fortran
 * interface in with it.
 */
#include <time.h>

#include "../base/visibility.h"
#include "blacs.h"

/* Wall-clock seconds; only differences are meaningful. */
BLX_API double Cdwalltime00(void) { return MPI_Wtime(); }
BLX_API double dwalltime00_(void) { return MPI_Wtime(); }

/* CPU seconds used by this process.  The reference MPI BLACS return -1.0
 * here ("not implemented"); a real CPU clock is more useful and no caller
 * can depend on the constant. */
static double cputime(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

BLX_API double Cdcputime00(void) { return cputime(); }
BLX_API double dcputime00_(void) { return cputime(); }
