/*
 * buffers/pack.h - the shapes the BLACS move, and packing them into
 * contiguous buffers.
 *
 * A shape is an M x N block of a column-major array with leading dimension
 * LDA, general ('G') or trapezoidal ('U' upper, 'L' lower, with or without
 * the diagonal).  Every column of every shape is one contiguous run of rows
 * [lo, hi), so packing is a memcpy per column.  The trapezoid is anchored as
 * the reference BLACS do it (spec section 3.3):
 *
 *   upper, M > N:  d = M - N full rows on top    lower, M < N:  d = N - M full
 *                  then an upper triangle                       columns, then a
 *     x x x                                       x x x . .     lower triangle
 *     x x x        element (i,j) is sent iff      x x x x .
 *     x x x        i - j <= d   (unit: <  d)     x x x x x    j - i <= d (unit: < d)
 *     . x x
 *     . . x
 *
 * Dimensions are 64-bit (M, N, LDA of the ILP64 library may exceed 2^31),
 * and offsets are computed in size_t.  Plain C, no MPI: unit-tested on its
 * own.
 */
#ifndef BLX_PACK_H
#define BLX_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "../base/visibility.h"

typedef struct blx_shape {
    int64_t m, n; /* rows, columns (>= 0) */
    int64_t lda;  /* leading dimension, >= max(m, 1) */
    char uplo;    /* 'G' general, 'U' upper or 'L' lower trapezoid */
    char unit;    /* trapezoids: 1 if the diagonal is not transferred */
    size_t esz;   /* bytes per element */
} blx_shape;

/* A general shape; an lda below m is taken as m, as the BLACS do. */
BLX_INTERNAL blx_shape blx_shape_ge(int64_t m, int64_t n, int64_t lda, size_t esz);
/* A trapezoid; uplo/unit already decoded by the caller. */
BLX_INTERNAL blx_shape blx_shape_tr(char uplo, int unit, int64_t m, int64_t n, int64_t lda, size_t esz);

/* Rows [*lo, *hi) of column j that belong to the shape (*lo == *hi if none). */
static inline void blx_shape_column(const blx_shape *s, int64_t j, int64_t *lo, int64_t *hi)
{
    *lo = 0;
    *hi = s->m;
    if (s->uplo == 'U') {
        int64_t d = s->m > s->n ? s->m - s->n : 0;
        int64_t h = j + d + 1 - s->unit;
        *hi = h < 0 ? 0 : (h < s->m ? h : s->m);
    } else if (s->uplo == 'L') {
        int64_t d = s->n > s->m ? s->n - s->m : 0;
        int64_t l = j - d + s->unit;
        *lo = l < 0 ? 0 : (l < s->m ? l : s->m);
    }
}

/* Number of elements the shape holds. */
BLX_INTERNAL size_t blx_shape_count(const blx_shape *s);
static inline size_t blx_shape_bytes(const blx_shape *s) { return blx_shape_count(s) * s->esz; }

/* True when the shape's elements already sit contiguously in A, in packed order. */
static inline int blx_shape_contiguous(const blx_shape *s)
{
    return s->uplo == 'G' && (s->lda == s->m || s->n <= 1);
}

/* A -> buf (blx_shape_bytes(s) bytes) and back.  unpack writes only the
 * shape's elements: the LDA gap and the rest of the block stay untouched. */
BLX_INTERNAL void blx_pack(const blx_shape *s, const void *A, void *buf);
BLX_INTERNAL void blx_unpack(const blx_shape *s, const void *buf, void *A);
/* The same for the bytes [from, from + len) of the packed order only (buf
 * holds just them): a message packed or unpacked piece by piece. */
BLX_INTERNAL void blx_pack_part(const blx_shape *s, const void *A, void *buf, size_t from, size_t len);
BLX_INTERNAL void blx_unpack_part(const blx_shape *s, const void *buf, void *A, size_t from, size_t len);

#endif
