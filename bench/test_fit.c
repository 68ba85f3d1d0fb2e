/*
 * bench/test_fit.c - unit test of bench/fit.c on data with known answers:
 * exact lines, a noisy line with a hand-computed fit, LAWN 73's RE on
 * repeated sets (N = 0 excluded, automatic and explicit set selection),
 * medians, and the degenerate cases.
 */
#include <math.h>
#include <stdio.h>

#include "fit.h"

static int failures;

static void near(const char *what, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fmax(1.0, fabs(want)))) {
        printf("FAIL %s: got %.15g, want %.15g\n", what, got, want);
        failures++;
    }
}

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    fit_line f;

    /* An exact line, LAWN's range N = 0..50000 every 1000: exact alpha, beta. */
    double N[51], T[51];
    for (int i = 0; i <= 50; i++) {
        N[i] = 1000.0 * i;
        T[i] = 212.0 + 0.2049 * N[i];
    }
    if (fit_linear(N, T, 51, &f) != 0)
        printf("FAIL exact line: no fit\n"), failures++;
    near("exact alpha", f.alpha, 212.0, 1e-9);
    near("exact beta", f.beta, 0.2049, 1e-12);

    /* Negative alpha (LAWN's CM-5 copy times) is a legal answer. */
    for (int i = 0; i <= 50; i++)
        T[i] = -159.0 + 1.4787 * N[i];
    fit_linear(N, T, 51, &f);
    near("negative alpha", f.alpha, -159.0, 1e-9);
    near("negative alpha beta", f.beta, 1.4787, 1e-12);

    /* Repeated points weigh as many times as they occur: x = 0,0,2,2 and
     * y = 1,3,5,7 give the line through the means of the pairs, (0,2) and
     * (2,6): mean x = 1, mean y = 4, Sxx = 4, Sxy = 8, beta = 2, alpha = 2.
     * Adding a third point at x = 2 moves it: x = 0,0,2,2,2, y = 1,3,5,7,9:
     * mean x = 1.2, mean y = 5, Sxx = 4.8, Sxy = 12, beta = 2.5, alpha = 2. */
    double x4[] = {0, 0, 2, 2, 2}, y4[] = {1, 3, 5, 7, 9};
    fit_linear(x4, y4, 4, &f);
    near("hand fit alpha", f.alpha, 2.0, 1e-12);
    near("hand fit beta", f.beta, 2.0, 1e-12);
    fit_linear(x4, y4, 5, &f);
    near("hand fit 5 alpha", f.alpha, 2.0, 1e-12);
    near("hand fit 5 beta", f.beta, 2.5, 1e-12);

    /* Undetermined lines. */
    double same[] = {5, 5, 5}, ty[] = {1, 2, 3};
    if (fit_linear(same, ty, 3, &f) != -1 || fit_linear(x4, y4, 1, &f) != -1)
        printf("FAIL degenerate fits must return -1\n"), failures++;

    /* RE: sets at N = 0 (excluded, however spread), N = 1000 (10, 12, 11:
     * spread 2 over average 11 = 18.18%), N = 5000 (100, 100, 100, 104:
     * 4/101 = 3.96%), and single points that are no repeated set. */
    double rn[] = {0, 0, 0, 1000, 1000, 1000, 2000, 3000, 5000, 5000, 5000, 5000};
    double rt[] = {1, 50, 9, 10, 12, 11, 20, 30, 100, 100, 100, 104};
    near("RE explicit min_set 3", fit_relerr(rn, rt, LEN(rn), 3), 2.0 / 11.0 * 100, 1e-12);
    /* Automatic: the largest sets (4 points, at N = 5000) are the repeated ones. */
    near("RE automatic", fit_relerr(rn, rt, LEN(rn), 0), 4.0 / 101.0 * 100, 1e-12);
    /* No set repeated (every N once, N = 0 aside): no RE. */
    double sn[] = {0, 0, 1000, 2000}, st[] = {1, 2, 3, 4};
    if (fit_relerr(sn, st, LEN(sn), 0) != -1)
        printf("FAIL RE without repeated sets must be -1\n"), failures++;
    /* Identical repeats: RE = 0. */
    double zn[] = {8, 8, 8}, zt[] = {7, 7, 7};
    near("RE of identical repeats", fit_relerr(zn, zt, 3, 0), 0.0, 0);

    /* Medians (odd, even, unsorted input). */
    double m1[] = {5, 1, 3}, m2[] = {4, 1, 3, 2};
    near("median odd", fit_median(m1, 3), 3, 0);
    near("median even", fit_median(m2, 4), 2.5, 0);
    if (!isnan(fit_median(m1, 0)))
        printf("FAIL median of nothing must be NaN\n"), failures++;

    printf("test_fit: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
