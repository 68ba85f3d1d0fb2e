/*
 * tools/lacon_fix.c - the upstream fix of ScaLAPACK's P?LACON (2.2.3,
 * Reference-ScaLAPACK pull request 122), for testing on an older
 * ScaLAPACK: preloaded, it sets EST to zero before every call of PSLACON,
 * PDLACON, PCLACON and PZLACON, as 2.2.3's first statement does, then
 * calls ScaLAPACK's own.
 *
 * ScaLAPACK 2.2.1 (Debian 12's) reads EST on entry although its callers
 * (P?GERFS, P?PORFS, ...) pass a local variable they never set: whatever
 * lies on the stack there decides a branch, and the processes of a grid
 * take different ones when it differs between them (issue 121 upstream:
 * xsllt and xslu hang or fail, with the reference BLACS too; here xsllt
 * hung in 3 of 3 runs with the reference).  make stress runs the test
 * programs that meet it (test/stress.sh: xsllt) with this preloaded.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

/* The real ones take ISGN before EST; the complex ones do not. */
typedef void real_lacon(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx,
                        void *descx, void *isgn, void *est, void *kase);
typedef void complex_lacon(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx,
                           void *descx, void *est, void *kase);

#define REAL_LACON(name, real_t)                                                                           \
    void name(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx, void *descx, \
              void *isgn, real_t *est, void *kase);                                                        \
    void name(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx, void *descx, \
              void *isgn, real_t *est, void *kase)                                                         \
    {                                                                                                      \
        static real_lacon *scalapack;                                                                      \
        if (scalapack == NULL)                                                                             \
            scalapack = (real_lacon *)dlsym(RTLD_NEXT, #name);                                             \
        *est = 0;                                                                                          \
        scalapack(n, v, iv, jv, descv, x, ix, jx, descx, isgn, est, kase);                                 \
    }
#define COMPLEX_LACON(name, real_t)                                                                        \
    void name(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx, void *descx, \
              real_t *est, void *kase);                                                                    \
    void name(void *n, void *v, void *iv, void *jv, void *descv, void *x, void *ix, void *jx, void *descx, \
              real_t *est, void *kase)                                                                     \
    {                                                                                                      \
        static complex_lacon *scalapack;                                                                   \
        if (scalapack == NULL)                                                                             \
            scalapack = (complex_lacon *)dlsym(RTLD_NEXT, #name);                                          \
        *est = 0;                                                                                          \
        scalapack(n, v, iv, jv, descv, x, ix, jx, descx, est, kase);                                       \
    }

REAL_LACON(pslacon_, float)
REAL_LACON(pdlacon_, double)
COMPLEX_LACON(pclacon_, float)
COMPLEX_LACON(pzlacon_, double)
