/* sim/scalapack/calls.h - each process's time inside its BLACS calls (calls.c) */
#ifndef SIM_SCALAPACK_CALLS_H
#define SIM_SCALAPACK_CALLS_H

/* Where SIM_SL_CALLS is set: print, on process 0, every kind of call with
 * its calls, bytes and seconds (every process of MPI_COMM_WORLD calls it). */
void calls_report(int me, int np);

#endif
