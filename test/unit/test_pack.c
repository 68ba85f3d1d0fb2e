/*
 * test/unit/test_pack.c - general and trapezoidal shapes (buffers/pack),
 * without MPI.
 *
 * Every shape (G; U/L x unit/non-unit) of every size up to 9 x 9, with
 * LDA = M and LDA > M, for element sizes 4, 8 and 16, is compared with the
 * definition of spec section 3.3 written out element by element: the element
 * count, the packed order (column by column), that pack writes nothing past
 * the packed elements, and that unpack writes exactly the shape's elements
 * and nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "../../buffers/pack.h"
#include "check.h"

/* Spec 3.3: is (i, j) part of the shape? */
static int in_shape(char uplo, int unit, int m, int n, int i, int j)
{
    if (uplo == 'G')
        return 1;
    if (uplo == 'U') {
        int d = m > n ? m - n : 0;
        return unit ? i - j < d : i - j <= d;
    }
    int d = n > m ? n - m : 0;
    return unit ? j - i < d : j - i <= d;
}

static void check_shape(char uplo, int unit, int m, int n, int lda, size_t esz)
{
    blx_shape s = uplo == 'G' ? blx_shape_ge(m, n, lda, esz) : blx_shape_tr(uplo, unit, m, n, lda, esz);
    int ld = s.lda;
    size_t cells = (size_t)ld * (size_t)(n > 0 ? n : 1) * esz;
    enum { TAIL = 64 }; /* sentinel bytes past what pack and unpack may write */
    unsigned char *A = malloc(cells + TAIL), *B = malloc(cells + TAIL), *buf = malloc(cells + TAIL);
    for (size_t k = 0; k < cells; k++)
        A[k] = (unsigned char)(k * 37 + 11);
    memset(buf, 0xC3, cells + TAIL);

    /* brute-force expectation */
    size_t count = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            count += in_shape(uplo, unit, m, n, i, j);
    CHECK(blx_shape_count(&s) == count, "%c unit=%d %dx%d: count %zu, expected %zu", uplo, unit, m, n,
          blx_shape_count(&s), count);
    if (uplo != 'G' && m > 0 && n > 0) { /* spec's closed form */
        size_t k = (size_t)(m < n ? m : n), big = (size_t)(m > n ? m : n);
        CHECK(count == k * (big - k) + k * (k + 1) / 2 - (unit ? k : 0), "closed form %c %dx%d", uplo, m, n);
    }

    blx_pack(&s, A, buf);
    size_t pos = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            if (in_shape(uplo, unit, m, n, i, j)) {
                CHECK(memcmp(buf + pos * esz, A + ((size_t)i + (size_t)j * ld) * esz, esz) == 0,
                      "%c unit=%d %dx%d lda=%d: packed element %zu is not A(%d,%d)", uplo, unit, m, n, ld,
                      pos, i, j);
                pos++;
            }
    size_t past = 0; /* pack writes count * esz bytes and nothing after them */
    for (size_t k = count * esz; k < cells + TAIL; k++)
        past += buf[k] != 0xC3;
    CHECK(past == 0, "%c unit=%d %dx%d lda=%d esz=%zu: pack wrote %zu bytes past its %zu elements", uplo,
          unit, m, n, ld, esz, past, count);

    memset(B, 0xEE, cells + TAIL);
    blx_unpack(&s, buf, B);
    for (int j = 0; j < (n > 0 ? n : 0); j++)
        for (int i = 0; i < ld; i++) {
            size_t off = ((size_t)i + (size_t)j * ld) * esz;
            int inside = i < m && in_shape(uplo, unit, m, n, i, j);
            unsigned char want = inside ? A[off] : 0xEE;
            int ok = 1;
            for (size_t b = 0; b < esz; b++)
                ok &= (inside ? B[off + b] == A[off + b] : B[off + b] == 0xEE);
            CHECK(ok, "%c unit=%d %dx%d lda=%d: unpack element (%d,%d) %s (want %02x)", uplo, unit, m, n, ld,
                  i, j, inside ? "wrong" : "touched outside the shape", want);
        }
    past = 0; /* nor does unpack write after the last column */
    for (size_t k = (size_t)ld * (size_t)(n > 0 ? n : 0) * esz; k < cells + TAIL; k++)
        past += B[k] != 0xEE;
    CHECK(past == 0, "%c unit=%d %dx%d lda=%d: unpack wrote %zu bytes past the matrix", uplo, unit, m, n, ld,
          past);
    CHECK(blx_shape_contiguous(&s) == (uplo == 'G' && (ld == m || n <= 1)), "contiguity");
    free(A);
    free(B);
    free(buf);
}

