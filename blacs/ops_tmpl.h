/*
 * blacs/ops_tmpl.h - the combine element operations for one component type,
 * included by ops.c once per type with R defined (blacs_int, float or double).  A
 * complex element is w = 2 consecutive components, a real one w = 1.
 *
 * Defines sum_R, the elementwise sum over components, and absext_R, the
 * absolute maximum (dir = +1) or minimum (dir = -1) with the tie rules of
 * ops.h.  Plain functions: only their names are pasted together.
 */
#define OPS_NAME2(name, type) name##_##type
#define OPS_NAME(name, type) OPS_NAME2(name, type)
#define F(name) OPS_NAME(name, R)

static void F(sum)(void *acc, const void *in, size_t ncomp, int in_first)
{
    R *restrict a = acc; /* never the same memory: lets the compiler vectorize */
    const R *restrict b = in;
    if (in_first)
        for (size_t i = 0; i < ncomp; i++)
            a[i] = BLX_ADD(b[i], a[i]);
    else
        for (size_t i = 0; i < ncomp; i++)
            a[i] = BLX_ADD(a[i], b[i]);
}

/* sign of |x| - |y|: for complex, |re| + |im| (spec 5.1) */
static inline int F(cmp_mag)(const R *x, const R *y, int w)
{
    if (w == 2) {
        R mx = BLX_MAG(x[0]) + BLX_MAG(x[1]), my = BLX_MAG(y[0]) + BLX_MAG(y[1]);
        return sign3(mx > my, mx < my);
    }
    return sign3(BLX_MAG(x[0]) > BLX_MAG(y[0]), BLX_MAG(x[0]) < BLX_MAG(y[0]));
}

/* sign of x - y, real part first */
static inline int F(cmp_alg)(const R *x, const R *y, int w)
{
    int c = sign3(x[0] > y[0], x[0] < y[0]);
    return (c != 0 || w == 1) ? c : sign3(x[1] > y[1], x[1] < y[1]);
}

static void F(absext)(void *acc, const void *in, size_t n, int w, int *al, const int *il, int dir,
                      int in_first)
{
    R *a = acc;
    const R *b = in;
    for (size_t i = 0; i < n; i++) {
        int c = dir * F(cmp_mag)(b + w * i, a + w * i, w);
        if (c == 0)
            c = al ? sign3(il[i]<al[i], il[i]> al[i]) : F(cmp_alg)(b + w * i, a + w * i, w);
        /* the first operand stays unless the second is strictly better */
        if (c > 0 || (in_first && c == 0)) {
            memcpy(a + w * i, b + w * i, sizeof(R) * (size_t)w);
            if (al)
                al[i] = il[i];
        }
    }
}

#undef F
#undef OPS_NAME
#undef OPS_NAME2
