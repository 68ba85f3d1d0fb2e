/*
 * test/mpi/typed.h - the public routines of every type behind one
 * type-erased table, so a test can sweep the five types with one loop.
 * Each entry is a few-line wrapper generated per type; "_f" entries go
 * through the Fortran interface.
 */
#ifndef TEST_TYPED_H
#define TEST_TYPED_H

#include "blacs.h"

typedef struct {
    char letter;
    size_t esz;
    int is_complex, is_int;
    void (*gesd)(int, int, int, void *, int, int, int);
    void (*gerv)(int, int, int, void *, int, int, int);
    void (*trsd)(int, char *, char *, int, int, void *, int, int, int);
    void (*trrv)(int, char *, char *, int, int, void *, int, int, int);
    void (*gesd_f)(int, int, int, void *, int, int, int);
    void (*trrv_f)(int, char *, char *, int, int, void *, int, int, int);
    void (*gebs)(int, char *, char *, int, int, void *, int);
    void (*gebr)(int, char *, char *, int, int, void *, int, int, int);
    void (*trbs)(int, char *, char *, char *, char *, int, int, void *, int);
    void (*trbr)(int, char *, char *, char *, char *, int, int, void *, int, int, int);
    void (*gebs_f)(int, char *, char *, int, int, void *, int);
    void (*trbr_f)(int, char *, char *, char *, char *, int, int, void *, int, int, int);
    void (*gsum)(int, char *, char *, int, int, void *, int, int, int);
    void (*gamx)(int, char *, char *, int, int, void *, int, int *, int *, int, int, int);
    void (*gamn)(int, char *, char *, int, int, void *, int, int *, int *, int, int, int);
    void (*gsum_f)(int, char *, char *, int, int, void *, int, int, int);
    void (*gamx_f)(int, char *, char *, int, int, void *, int, int *, int *, int, int, int);
    /* LAWN 73's extensions */
    void (*gerva)(int, int, int, void *, int, int *, int *);
    void (*trrva)(int, char *, char *, int, int, void *, int, int *, int *);
    void (*gerva_f)(int, int, int, void *, int, int *, int *);
    void (*tuop)(int, char *, char *, char *, char *, int, int, void *, int, int, int, Cblacs_uop_fn *,
                 Cblacs_uop_op *, Cblacs_uop_fn *);
    void (*tuop_f)(int, char *, char *, char *, char *, int, int, void *, int, int, int, Fblacs_uop_fn *,
                   Fblacs_uop_op *, Fblacs_uop_fn *);
} typed_ops;