/* Dimensions beyond 2^31 (the ILP64 library's M, N, LDA): counts and
 * column runs in 64-bit arithmetic, no int overflow. */
static void big_shapes(void)
{
    const int64_t G = (int64_t)1 << 31, T = (int64_t)1 << 32;
    blx_shape s = blx_shape_ge(G + 5, 3, G + 9, 16);
    CHECK(blx_shape_count(&s) == (size_t)(G + 5) * 3 && blx_shape_bytes(&s) == (size_t)(G + 5) * 48,
          "G (2^31+5) x 3: %zu elements", blx_shape_count(&s));
    CHECK(s.lda == G + 9 && !blx_shape_contiguous(&s), "G lda 2^31+9 kept: %lld", (long long)s.lda);
    s = blx_shape_ge(G + 5, 3, 7, 8); /* lda < m taken as m, beyond 2^31 */
    CHECK(s.lda == G + 5 && blx_shape_contiguous(&s), "lda < m = 2^31+5 gave %lld", (long long)s.lda);
    s = blx_shape_tr('U', 0, 3 * G, 2, 3 * G, 8); /* k = 2: 2 (3G - 2) + 3 */
    CHECK(blx_shape_count(&s) == (size_t)(6 * G - 1), "U (3*2^31) x 2: %zu elements", blx_shape_count(&s));
    int64_t lo, hi;
    blx_shape_column(&s, 1, &lo, &hi);
    CHECK(lo == 0 && hi == 3 * G, "U (3*2^31) x 2 column 1: rows [%lld,%lld)", (long long)lo, (long long)hi);
    blx_shape_column(&s, 0, &lo, &hi);
    CHECK(lo == 0 && hi == 3 * G - 1, "U (3*2^31) x 2 column 0: rows [%lld,%lld)", (long long)lo,
          (long long)hi);
    s = blx_shape_tr('L', 1, 3, T + 10, 3, 4); /* d = 2^32 + 7 full columns, then a unit triangle */
    blx_shape_column(&s, T + 9, &lo, &hi);
    CHECK(lo == 3 && hi == 3, "L unit 3 x (2^32+10), last column: rows [%lld,%lld)", (long long)lo,
          (long long)hi);
    blx_shape_column(&s, T + 8, &lo, &hi);
    CHECK(lo == 2 && hi == 3, "L unit 3 x (2^32+10), column 2^32+8: rows [%lld,%lld)", (long long)lo,
          (long long)hi);
    CHECK(blx_shape_count(&s) == (size_t)(T + 7) * 3 + 3, "L unit 3 x (2^32+10): %zu elements",
          blx_shape_count(&s));
}

int main(void)
{
    const char uplos[] = {'G', 'U', 'L'};
    const size_t eszs[] = {4, 8, 16};
    for (size_t e = 0; e < 3; e++)
        for (int u = 0; u < 3; u++)
            for (int unit = 0; unit <= (uplos[u] != 'G'); unit++)
                for (int m = 0; m <= 9; m++)
                    for (int n = 0; n <= 9; n++) {
                        check_shape(uplos[u], unit, m, n, m, eszs[e]);
                        check_shape(uplos[u], unit, m, n, m + 3, eszs[e]);
                    }
    /* the two pictures of spec 3.3 */
    blx_shape s = blx_shape_tr('U', 0, 5, 3, 5, 8);
    int64_t lo, hi;
    blx_shape_column(&s, 0, &lo, &hi);
    CHECK(lo == 0 && hi == 3, "U 5x3 column 0: rows [%lld,%lld)", (long long)lo, (long long)hi);
    s = blx_shape_tr('L', 1, 3, 5, 3, 8);
    blx_shape_column(&s, 4, &lo, &hi);
    CHECK(lo == 3 && hi == 3, "L unit 3x5 column 4: rows [%lld,%lld)", (long long)lo, (long long)hi);
    /* LDA below M is taken as M */
    s = blx_shape_ge(4, 2, 1, 8);
    CHECK(s.lda == 4 && blx_shape_contiguous(&s), "lda < m gave lda %lld", (long long)s.lda);
    big_shapes();
    printf("test_pack: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
