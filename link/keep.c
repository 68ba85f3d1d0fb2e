/*
 * link/keep.c - linked into every program that links the BLACS library.
 *
 * The library's link name (libblacs-<mpi>.so, and libblacs64-<mpi>.so) is
 * a GNU ld script naming this object and the library itself, as glibc's
 * libc.so names libc_nonshared.a.  This object's one reference is to
 * Cblacs_version, which only this library defines: so the linker keeps
 * the library needed whatever the program calls itself, under
 * --as-needed, in a CMake or pkg-config link line, and in whatever order
 * the library comes with ScaLAPACK (whose BLACS would otherwise answer
 * every call, silently).  If ScaLAPACK's BLACS then comes first, the
 * library says so when it is loaded (blacs/bind.c).
 */
#include "blacs.h"

#if defined(__has_attribute)
#if __has_attribute(retain)
#define BLACS_KEEP_RETAIN __attribute__((retain))
#endif
#endif
#ifndef BLACS_KEEP_RETAIN
#define BLACS_KEEP_RETAIN
#endif

__attribute__((visibility("hidden"), used))
BLACS_KEEP_RETAIN void (*const blacs_keep_library)(blacs_int *, blacs_int *, blacs_int *) = Cblacs_version;
