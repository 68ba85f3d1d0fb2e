/*
 * sim/scalapack/calls.c - each process's simulated time inside the BLACS
 * calls ScaLAPACK makes, for either BLACS: the drivers are linked with
 * -Wl,--wrap for the routines below (sim/sim.mk), so a call of dgebs2d_ or
 * Cdgebs2d reaches __wrap_..., which times __real_... with MPI_Wtime.
 * Where SIM_SL_CALLS is set, calls_report() prints, for every kind of call
 * (operation, scope, TOP), the calls a process, their mean bytes and the
 * seconds inside them (the mean over processes and the most of one);
 * unset, a wrapper only forwards (and the simulated time is untouched).
 * Covered: the general and trapezoidal double and integer routines
 * (broadcasts, point to point, sums, absolute max and min) and the
 * barrier, Fortran and C; the single and complex ones are not wrapped.
 * The lengths a Fortran caller passes after the arguments for SCOPE, TOP,
 * UPLO and DIAG are not forwarded: both BLACS read one letter of each.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

/* The wrappers are named only by the linker's --wrap: no header declares them. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

enum { BS, BR, SD, RV, SUM, AMX, AMN, BAR, NOPS };
static const char *const op_name[NOPS] = {"bcast-send", "bcast-recv", "send", "recv",
                                          "sum",        "amax",       "amin", "barrier"};
static const char tops[] = " IDSMFH123456789T"; /* the TOPs ScaLAPACK may set; others count as '?' */
#define NTOPS ((int)sizeof tops)                /* the last slot: '?' */
enum { NSCOPES = 4 };                           /* row, column, all, none (point to point) */

static int on = -1, traced = -1; /* traced: this process prints every call (SIM_SL_TRACE) */
static double seconds[NOPS][NSCOPES][NTOPS], bytes[NOPS][NSCOPES][NTOPS], count[NOPS][NSCOPES][NTOPS];

/* SIM_SL_TRACE: a comma-separated list of ranks of MPI_COMM_WORLD whose
 * every call is printed as it ends ("trace: rank start end op scope TOP
 * bytes prow pcol", simulated seconds; the grid coordinates of the peer of
 * a point-to-point call or of a broadcast's source as a receiver names it,
 * else -1 -1), which sets SIM_SL_CALLS too. */
static int enabled(void)
{
    if (on < 0) {
        const char *t = getenv("SIM_SL_TRACE");
        int me = -1;
        on = getenv("SIM_SL_CALLS") != NULL || t != NULL;
        traced = 0;
        if (t != NULL) /* (no MPI call unless asked: the timed runs stay as they were) */
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
        for (char *end; t != NULL && *t != '\0'; t = *end ? end + 1 : end)
            traced |= strtol(t, &end, 10) == me;
    }
    return on;
}

static int scope_at(const char *s)
{
    char c = s == NULL ? 'N' : (char)(*s | 0x20);
    return c == 'r' ? 0 : c == 'c' ? 1 : c == 'a' ? 2 : 3;
}

static int top_at(const char *t)
{
    const char *at = t == NULL ? NULL : memchr(tops, *t >= 'a' && *t <= 'z' ? *t - 32 : *t, NTOPS - 1);
    return at == NULL ? NTOPS - 1 : (int)(at - tops);
}

static void note(int op, const char *scope, const char *top, double n, double t0, int prow, int pcol)
{
    int s = scope_at(scope), k = top_at(top);
    double t1 = MPI_Wtime();
    seconds[op][s][k] += t1 - t0;
    if (traced) {
        int me;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        printf("trace: %d %.9f %.9f %s %c %c %.0f %d %d\n", me, t0, t1, op_name[op], "RCA-"[s],
               s == NSCOPES - 1 ? '-'
               : k < NTOPS - 1  ? (tops[k] == ' ' ? '_' : tops[k])
                                : '?',
               n, prow, pcol);
    }
    bytes[op][s][k] += n;
    count[op][s][k] += 1;
}

/* One wrapper: REAL's arguments forwarded; OP, SCOPE, TOP, the bytes N and
 * the grid coordinates of the peer (PROW, PCOL; -1: none) noted. */
