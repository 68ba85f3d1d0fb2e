/*
 * blacs/ops.c - combine element operations, generated per type; see ops.h.
 */
#include "ops.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Sums: integers wrap around (in unsigned arithmetic, where overflow is
 * defined) instead of being undefined behaviour; reals add as usual. */
#ifdef BLACS_ILP64
typedef uint64_t blacs_uint;
#else
typedef unsigned blacs_uint;
#endif
static inline blacs_int add_blacs_int(blacs_int x, blacs_int y)
{
    return (blacs_int)((blacs_uint)x + (blacs_uint)y);
}
static inline float add_float(float x, float y) { return x + y; }
static inline double add_double(double x, double y) { return x + y; }
#define BLX_ADD(x, y) _Generic((x), blacs_int : add_blacs_int, float : add_float, double : add_double)(x, y)

/* Magnitude of one component, in a type that orders like |x|. */
static inline blacs_uint mag_blacs_int(blacs_int x) { return x < 0 ? 0u - (blacs_uint)x : (blacs_uint)x; }
#define BLX_MAG(x) _Generic((x), blacs_int : mag_blacs_int, float : fabsf, double : fabs)(x)

static inline int sign3(int gt, int lt) { return gt ? 1 : (lt ? -1 : 0); }

/* One instance of the operations per component type. */
#define R blacs_int
#include "ops_tmpl.h"
#undef R
#define R float
#include "ops_tmpl.h"
#undef R
#define R double
#include "ops_tmpl.h"
#undef R

typedef struct {
    void (*sum)(void *acc, const void *in, size_t ncomp, int in_first);
    void (*absext)(void *acc, const void *in, size_t n, int w, int *al, const int *il, int dir, int in_first);
    int w; /* components per element */
} type_ops;

static const type_ops ops[BLX_NTYPES] = {
#define BLX_OPS_ENTRY(v, V, R, cplx) {sum_##R, absext_##R, cplx ? 2 : 1},
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
    const type_ops *t = &ops[r->type];
    if (r->kind == BLX_OP_SUM) {
        t->sum(acc, in, n * (size_t)t->w, in_first);
        return;
    }
    t->absext(acc, in, n, t->w, blx_reduce_locs(r, acc), blx_reduce_locs(r, (void *)in),
              r->kind == BLX_OP_AMX ? 1 : -1, in_first);
}
