/*
 * blacs_ilp64.h - the C interface of the ILP64 BLACS library
 * (libblacs64-<mpi>): blacs.h with blacs_int = int64_t, for programs whose
 * Fortran INTEGER is 64-bit (gfortran -fdefault-integer-8).  Link with
 * -lblacs64-openmpi or -lblacs64-mpich (pkg-config blacs64-openmpi, ...).
 */
#ifndef BLACS_ILP64_H
#define BLACS_ILP64_H

#if defined(BLACS_H) && !defined(BLACS_ILP64)
#error "blacs.h was included before blacs_ilp64.h: it declared the LP64 (32-bit int) interface"
#endif
#ifndef BLACS_ILP64
#define BLACS_ILP64 1
#endif
#include "blacs.h"

#endif