#define TIMED(OP, SCOPE, TOP, N, PROW, PCOL, CALL) \
    do {                                           \
        if (!enabled()) {                          \
            CALL;                                  \
            return;                                \
        }                                          \
        double t0_ = MPI_Wtime();                  \
        CALL;                                      \
        note(OP, SCOPE, TOP, N, t0_, PROW, PCOL);  \
    } while (0)

/* M x N of an element of ES bytes (a trapezoid counted as its rectangle) */
#define SZ(M, N, ES) ((double)(M) * (double)(N) * (ES))

#define FORTRAN(T, ES)                                                                                       \
    void __real_##T##gebs2d_(int *, const char *, const char *, int *, int *, void *, int *);                \
    void __wrap_##T##gebs2d_(int *c, const char *s, const char *t, int *m, int *n, void *a, int *l)          \
    {                                                                                                        \
        TIMED(BS, s, t, SZ(*m, *n, ES), -1, -1, __real_##T##gebs2d_(c, s, t, m, n, a, l));                   \
    }                                                                                                        \
    void __real_##T##gebr2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *);  \
    void __wrap_##T##gebr2d_(int *c, const char *s, const char *t, int *m, int *n, void *a, int *l, int *r,  \
                             int *k)                                                                         \
    {                                                                                                        \
        TIMED(BR, s, t, SZ(*m, *n, ES), *r, *k, __real_##T##gebr2d_(c, s, t, m, n, a, l, r, k));             \
    }                                                                                                        \
    void __real_##T##trbs2d_(int *, const char *, const char *, const char *, const char *, int *, int *,    \
                             void *, int *);                                                                 \
    void __wrap_##T##trbs2d_(int *c, const char *s, const char *t, const char *u, const char *d, int *m,     \
                             int *n, void *a, int *l)                                                        \
    {                                                                                                        \
        TIMED(BS, s, t, SZ(*m, *n, ES), -1, -1, __real_##T##trbs2d_(c, s, t, u, d, m, n, a, l));             \
    }                                                                                                        \
    void __real_##T##trbr2d_(int *, const char *, const char *, const char *, const char *, int *, int *,    \
                             void *, int *, int *, int *);                                                   \
    void __wrap_##T##trbr2d_(int *c, const char *s, const char *t, const char *u, const char *d, int *m,     \
                             int *n, void *a, int *l, int *r, int *k)                                        \
    {                                                                                                        \
        TIMED(BR, s, t, SZ(*m, *n, ES), *r, *k, __real_##T##trbr2d_(c, s, t, u, d, m, n, a, l, r, k));       \
    }                                                                                                        \
    void __real_##T##gesd2d_(int *, int *, int *, void *, int *, int *, int *);                              \
    void __wrap_##T##gesd2d_(int *c, int *m, int *n, void *a, int *l, int *r, int *k)                        \
    {                                                                                                        \
        TIMED(SD, NULL, NULL, SZ(*m, *n, ES), *r, *k, __real_##T##gesd2d_(c, m, n, a, l, r, k));             \
    }                                                                                                        \
    void __real_##T##gerv2d_(int *, int *, int *, void *, int *, int *, int *);                              \
    void __wrap_##T##gerv2d_(int *c, int *m, int *n, void *a, int *l, int *r, int *k)                        \
    {                                                                                                        \
        TIMED(RV, NULL, NULL, SZ(*m, *n, ES), *r, *k, __real_##T##gerv2d_(c, m, n, a, l, r, k));             \
    }                                                                                                        \
    void __real_##T##trsd2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *);  \
    void __wrap_##T##trsd2d_(int *c, const char *u, const char *d, int *m, int *n, void *a, int *l, int *r,  \
                             int *k)                                                                         \
    {                                                                                                        \
        TIMED(SD, NULL, NULL, SZ(*m, *n, ES), *r, *k, __real_##T##trsd2d_(c, u, d, m, n, a, l, r, k));       \
    }                                                                                                        \
    void __real_##T##trrv2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *);  \
    void __wrap_##T##trrv2d_(int *c, const char *u, const char *d, int *m, int *n, void *a, int *l, int *r,  \
                             int *k)                                                                         \
    {                                                                                                        \
        TIMED(RV, NULL, NULL, SZ(*m, *n, ES), *r, *k, __real_##T##trrv2d_(c, u, d, m, n, a, l, r, k));       \
    }                                                                                                        \
    void __real_##T##gsum2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *);  \
    void __wrap_##T##gsum2d_(int *c, const char *s, const char *t, int *m, int *n, void *a, int *l, int *r,  \
                             int *k)                                                                         \
    {                                                                                                        \
        TIMED(SUM, s, t, SZ(*m, *n, ES), -1, -1, __real_##T##gsum2d_(c, s, t, m, n, a, l, r, k));            \
    }                                                                                                        \
    void __real_##T##gamx2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *,   \
                             int *, int *, int *);                                                           \
    void __wrap_##T##gamx2d_(int *c, const char *s, const char *t, int *m, int *n, void *a, int *l, int *ra, \
                             int *ca, int *ld, int *r, int *k)                                               \
    {                                                                                                        \
        TIMED(AMX, s, t, SZ(*m, *n, ES), -1, -1,                                                             \
              __real_##T##gamx2d_(c, s, t, m, n, a, l, ra, ca, ld, r, k));                                   \
    }                                                                                                        \
    void __real_##T##gamn2d_(int *, const char *, const char *, int *, int *, void *, int *, int *, int *,   \
                             int *, int *, int *);                                                           \
    void __wrap_##T##gamn2d_(int *c, const char *s, const char *t, int *m, int *n, void *a, int *l, int *ra, \
                             int *ca, int *ld, int *r, int *k)                                               \
    {                                                                                                        \
        TIMED(AMN, s, t, SZ(*m, *n, ES), -1, -1,                                                             \
              __real_##T##gamn2d_(c, s, t, m, n, a, l, ra, ca, ld, r, k));                                   \
    }

#define C(T, ES)                                                                                             \
    void __real_C##T##gebs2d(int, const char *, const char *, int, int, void *, int);                        \
    void __wrap_C##T##gebs2d(int c, const char *s, const char *t, int m, int n, void *a, int l)              \
    {                                                                                                        \
        TIMED(BS, s, t, SZ(m, n, ES), -1, -1, __real_C##T##gebs2d(c, s, t, m, n, a, l));                     \
    }                                                                                                        \
    void __real_C##T##gebr2d(int, const char *, const char *, int, int, void *, int, int, int);              \
    void __wrap_C##T##gebr2d(int c, const char *s, const char *t, int m, int n, void *a, int l, int r,       \
                             int k)                                                                          \
    {                                                                                                        \
        TIMED(BR, s, t, SZ(m, n, ES), r, k, __real_C##T##gebr2d(c, s, t, m, n, a, l, r, k));                 \
    }                                                                                                        \
    void __real_C##T##trbs2d(int, const char *, const char *, const char *, const char *, int, int, void *,  \
                             int);                                                                           \
    void __wrap_C##T##trbs2d(int c, const char *s, const char *t, const char *u, const char *d, int m,       \
                             int n, void *a, int l)                                                          \
    {                                                                                                        \
        TIMED(BS, s, t, SZ(m, n, ES), -1, -1, __real_C##T##trbs2d(c, s, t, u, d, m, n, a, l));               \
    }                                                                                                        \
    void __real_C##T##trbr2d(int, const char *, const char *, const char *, const char *, int, int, void *,  \
                             int, int, int);                                                                 \
    void __wrap_C##T##trbr2d(int c, const char *s, const char *t, const char *u, const char *d, int m,       \
                             int n, void *a, int l, int r, int k)                                            \
    {                                                                                                        \
        TIMED(BR, s, t, SZ(m, n, ES), r, k, __real_C##T##trbr2d(c, s, t, u, d, m, n, a, l, r, k));           \
    }                                                                                                        \
    void __real_C##T##gesd2d(int, int, int, void *, int, int, int);                                          \
    void __wrap_C##T##gesd2d(int c, int m, int n, void *a, int l, int r, int k)                              \
    {                                                                                                        \
        TIMED(SD, NULL, NULL, SZ(m, n, ES), r, k, __real_C##T##gesd2d(c, m, n, a, l, r, k));                 \
    }                                                                                                        \
    void __real_C##T##gerv2d(int, int, int, void *, int, int, int);                                          \
    void __wrap_C##T##gerv2d(int c, int m, int n, void *a, int l, int r, int k)                              \
    {                                                                                                        \
        TIMED(RV, NULL, NULL, SZ(m, n, ES), r, k, __real_C##T##gerv2d(c, m, n, a, l, r, k));                 \
    }                                                                                                        \
    void __real_C##T##trsd2d(int, const char *, const char *, int, int, void *, int, int, int);              \
    void __wrap_C##T##trsd2d(int c, const char *u, const char *d, int m, int n, void *a, int l, int r,       \
                             int k)                                                                          \
    {                                                                                                        \
        TIMED(SD, NULL, NULL, SZ(m, n, ES), r, k, __real_C##T##trsd2d(c, u, d, m, n, a, l, r, k));           \
    }                                                                                                        \
    void __real_C##T##trrv2d(int, const char *, const char *, int, int, void *, int, int, int);              \
    void __wrap_C##T##trrv2d(int c, const char *u, const char *d, int m, int n, void *a, int l, int r,       \
                             int k)                                                                          \
    {                                                                                                        \
        TIMED(RV, NULL, NULL, SZ(m, n, ES), r, k, __real_C##T##trrv2d(c, u, d, m, n, a, l, r, k));           \
    }                                                                                                        \
    void __real_C##T##gsum2d(int, const char *, const char *, int, int, void *, int, int, int);              \
    void __wrap_C##T##gsum2d(int c, const char *s, const char *t, int m, int n, void *a, int l, int r,       \
                             int k)                                                                          \
    {                                                                                                        \
        TIMED(SUM, s, t, SZ(m, n, ES), -1, -1, __real_C##T##gsum2d(c, s, t, m, n, a, l, r, k));              \
    }                                                                                                        \
    void __real_C##T##gamx2d(int, const char *, const char *, int, int, void *, int, int *, int *, int, int, \
                             int);                                                                           \
    void __wrap_C##T##gamx2d(int c, const char *s, const char *t, int m, int n, void *a, int l, int *ra,     \
                             int *ca, int ld, int r, int k)                                                  \
    {                                                                                                        \
        TIMED(AMX, s, t, SZ(m, n, ES), -1, -1, __real_C##T##gamx2d(c, s, t, m, n, a, l, ra, ca, ld, r, k));  \
    }                                                                                                        \
    void __real_C##T##gamn2d(int, const char *, const char *, int, int, void *, int, int *, int *, int, int, \
                             int);                                                                           \
    void __wrap_C##T##gamn2d(int c, const char *s, const char *t, int m, int n, void *a, int l, int *ra,     \
                             int *ca, int ld, int r, int k)                                                  \
    {                                                                                                        \
        TIMED(AMN, s, t, SZ(m, n, ES), -1, -1, __real_C##T##gamn2d(c, s, t, m, n, a, l, ra, ca, ld, r, k));  \
    }

FORTRAN(d, 8)
FORTRAN(i, 4)
C(d, 8)
C(i, 4)

void __real_blacs_barrier_(int *, const char *);
void __wrap_blacs_barrier_(int *c, const char *s)
{
    TIMED(BAR, s, NULL, 0, -1, -1, __real_blacs_barrier_(c, s));
}
void __real_Cblacs_barrier(int, const char *);
void __wrap_Cblacs_barrier(int c, const char *s)
{
    TIMED(BAR, s, NULL, 0, -1, -1, __real_Cblacs_barrier(c, s));
}

void calls_report(int me, int np)
{
    enum { N = NOPS * NSCOPES * NTOPS };
    static double sum[3][N], most[N];
    if (!enabled())
        return;
    MPI_Reduce(seconds, sum[0], N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(bytes, sum[1], N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(count, sum[2], N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(seconds, most, N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me != 0)
        return;
    static const char scopes[NSCOPES] = "RCA-";
    for (int i = 0; i < N; i++) {
        int op = i / (NSCOPES * NTOPS), s = i / NTOPS % NSCOPES, k = i % NTOPS;
        if (sum[2][i] > 0)
            printf("calls: op=%s scope=%c top=%c calls=%.1f bytes=%.0f mean_s=%.6f max_s=%.6f\n", op_name[op],
                   scopes[s],
                   s == NSCOPES - 1 ? '-'
                   : k < NTOPS - 1  ? (tops[k] == ' ' ? '_' : tops[k])
                                    : '?',
                   sum[2][i] / np, sum[1][i] / sum[2][i], sum[0][i] / np, most[i]);
    }
}
