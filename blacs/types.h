/*
 * blacs/types.h - the one list of BLACS element types.
 *
 * Every per-type routine (the C and Fortran entry points, the combine element
 * operations) is generated from this list; nothing else spells the types out.
 *
 *   X(letter, LETTER, R, complex)
 *     letter   prefix of the routine names (Cdgesd2d, dgesd2d_)
 *     R        the C type of the public A argument: complex data is passed
 *              as interleaved (re, im) pairs of R, as in the reference; the
 *              integer type is blacs_int (int, or int64_t in the ILP64
 *              library: a Fortran INTEGER either way)
 *     complex  1 for c and z
 */
#ifndef BLX_TYPES_H
#define BLX_TYPES_H

#include <stddef.h>

#include "../base/visibility.h"
#include "blacs.h"

#define BLX_FOR_EACH_TYPE(X) \
    X(i, I, blacs_int, 0)    \
    X(s, S, float, 0)        \
    X(d, D, double, 0)       \
    X(c, C, float, 1)        \
    X(z, Z, double, 1)

typedef enum blx_type {
#define BLX_TYPE_ENUM(v, V, R, cplx) BLX_T_##V,
    BLX_FOR_EACH_TYPE(BLX_TYPE_ENUM)
#undef BLX_TYPE_ENUM
        BLX_NTYPES
} blx_type;

typedef struct blx_typeinfo {
    char letter; /* 'i', 's', 'd', 'c', 'z' */
    int is_complex;
    size_t esz; /* bytes per element (a complex element is two R) */
} blx_typeinfo;

BLX_INTERNAL extern const blx_typeinfo blx_types[BLX_NTYPES];

#endif
