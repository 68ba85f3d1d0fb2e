/*
 * buffers/pack.c - packing general and trapezoidal shapes; see pack.h.
 */
#include "pack.h"

#include <string.h>

blx_shape blx_shape_ge(int64_t m, int64_t n, int64_t lda, size_t esz)
{
    blx_shape s = {m, n, lda < m ? m : lda, 'G', 0, esz};
    if (s.lda < 1)
        s.lda = 1;
    return s;
}

blx_shape blx_shape_tr(char uplo, int unit, int64_t m, int64_t n, int64_t lda, size_t esz)
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

/* One loop for both directions: copy the bytes [from, from + len) of the
 * packed order between A and buf (buf holds just that range), column run by
 * column run. */
static void copy_range(const blx_shape *s, char *A, char *buf, size_t from, size_t len, int to_buf)
{
    if (s->m <= 0 || s->n <= 0 || len == 0)
        return;
    if (blx_shape_contiguous(s)) {
        if (to_buf)
            memcpy(buf, A + from, len);
        else
            memcpy(A + from, buf, len);
        return;
    }
    size_t col = (size_t)s->lda * s->esz, at = 0; /* at: packed offset of the run */
    for (int64_t j = 0; j < s->n && len > 0; j++) {
        int64_t lo, hi;
        blx_shape_column(s, j, &lo, &hi);
        size_t run = (size_t)(hi - lo) * s->esz;
        if (at + run <= from) {
            at += run;
            continue;
        }
        size_t skip = from > at ? from - at : 0, take = run - skip < len ? run - skip : len;
        char *a = A + (size_t)j * col + (size_t)lo * s->esz + skip;
        if (to_buf)
            memcpy(buf, a, take);
        else
            memcpy(a, buf, take);
        buf += take;
        len -= take;
        from += take;
        at += run;
    }
}

/* The casts drop const only for the shared loop: pack never writes A,
 * unpack never writes buf. */
void blx_pack(const blx_shape *s, const void *A, void *buf)
{
    copy_range(s, (char *)A, buf, 0, blx_shape_bytes(s), 1);
}

void blx_unpack(const blx_shape *s, const void *buf, void *A)
{
    copy_range(s, A, (char *)buf, 0, blx_shape_bytes(s), 0);
}

void blx_pack_part(const blx_shape *s, const void *A, void *buf, size_t from, size_t len)
{
    copy_range(s, (char *)A, buf, from, len, 1);
}

void blx_unpack_part(const blx_shape *s, const void *buf, void *A, size_t from, size_t len)
{
    copy_range(s, A, (char *)buf, from, len, 0);
}
