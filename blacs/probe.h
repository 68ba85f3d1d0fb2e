/*
 * blacs/probe.h - timing the machine: round trips between two processes
 * and the speed of folding, as the cost model's alpha, beta and gamma
 * (topologies/model.h).  A new grid that spans nodes measures the network
 * with these (machine.c); blacs-tune (tools/blacs_tune.c) measures a node
 * and the network once and writes a tuning file.
 *
 * Each value is the fastest of BLX_PROBE_TRIES, rounded to two significant
 * digits (blx_probe_digits), so that the usual jitter of a machine seldom
 * changes a choice between runs.
 */
#ifndef BLX_PROBE_H
#define BLX_PROBE_H

#include <mpi.h>
#include <stddef.h>

#include "../base/visibility.h"

/* Where the library looks for a tuning file (blacs-tune's) when
 * BLACS_MODEL_FILE is not set: the Makefile's SYSCONFDIR/blacs/model. */
#ifndef BLX_MODEL_FILE_DEFAULT
#define BLX_MODEL_FILE_DEFAULT "/usr/local/etc/blacs/model"
#endif

#define BLX_PROBE_TRIES 4
#define BLX_PROBE_BYTES ((size_t)1 << 20)

/* x rounded to two significant digits (0 stays 0). */
BLX_INTERNAL double blx_probe_digits(double x);
/* The fastest of BLX_PROBE_TRIES round trips to peer on comm: n bytes of
 * buf there, 8 back (the peer runs blx_probe_answer). */
BLX_INTERNAL double blx_probe_round_trip(const char *routine, MPI_Comm comm, int peer, int tag, char *buf,
                                         size_t n);
/* The peer's side of 'count' round trips from process 'from' (buf holds
 * BLX_PROBE_BYTES). */
BLX_INTERNAL void blx_probe_answer(const char *routine, MPI_Comm comm, int from, int tag, char *buf,
                                   int count);
/* Seconds per byte of adding vectors of doubles (buf: BLX_PROBE_BYTES),
 * rounded; 0 where computing takes no time, as in a simulation that does
 * not simulate it. */
BLX_INTERNAL double blx_probe_fold(char *buf);
/* A link's alpha and beta from round trips of 8 bytes (small) and of
 * BLX_PROBE_BYTES (large): 2 alpha, and 2 alpha + n beta; rounded. */
BLX_INTERNAL void blx_probe_link(double small, double large, double *alpha, double *beta);

#endif
