/*
 * test/unit/test_ops.c - the combine element operations and their tie rules
 * (blacs/ops.c, spec section 5.1), for every type, without MPI.
 *
 * The spec's examples; the same AMX/AMN answer whatever the order the
 * contributions are folded in (every permutation of 4 and 5 contributions,
 * so every topology agrees); SUM component by component; partial merges of a
 * prefix of the buffer (used by pipelined combines).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../blacs/ops.h"
#include "check.h"

/* Folds contributions in the order perm[] into acc; values are doubles
 * converted to the type, each contribution one element. */
typedef struct {
    double re, im;
    int dist;
} contrib;

static void put(blx_type t, void *buf, size_t i, double re, double im)
{
    switch (t) {
    case BLX_T_I: ((int *)buf)[i] = (int)re; break;
    case BLX_T_S: ((float *)buf)[i] = (float)re; break;
    case BLX_T_D: ((double *)buf)[i] = re; break;
    case BLX_T_C:
        ((float *)buf)[2 * i] = (float)re;
        ((float *)buf)[2 * i + 1] = (float)im;
        break;
    default:
        ((double *)buf)[2 * i] = re;
        ((double *)buf)[2 * i + 1] = im;
        break;
    }
}

static void get(blx_type t, const void *buf, size_t i, double *re, double *im)
{
    *im = 0;
    switch (t) {
    case BLX_T_I: *re = ((const int *)buf)[i]; break;
    case BLX_T_S: *re = ((const float *)buf)[i]; break;
    case BLX_T_D: *re = ((const double *)buf)[i]; break;
    case BLX_T_C:
        *re = ((const float *)buf)[2 * i];
        *im = ((const float *)buf)[2 * i + 1];
        break;
    default:
        *re = ((const double *)buf)[2 * i];
        *im = ((const double *)buf)[2 * i + 1];
        break;
    }
}

/* Combines c[perm[0]], c[perm[1]], ... ; returns the result and its distance. */
static void fold(blx_opkind kind, blx_type t, int located, const contrib *c, const int *perm, int n,
                 double *re, double *im, int *dist)
{
    blx_reduce op = {kind, t, 1, located};
    unsigned char acc[64], in[64];
    memset(acc, 0, sizeof acc);
    put(t, acc, 0, c[perm[0]].re, c[perm[0]].im);
    if (located)
        blx_reduce_locs(&op, acc)[0] = c[perm[0]].dist;
    for (int k = 1; k < n; k++) {
        put(t, in, 0, c[perm[k]].re, c[perm[k]].im);
        if (located)
            blx_reduce_locs(&op, in)[0] = c[perm[k]].dist;
        blx_merge(&op, acc, in, blx_reduce_bytes(&op), 0);
    }
    get(t, acc, 0, re, im);
    *dist = located ? blx_reduce_locs(&op, acc)[0] : -1;
}

/* Every order of n contributions must give (want_re, want_im, want_dist). */
static void all_orders(const char *what, blx_opkind kind, blx_type t, int located, const contrib *c, int n,
                       double want_re, double want_im, int want_dist)
{
    int perm[5] = {0, 1, 2, 3, 4};
    int count = 1;
    for (int k = 2; k <= n; k++)
        count *= k;
    for (int p = 0; p < count; p++) {
        /* p-th permutation (factorial number system) */
        int pool[5] = {0, 1, 2, 3, 4}, rest = n, q = p;
        for (int k = 0; k < n; k++) {
            int f = 1;
            for (int j = 2; j < rest; j++)
                f *= j;
            int idx = q / f;
            q %= f;
            perm[k] = pool[idx];
            memmove(pool + idx, pool + idx + 1, (size_t)(rest - idx - 1) * sizeof *pool);
            rest--;
        }
        double re, im;
        int dist;
        fold(kind, t, located, c, perm, n, &re, &im, &dist);
        CHECK(re == want_re && im == want_im && dist == want_dist,
              "%s (type %d, order %d): got (%g,%g) dist %d, want (%g,%g) dist %d", what, (int)t, p, re, im,
              dist, want_re, want_im, want_dist);
    }
}

/* "a (op) b" must have the same bits whichever buffer holds the result:
 * merge(acc=a, in=b) == merge(acc=b, in=a, in_first).  Pairs with ties and
 * signed zeros; for AMX/AMN also NaNs of different payloads (a sum of two
 * NaNs may carry either payload: C compilers treat + as commutative). */
