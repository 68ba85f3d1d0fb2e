/*
 * test/mpi/t_p2p.c - every point-to-point routine x type x shape x grid.
 *
 * On each grid that fits (1 x P, P x 1, 2 x 2, 2 x 3, 3 x 3; the other
 * processes idle), every process sends to the process (dr, dc) away and
 * receives from the one (-dr, -dc) away, for the shifts (0,0) (itself),
 * (0,1), (1,0) and (1,1).  Shapes: general with LDA = M and LDA > M, M or N
 * zero, trapezoids U/L x unit/non-unit with M > N, M < N and M = N.  The
 * receiver uses another LDA than the sender; every received element must be
 * the sender's, byte for byte, and every element outside the shape, in the
 * LDA gap or past the end must keep its sentinel.  Both the C and the
 * Fortran entry points are used.  Also: FIFO order of several messages of
 * different shapes and types, and a receive with another M x N of the same
 * size (spec 3.1).
 */
#include "mpitest.h"
#include "typed.h"

enum { SENTINEL = 0xA5 };

typedef typed_ops ops;

typedef struct {
    char uplo; /* 'G', 'U', 'L' */
    char diag; /* 'U', 'N' */
    int m, n;
} shape;

static unsigned char pattern(int sender, int salt, size_t byte)
{
    return (unsigned char)(sender * 37 + salt * 11 + byte * 7 + 1);
}

/* Buffer for an lda x n matrix with a guard zone before and after. */
enum { GUARD = 64 };
static size_t mat_bytes(int lda, int n, size_t esz)
{
    return ((size_t)lda * (size_t)(n > 0 ? n : 1)) * esz + 2 * GUARD;
}

/* variant: bit 0 the sender's LDA > M, bit 1 the receiver's LDA > M, bit 2
 * the Fortran entry points (GESD2D for general shapes, TRRV2D for
 * trapezoids; the other side in C). */
static void one_case(int ctxt, const ops *t, const shape *s, int dr, int dc, int salt, int variant)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int rd = (myrow + dr) % nprow, cd = (mycol + dc) % npcol;
    int rs = (myrow - dr + nprow) % nprow, cs = (mycol - dc + npcol) % npcol;
    int me = myrow * npcol + mycol, src = rs * npcol + cs;
    int lda_s = s->m + (variant & 1 ? 3 : 0), lda_r = s->m + (variant & 2 ? 2 : 0);
    if (lda_s < 1)
        lda_s = 1;
    if (lda_r < 1)
        lda_r = 1;
    size_t esz = t->esz;
    size_t bs = mat_bytes(lda_s, s->n, esz), br = mat_bytes(lda_r, s->n, esz);
    unsigned char *A = malloc(bs), *B = malloc(br);
    for (size_t k = 0; k < bs; k++)
        A[k] = pattern(me, salt, k);
    memset(B, SENTINEL, br);
    char uplo[] = {s->uplo, 0}, diag[] = {s->diag, 0};
    int use_f = variant & 4; /* half the cases go through the Fortran entry points */

    if (s->uplo == 'G')
        (use_f ? t->gesd_f : t->gesd)(ctxt, s->m, s->n, A + GUARD, lda_s, rd, cd);
    else
        t->trsd(ctxt, uplo, diag, s->m, s->n, A + GUARD, lda_s, rd, cd);
    memset(A, 0, bs); /* the send is locally blocking: A is ours again */
    if (s->uplo == 'G')
        t->gerv(ctxt, s->m, s->n, B + GUARD, lda_r, rs, cs);
    else
        (use_f ? t->trrv_f : t->trrv)(ctxt, uplo, diag, s->m, s->n, B + GUARD, lda_r, rs, cs);

    int bad = 0;
    for (size_t k = 0; k < br && bad < 3; k++) {
        size_t e = k < GUARD ? 0 : (k - GUARD) / esz;
        int inside = k >= GUARD && k < br - GUARD && s->n > 0;
        int i = inside ? (int)(e % (size_t)lda_r) : 0, j = inside ? (int)(e / (size_t)lda_r) : 0;
        inside = inside && i < s->m && j < s->n && in_shape(s->uplo, s->diag, s->m, s->n, i, j);
        unsigned char want = SENTINEL;
        if (inside)
            want = pattern(src, salt, GUARD + ((size_t)i + (size_t)j * lda_s) * esz + (k - GUARD) % esz);
        if (B[k] != want) {
            bad++;
            CHECK(0,
                  "%c %c%c %dx%d lda %d->%d shift (%d,%d) from {%d,%d}: byte %zu (elem %d,%d) is %02x, want "
                  "%02x%s",
                  t->letter, s->uplo, s->diag, s->m, s->n, lda_s, lda_r, dr, dc, rs, cs, k, i, j, B[k], want,
                  inside ? "" : " (outside the shape)");
        }
    }
    free(A);
    free(B);
}

