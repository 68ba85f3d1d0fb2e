/*
 * buffers/pack.c - packing general and trapezoidal shapes; see pack.h.
 */
#include "pack.h"

#include <string.h>

blx_shape blx_shape_ge(int m, int n, int lda, size_t esz)
{
    blx_shape s = {m, n, lda < m ? m : lda, 'G', 0, esz};
    if (s.lda < 1)
        s.lda = 1;
    return s;
}

blx_shape blx_shape_tr(char uplo, int unit, int m, int n, int lda, size_t esz)
{
    blx_shape s = blx_shape_ge(m, n, lda, esz);
    s.uplo = uplo;
    s.unit = (char)(unit != 0);
    return s;
}

size_t blx_shape_count(const blx_shape *s)
{
    if (s->m <= 0 || s->n <= 0)
        return 0;
    if (s->uplo == 'G')
        return (size_t)s->m * (size_t)s->n;
    /* k*(max(M,N) - k) + k*(k+1)/2 - unit*k with k = min(M, N) */
    size_t k = (size_t)(s->m < s->n ? s->m : s->n);
    size_t big = (size_t)(s->m > s->n ? s->m : s->n);
    return k * (big - k) + k * (k + 1) / 2 - (s->unit ? k : 0);
}

/* One loop for both directions: copy each column's run between A and buf. */
static void copy_columns(const blx_shape *s, char *A, char *buf, int to_buf)
{
    if (s->m <= 0 || s->n <= 0)
        return;
    if (blx_shape_contiguous(s)) {
        size_t bytes = (size_t)s->m * (size_t)s->n * s->esz;
        if (to_buf)
            memcpy(buf, A, bytes);
        else
            memcpy(A, buf, bytes);
        return;
    }
    size_t col = (size_t)s->lda * s->esz;
    for (int j = 0; j < s->n; j++) {
        int lo, hi;
        blx_shape_column(s, j, &lo, &hi);
        size_t len = (size_t)(hi - lo) * s->esz;
        char *a = A + (size_t)j * col + (size_t)lo * s->esz;
        if (len == 0)
            continue;
        if (to_buf)
            memcpy(buf, a, len);
        else
            memcpy(a, buf, len);
        buf += len;
    }
}

/* The casts drop const only for the shared loop: pack never writes A,
 * unpack never writes buf. */
void blx_pack(const blx_shape *s, const void *A, void *buf) { copy_columns(s, (char *)A, buf, 1); }

void blx_unpack(const blx_shape *s, const void *buf, void *A) { copy_columns(s, A, (char *)buf, 0); }