static void check_in_first(void)
{
    enum { N = 12 };
    const double re[N] = {1, -1, 2, 0.0, -0.0, 3, -3, 1e300, -1e300, 5, 0, 7};
    const double im[N] = {0, 0, -2, 0, 0, 1, -1, 1, 1, 0, 0, 7};
    for (int t = 0; t < BLX_NTYPES; t++)
        for (int kind = 0; kind < 3; kind++)
            for (int located = 0; located <= (kind != BLX_OP_SUM); located++) {
                blx_reduce op = {(blx_opkind)kind, (blx_type)t, N * N, located};
                size_t bytes = blx_reduce_bytes(&op);
                unsigned char *a = calloc(1, bytes), *b = calloc(1, bytes), *x = malloc(bytes),
                              *y = malloc(bytes);
                for (int i = 0; i < N; i++)
                    for (int j = 0; j < N; j++) {
                        put((blx_type)t, a, (size_t)(i * N + j), re[i], im[i]);
                        put((blx_type)t, b, (size_t)(i * N + j), re[j], im[j]);
                    }
                if (t == BLX_T_D && kind != BLX_OP_SUM) { /* two different NaNs */
                    unsigned long long n1 = 0x7ff8000000000001ull, n2 = 0x7ff8000000000002ull;
                    memcpy(a, &n1, 8);
                    memcpy(b, &n2, 8);
                }
                if (located)
                    for (int k = 0; k < N * N; k++) {
                        blx_reduce_locs(&op, a)[k] = k % 3;
                        blx_reduce_locs(&op, b)[k] = 3 + k % 2;
                    }
                memcpy(x, a, bytes);
                blx_merge(&op, x, b, bytes, 0);
                memcpy(y, b, bytes);
                blx_merge(&op, y, a, bytes, 1);
                CHECK(memcmp(x, y, bytes) == 0,
                      "type %d op %d located %d: a(op)b depends on which buffer holds it", t, kind, located);
                free(a);
                free(b);
                free(x);
                free(y);
            }
}

int main(void)
{
    check_in_first();
    for (int t = 0; t < BLX_NTYPES; t++) {
        blx_type ty = (blx_type)t;
        /* 1 x 4 row, values (-3, 3, 1, 3) */
        contrib row_all[4] = {{-3, 0, 0}, {3, 0, 1}, {1, 0, 2}, {3, 0, 3}};
        all_orders("AMX leave-on-all with location", BLX_OP_AMX, ty, 1, row_all, 4, -3, 0, 0);
        contrib row_dest2[4] = {{-3, 0, 2}, {3, 0, 3}, {1, 0, 0}, {3, 0, 1}}; /* distances to column 2 */
        all_orders("AMX to column 2 with location", BLX_OP_AMX, ty, 1, row_dest2, 4, 3, 0, 1);
        all_orders("AMX without location", BLX_OP_AMX, ty, 0, row_all, 4, 3, 0, -1);
        contrib amn[4] = {{-1, 0, 0}, {1, 0, 1}, {2, 0, 2}, {5, 0, 3}};
        all_orders("AMN without location", BLX_OP_AMN, ty, 0, amn, 4, 1, 0, -1);
        all_orders("AMN with location", BLX_OP_AMN, ty, 1, amn, 4, -1, 0, 0);
        contrib sum[5] = {{1, 2, 0}, {10, 20, 1}, {100, 200, 2}, {-7, -9, 3}, {3, 4, 4}};
        int cplx = ty == BLX_T_C || ty == BLX_T_Z;
        all_orders("SUM", BLX_OP_SUM, ty, 0, sum, 5, 107, cplx ? 217 : 0, -1);
        if (cplx) {
            contrib z[4] = {{3, 4, 0}, {5, 0, 1}, {0, 6, 2}, {-6.5, 0, 3}};
            all_orders("complex AMX uses |re|+|im|", BLX_OP_AMX, ty, 0, z, 4, 3, 4, -1);
            contrib tie[4] = {{1, -2, 0}, {-2, 1, 1}, {2, 1, 2}, {0, 3, 3}};
            all_orders("complex AMX tie, no location", BLX_OP_AMX, ty, 0, tie, 4, 2, 1, -1);
            all_orders("complex AMN tie, no location", BLX_OP_AMN, ty, 0, tie, 4, 2, 1, -1);
            contrib tie2[3] = {{1, 2, 0}, {1, -2, 1}, {-1, 2, 2}};
            all_orders("complex tie on the real part", BLX_OP_AMX, ty, 0, tie2, 3, 1, 2, -1);
            all_orders("complex tie with location", BLX_OP_AMN, ty, 1, tie, 4, 1, -2, 0);
        }
    }
    /* INT_MIN has the largest absolute value (the reference overflows here) */
    {
        blx_reduce op = {BLX_OP_AMX, BLX_T_I, 2, 0};
        int acc[2] = {INT_MAX, 5}, in[2] = {INT_MIN, -5};
        blx_merge(&op, acc, in, sizeof acc, 0);
        CHECK(acc[0] == INT_MIN && acc[1] == 5, "INT_MIN: got %d, %d", acc[0], acc[1]);
    }
    /* a partial merge touches only the given prefix */
    {
        blx_reduce op = {BLX_OP_SUM, BLX_T_D, 4, 0};
        double acc[4] = {1, 1, 1, 1}, in[4] = {1, 2, 3, 4};
        blx_merge(&op, acc, in, 2 * sizeof(double), 0);
        CHECK(acc[0] == 2 && acc[1] == 3 && acc[2] == 1 && acc[3] == 1, "partial merge %g %g %g %g", acc[0],
              acc[1], acc[2], acc[3]);
        blx_reduce loc = {BLX_OP_AMX, BLX_T_D, 4, 1};
        CHECK(blx_reduce_bytes(&loc) == 4 * (8 + sizeof(int)), "located buffer size");
    }
    printf("test_ops: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
