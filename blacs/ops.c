/*
 * blacs/ops.c - combine element operations, generated per type; see ops.h.
 */
#include "ops.h"

#include <math.h>
#include <string.h>

/* Sums: integers wrap around (in unsigned arithmetic, where overflow is
 * defined) instead of being undefined behaviour; reals add as usual. */
static inline int add_int(int x, int y) { return (int)((unsigned)x + (unsigned)y); }
static inline float add_float(float x, float y) { return x + y; }
static inline double add_double(double x, double y) { return x + y; }
#define BLX_ADD(x, y) _Generic((x), int: add_int, float: add_float, double: add_double)(x, y)

/* Magnitude of one component, in a type that orders like |x|. */
static inline unsigned mag_int(int x) { return x < 0 ? 0u - (unsigned)x : (unsigned)x; }
#define BLX_MAG(x) _Generic((x), int: mag_int, float: fabsf, double: fabs)(x)

static inline int sign3(int gt, int lt) { return gt ? 1 : (lt ? -1 : 0); }

/*
 * For each type: sum, and one routine for AMX (dir = +1) and AMN (dir = -1).
 *   w          components per element (2 for complex)
 *   cmp_mag    sign of |x| - |y|
 *   cmp_alg    sign of x - y, real part first
 */
#define BLX_DEFINE_OPS(v, V, R, cplx)                                                              \
    static void v##_sum(void *acc, const void *in, size_t n, int in_first)                         \
    {                                                                                              \
        R *restrict a = acc; /* never the same memory: lets the compiler vectorize */              \
        const R *restrict b = in;                                                                  \
        if (in_first)                                                                              \
            for (size_t i = 0; i < n * (cplx ? 2 : 1); i++)                                        \
                a[i] = BLX_ADD(b[i], a[i]);                                                        \
        else                                                                                       \
            for (size_t i = 0; i < n * (cplx ? 2 : 1); i++)                                        \
                a[i] = BLX_ADD(a[i], b[i]);                                                        \
    }                                                                                              \
    static int v##_cmp_mag(const R *x, const R *y)                                                 \
    {                                                                                              \
        if (cplx) {                                                                                \
            R mx = BLX_MAG(x[0]) + BLX_MAG(x[cplx]), my = BLX_MAG(y[0]) + BLX_MAG(y[cplx]);        \
            return sign3(mx > my, mx < my);                                                        \
        }                                                                                          \
        return sign3(BLX_MAG(x[0]) > BLX_MAG(y[0]), BLX_MAG(x[0]) < BLX_MAG(y[0]));                \
    }                                                                                              \
    static int v##_cmp_alg(const R *x, const R *y)                                                 \
    {                                                                                              \
        int c = sign3(x[0] > y[0], x[0] < y[0]);                                                   \
        return (c != 0 || !cplx) ? c : sign3(x[cplx] > y[cplx], x[cplx] < y[cplx]);                \
    }                                                                                              \
    static void v##_absext(void *acc, const void *in, size_t n, int *al, const int *il, int dir,    \
                           int in_first)                                                           \
    {                                                                                              \
        enum { W = cplx ? 2 : 1 };                                                                 \
        R *a = acc;                                                                                \
        const R *b = in;                                                                           \
        for (size_t i = 0; i < n; i++) {                                                           \
            int c = dir * v##_cmp_mag(b + W * i, a + W * i);                                       \
            if (c == 0)                                                                            \
                c = al ? sign3(il[i] < al[i], il[i] > al[i]) : v##_cmp_alg(b + W * i, a + W * i);  \
            /* the first operand stays unless the second is strictly better */                     \
            if (c > 0 || (in_first && c == 0)) {                                                   \
                memcpy(a + W * i, b + W * i, sizeof(R) * W);                                       \
                if (al)                                                                            \
                    al[i] = il[i];                                                                 \
            }                                                                                      \
        }                                                                                          \
    }
BLX_FOR_EACH_TYPE(BLX_DEFINE_OPS)
#undef BLX_DEFINE_OPS

typedef struct {
    void (*sum)(void *acc, const void *in, size_t n, int in_first);
    void (*absext)(void *acc, const void *in, size_t n, int *al, const int *il, int dir, int in_first);
} type_ops;

static const type_ops ops[BLX_NTYPES] = {
#define BLX_OPS_ENTRY(v, V, R, cplx) {v##_sum, v##_absext},
    BLX_FOR_EACH_TYPE(BLX_OPS_ENTRY)
#undef BLX_OPS_ENTRY
};

size_t blx_reduce_bytes(const blx_reduce *r)
{
    return r->n * (blx_types[r->type].esz + (r->located ? sizeof(int) : 0));
}

int *blx_reduce_locs(const blx_reduce *r, void *buf)
{
    /* every esz is a multiple of sizeof(int), so the ints are aligned */
    return r->located ? (int *)((char *)buf + r->n * blx_types[r->type].esz) : NULL;
}

void blx_merge(const void *op, void *acc, const void *in, size_t bytes, int in_first)
{
    const blx_reduce *r = op;
    size_t n = r->located ? r->n : bytes / blx_types[r->type].esz;
    if (r->kind == BLX_OP_SUM) {
        ops[r->type].sum(acc, in, n, in_first);
        return;
    }
    ops[r->type].absext(acc, in, n, blx_reduce_locs(r, acc), blx_reduce_locs(r, (void *)in),
                        r->kind == BLX_OP_AMX ? 1 : -1, in_first);
}