/* Several messages of different types and shapes to one destination arrive in order. */
static void check_fifo(int ctxt)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int rd = myrow, cd = (mycol + 1) % npcol, cs = (mycol + npcol - 1) % npcol;
    int x[20], y[20];
    double d[6], e[6];
    for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 20; k++)
            x[k] = round * 1000 + k;
        for (int k = 0; k < 6; k++)
            d[k] = round + 0.5 * k;
        Cigesd2d(ctxt, 20, 1, x, 20, rd, cd);
        Cdtrsd2d(ctxt, "L", "N", 3, 2, d, 3, rd, cd);
        Cigesd2d(ctxt, 0, 0, x, 1, rd, cd);
    }
    for (int round = 0; round < 20; round++) {
        memset(e, 0, sizeof e);
        Cigerv2d(ctxt, 20, 1, y, 20, myrow, cs);
        Cdtrrv2d(ctxt, "l", "n", 3, 2, e, 3, myrow, cs);
        Cigerv2d(ctxt, 0, 0, y, 1, myrow, cs);
        CHECK(y[0] == round * 1000 && y[19] == round * 1000 + 19, "fifo round %d got %d", round, y[0]);
        CHECK(e[0] == round && e[2] == round + 1.0 && e[3] == 0 && e[5] == round + 2.5,
              "fifo round %d trapezoid %g %g %g %g", round, e[0], e[2], e[3], e[5]);
    }
}

/* A 2 x 3 matrix received as 6 x 1 and as 3 x 2 with LDA 4 (same count). */
static void check_reshape(int ctxt)
{
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {0}, c[8];
    Cdgesd2d(ctxt, 2, 3, a, 2, myrow, mycol);
    Cdgesd2d(ctxt, 2, 3, a, 2, myrow, mycol);
    Cdgerv2d(ctxt, 6, 1, b, 6, myrow, mycol);
    for (int k = 0; k < 8; k++)
        c[k] = -1;
    Cdgerv2d(ctxt, 3, 2, c, 4, myrow, mycol);
    for (int k = 0; k < 6; k++)
        CHECK(b[k] == k + 1, "reshape 6x1: b[%d] = %g", k, b[k]);
    CHECK(c[0] == 1 && c[2] == 3 && c[3] == -1 && c[4] == 4 && c[6] == 6 && c[7] == -1,
          "reshape 3x2 lda 4: %g %g %g %g %g %g", c[0], c[2], c[3], c[4], c[6], c[7]);
}

int main(void)
{
    mpitest_start();
    const shape shapes[] = {
        {'G', 'N', 5, 3}, {'G', 'N', 3, 5}, {'G', 'N', 1, 1}, {'G', 'N', 7, 1}, {'G', 'N', 0, 4},
        {'G', 'N', 4, 0}, {'G', 'N', 0, 0}, {'U', 'N', 5, 3}, {'U', 'U', 5, 3}, {'U', 'N', 3, 5},
        {'U', 'U', 3, 5}, {'U', 'N', 4, 4}, {'U', 'U', 4, 4}, {'L', 'N', 5, 3}, {'L', 'U', 5, 3},
        {'L', 'N', 3, 5}, {'L', 'U', 3, 5}, {'L', 'N', 4, 4}, {'L', 'U', 4, 4}, {'U', 'N', 0, 3},
        {'L', 'U', 2, 0},
    };
    const int shifts[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    mt_grid grids[8];
    int ng = mpitest_grids(mt_size, grids);
    for (int g = 0; g < ng; g++) {
        int ctxt;
        Cblacs_get(0, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", grids[g].p, grids[g].q);
        if (ctxt < 0)
            continue; /* idle on this grid */
        /* the variant (sender's LDA, receiver's LDA, entry points) turns
         * with the shape, so that every shift, the send to itself included,
         * meets all eight */
        int salt = 0;
        for (size_t t = 0; t < 5; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int h = 0; h < 4; h++, salt++)
                    one_case(ctxt, all_types[t], &shapes[s], shifts[h][0], shifts[h][1], salt,
                             (salt / 4 + h) % 8);
        check_fifo(ctxt);
        check_reshape(ctxt);
        Cblacs_gridexit(ctxt);
    }
    return mpitest_finish("t_p2p");
}
