/*
 * bench/fit.c - least-squares line and LAWN 73's relative error (see fit.h).
 */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int fit_linear(const double *N, const double *T, size_t n, fit_line *out)
{
    if (n < 2)
        return -1;
    /* Centre first: the two-pass form keeps full precision for large N. */
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += N[i];
        my += T[i];
    }
    mx /= (double)n;
    my /= (double)n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        sxx += (N[i] - mx) * (N[i] - mx);
        sxy += (N[i] - mx) * (T[i] - my);
    }
    if (sxx <= 0)
        return -1; /* every N equal: no line through them */
    out->beta = sxy / sxx;
    out->alpha = my - out->beta * mx;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fit_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Indices 0..n-1 ordered by N, so that the sets of equal N are runs. */
typedef struct {
    double n, t;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

double fit_relerr(const double *N, const double *T, size_t n, size_t min_set)
{
    if (n == 0)
        return -1;
    pair *p = malloc(n * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[i] = (pair){N[i], T[i]};
    qsort(p, n, sizeof *p, cmp_pair);

    if (min_set == 0) { /* automatic: the most repeated sets, N > 0 */
        for (size_t i = 0, k; i < n; i = k) {
            for (k = i; k < n && p[k].n == p[i].n; k++)
                ;
            if (p[i].n != 0 && k - i > min_set)
                min_set = k - i;
        }
        if (min_set < 2) {
            free(p);
            return -1;
        }
    }
    double re = -1;
    for (size_t i = 0, k; i < n; i = k) {
        double lo = p[i].t, hi = p[i].t, sum = 0;
        for (k = i; k < n && p[k].n == p[i].n; k++) {
            lo = fmin(lo, p[k].t);
            hi = fmax(hi, p[k].t);
            sum += p[k].t;
        }
        if (p[i].n == 0 || k - i < min_set)
            continue;
        double avg = sum / (double)(k - i);
        if (avg > 0)
            re = fmax(re, (hi - lo) / avg * 100.0);
    }
    free(p);
    return re;
}
