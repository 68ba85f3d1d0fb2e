/*
 * blacs/uop.c - calling the user's functions of vTUOP2D; see uop.h.
 *
 * A vector longer than the largest int is handed over in several calls,
 * each of whole units (columns of a general matrix), as the combine's
 * pieces are.
 */
#include "uop.h"

#include <limits.h>
#include <stdint.h>

/* The elements the next call gets, of the n left: all, or the most whole
 * units a blacs_int can count (a unit, M, is a blacs_int itself). */
static size_t chunk_of(const blx_uop_run *r, size_t n)
{
    size_t top = sizeof(blacs_int) < sizeof(int64_t) ? (size_t)INT_MAX : (size_t)INT64_MAX;
    size_t most = top / r->unit * r->unit;
    return n < most ? n : most;
}

void blx_uop_apply(const blx_uop_run *r, int post, void *v, size_t n)
{
    const blx_uop *u = r->u;
    char *p = v;
    for (size_t done = 0, k; done < n; done += k, p += k * r->esz) {
        k = chunk_of(r, n - done);
        blacs_int ki = (blacs_int)k;
        if (u->iface == BLX_IFACE_C && !post && u->fn.c.init)
            u->fn.c.init(ki, p);
        else if (u->iface == BLX_IFACE_C && post && u->fn.c.post)
            u->fn.c.post(ki, p);
        else if (u->iface == BLX_IFACE_F77 && !post)
            u->fn.f.init(&ki, p);
        else if (u->iface == BLX_IFACE_F77)
            u->fn.f.post(&ki, p);
    }
}

void blx_uop_merge(const void *run, void *acc, const void *in, size_t bytes, int in_first)
{
    const blx_uop_run *r = run;
    (void)in_first;
    char *a = acc;
    char *b = (char *)in; /* Fortran's B has no const; OP must not write it */
    size_t n = bytes / r->esz;
    for (size_t done = 0, k; done < n; done += k, a += k * r->esz, b += k * r->esz) {
        k = chunk_of(r, n - done);
        blacs_int ki = (blacs_int)k;
        if (r->u->iface == BLX_IFACE_C)
            r->u->fn.c.op(ki, a, b);
        else
            r->u->fn.f.op(&ki, a, b);
    }
}
