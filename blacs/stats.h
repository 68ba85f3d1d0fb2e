/*
 * blacs/stats.h - statistics (BLACS_STATS, stats.c): per routine family,
 * TOP and the algorithm that ran, the calls, their bytes, the time inside
 * the routines and the part of it spent waiting for messages.
 */
#ifndef BLX_STATS_H
#define BLX_STATS_H

#include "record.h"

/* One finished call, its bytes and the algorithm that ran (NULL: none). */
BLX_INTERNAL void blx_stats_count(const blx_call *k, size_t bytes, const char *algorithm);
/* BLACS_STATS at the first grid and at BLACS_EXIT (the public
 * Cblacs_stats is blx_stats, internal.h). */
BLX_INTERNAL void blx_stats_start(int pnum);
BLX_INTERNAL void blx_stats_exit(int pnum);

#endif
