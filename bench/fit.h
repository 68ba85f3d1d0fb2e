/*
 * bench/fit.h - the statistics of LAWN 73 section 3.3, for the benchmark
 * analysis: a least-squares line T = alpha + beta*N through every data point
 * of a series (repeated points included), and the relative error RE of the
 * repeated data points.  Pure C, no MPI.
 *
 * Units are the caller's; the benchmark uses N = number of doubles and T in
 * microseconds, as LAWN 73 does.
 */
#ifndef BENCH_FIT_H
#define BENCH_FIT_H

#include <stddef.h>

typedef struct {
    double alpha; /* intercept: the latency-like term */
    double beta;  /* slope: cost per element */
} fit_line;

/*
 * Least-squares fit of T = alpha + beta*N over the n points (N[i], T[i]).
 * Returns 0, or -1 (and leaves *out alone) when fewer than two distinct N
 * values make the line undetermined.
 */
int fit_linear(const double *N, const double *T, size_t n, fit_line *out);

/*
 * LAWN 73's relative error of repeated measurements, in percent:
 *
 *     RE = max over repeated sets i of (max(D_r(i)) - min(D_r(i))) / average(D_r(i)) * 100
 *
 * A set D_r(i) is every T measured at one N.  The set at N = 0 never counts
 * (LAWN could not time it reliably).  Only sets with at least min_set points
 * are "repeated sets"; min_set = 0 picks them automatically: the sets with
 * the largest number of points among those with N > 0 (the driver repeats
 * every fifth size more often than the others), provided that number is at
 * least 2.  Returns -1 when no set qualifies.
 */
double fit_relerr(const double *N, const double *T, size_t n, size_t min_set);

/* Median of v[0..n-1] (v is reordered); NaN for n = 0. */
double fit_median(double *v, size_t n);

#endif