#define TYPED(v, R, ncomp, isint)                                                                           \
    static void v##_gesd(int c, int m, int n, void *a, int l, int r, int k)                                 \
    {                                                                                                       \
        C##v##gesd2d(c, m, n, (R *)a, l, r, k);                                                             \
    }                                                                                                       \
    static void v##_gerv(int c, int m, int n, void *a, int l, int r, int k)                                 \
    {                                                                                                       \
        C##v##gerv2d(c, m, n, (R *)a, l, r, k);                                                             \
    }                                                                                                       \
    static void v##_trsd(int c, char *u, char *d, int m, int n, void *a, int l, int r, int k)               \
    {                                                                                                       \
        C##v##trsd2d(c, u, d, m, n, (R *)a, l, r, k);                                                       \
    }                                                                                                       \
    static void v##_trrv(int c, char *u, char *d, int m, int n, void *a, int l, int r, int k)               \
    {                                                                                                       \
        C##v##trrv2d(c, u, d, m, n, (R *)a, l, r, k);                                                       \
    }                                                                                                       \
    static void v##_gesd_f(int c, int m, int n, void *a, int l, int r, int k)                               \
    {                                                                                                       \
        v##gesd2d_(&c, &m, &n, (R *)a, &l, &r, &k);                                                         \
    }                                                                                                       \
    static void v##_trrv_f(int c, char *u, char *d, int m, int n, void *a, int l, int r, int k)             \
    {                                                                                                       \
        v##trrv2d_(&c, u, d, &m, &n, (R *)a, &l, &r, &k);                                                   \
    }                                                                                                       \
    static void v##_gebs(int c, char *s, char *t, int m, int n, void *a, int l)                             \
    {                                                                                                       \
        C##v##gebs2d(c, s, t, m, n, (R *)a, l);                                                             \
    }                                                                                                       \
    static void v##_gebr(int c, char *s, char *t, int m, int n, void *a, int l, int r, int k)               \
    {                                                                                                       \
        C##v##gebr2d(c, s, t, m, n, (R *)a, l, r, k);                                                       \
    }                                                                                                       \
    static void v##_trbs(int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int l)           \
    {                                                                                                       \
        C##v##trbs2d(c, s, t, u, d, m, n, (R *)a, l);                                                       \
    }                                                                                                       \
    static void v##_trbr(int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int l, int r,    \
                         int k)                                                                             \
    {                                                                                                       \
        C##v##trbr2d(c, s, t, u, d, m, n, (R *)a, l, r, k);                                                 \
    }                                                                                                       \
    static void v##_gebs_f(int c, char *s, char *t, int m, int n, void *a, int l)                           \
    {                                                                                                       \
        v##gebs2d_(&c, s, t, &m, &n, (R *)a, &l);                                                           \
    }                                                                                                       \
    static void v##_trbr_f(int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int l, int r,  \
                           int k)                                                                           \
    {                                                                                                       \
        v##trbr2d_(&c, s, t, u, d, &m, &n, (R *)a, &l, &r, &k);                                             \
    }                                                                                                       \
    static void v##_gsum(int c, char *s, char *t, int m, int n, void *a, int l, int r, int k)               \
    {                                                                                                       \
        C##v##gsum2d(c, s, t, m, n, (R *)a, l, r, k);                                                       \
    }                                                                                                       \
    static void v##_gamx(int c, char *s, char *t, int m, int n, void *a, int l, int *ra, int *ca, int li,   \
                         int r, int k)                                                                      \
    {                                                                                                       \
        C##v##gamx2d(c, s, t, m, n, (R *)a, l, ra, ca, li, r, k);                                           \
    }                                                                                                       \
    static void v##_gamn(int c, char *s, char *t, int m, int n, void *a, int l, int *ra, int *ca, int li,   \
                         int r, int k)                                                                      \
    {                                                                                                       \
        C##v##gamn2d(c, s, t, m, n, (R *)a, l, ra, ca, li, r, k);                                           \
    }                                                                                                       \
    static void v##_gsum_f(int c, char *s, char *t, int m, int n, void *a, int l, int r, int k)             \
    {                                                                                                       \
        v##gsum2d_(&c, s, t, &m, &n, (R *)a, &l, &r, &k);                                                   \
    }                                                                                                       \
    static void v##_gamx_f(int c, char *s, char *t, int m, int n, void *a, int l, int *ra, int *ca, int li, \
                           int r, int k)                                                                    \
    {                                                                                                       \
        v##gamx2d_(&c, s, t, &m, &n, (R *)a, &l, ra, ca, &li, &r, &k);                                      \
    }                                                                                                       \
    static void v##_gerva(int c, int m, int n, void *a, int l, int *r, int *k)                              \
    {                                                                                                       \
        C##v##gerva2d(c, m, n, (R *)a, l, r, k);                                                            \
    }                                                                                                       \
    static void v##_trrva(int c, char *u, char *d, int m, int n, void *a, int l, int *r, int *k)            \
    {                                                                                                       \
        C##v##trrva2d(c, u, d, m, n, (R *)a, l, r, k);                                                      \
    }                                                                                                       \
    static void v##_gerva_f(int c, int m, int n, void *a, int l, int *r, int *k)                            \
    {                                                                                                       \
        v##gerva2d_(&c, &m, &n, (R *)a, &l, r, k);                                                          \
    }                                                                                                       \
    static void v##_tuop(int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int l, int r,    \
                         int k, Cblacs_uop_fn *fi, Cblacs_uop_op *fo, Cblacs_uop_fn *fp)                    \
    {                                                                                                       \
        C##v##tuop2d(c, s, t, u, d, m, n, (R *)a, l, r, k, fi, fo, fp);                                     \
    }                                                                                                       \
    static void v##_tuop_f(int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int l, int r,  \
                           int k, Fblacs_uop_fn *fi, Fblacs_uop_op *fo, Fblacs_uop_fn *fp)                  \
    {                                                                                                       \
        v##tuop2d_(&c, s, t, u, d, &m, &n, (R *)a, &l, &r, &k, fi, fo, fp);                                 \
    }                                                                                                       \
    static const typed_ops v##_typed = {                                                                    \
        #v[0],      ncomp * sizeof(R), ncomp == 2,  isint,    v##_gesd,  v##_gerv,   v##_trsd,              \
        v##_trrv,   v##_gesd_f,        v##_trrv_f,  v##_gebs, v##_gebr,  v##_trbs,   v##_trbr,              \
        v##_gebs_f, v##_trbr_f,        v##_gsum,    v##_gamx, v##_gamn,  v##_gsum_f, v##_gamx_f,            \
        v##_gerva,  v##_trrva,         v##_gerva_f, v##_tuop, v##_tuop_f};
TYPED(i, int, 1, 1)
TYPED(s, float, 1, 0)
TYPED(d, double, 1, 0)
TYPED(c, float, 2, 0)
TYPED(z, double, 2, 0)
#undef TYPED

static const typed_ops *const all_types[5]
    __attribute__((unused)) = {&i_typed, &s_typed, &d_typed, &c_typed, &z_typed};

/* Element (i,j) of an M x N shape: 'G', or trapezoid 'U'/'L' with diag 'U'/'N' (spec 3.3). */
static inline int in_shape(char uplo, char diag, int m, int n, int i, int j)
{
    if (uplo == 'G')
        return 1;
    int unit = diag == 'U';
    if (uplo == 'U') {
        int d = m > n ? m - n : 0;
        return unit ? i - j < d : i - j <= d;
    }
    int d = n > m ? n - m : 0;
    return unit ? j - i < d : j - i <= d;
}

/* Element k of a buffer of type t, as (re, im) doubles, and back. */
static inline void typed_put(const typed_ops *t, void *buf, size_t k, double re, double im)
{
    switch (t->letter) {
    case 'i': ((int *)buf)[k] = (int)re; break;
    case 's': ((float *)buf)[k] = (float)re; break;
    case 'd': ((double *)buf)[k] = re; break;
    case 'c':
        ((float *)buf)[2 * k] = (float)re;
        ((float *)buf)[2 * k + 1] = (float)im;
        break;
    default:
        ((double *)buf)[2 * k] = re;
        ((double *)buf)[2 * k + 1] = im;
        break;
    }
}

static inline void typed_get(const typed_ops *t, const void *buf, size_t k, double *re, double *im)
{
    *im = 0;
    switch (t->letter) {
    case 'i': *re = ((const int *)buf)[k]; break;
    case 's': *re = ((const float *)buf)[k]; break;
    case 'd': *re = ((const double *)buf)[k]; break;
    case 'c':
        *re = ((const float *)buf)[2 * k];
        *im = ((const float *)buf)[2 * k + 1];
        break;
    default:
        *re = ((const double *)buf)[2 * k];
        *im = ((const double *)buf)[2 * k + 1];
        break;
    }
}

#endif
