/*
 * test/mpi/t_bcast.c [quick] - broadcasts: every TOP x scope x type x shape x
 * grid x source position, element-exact.
 *
 * Grids: 1 x P, P x 1, 2 x 2, 2 x 3 and 3 x 3 where they fit (other
 * processes idle).  Shapes: general (receivers with another LDA, and
 * alternately another M x N of the same size), trapezoids U/L x unit/non-unit
 * with M > N and M < N, and 0 x 0.  For 'M' and 'T' the rings/branches
 * setting is varied.  Every receiver checks every element of its array: the
 * shape's elements equal the source's, everything else (other triangle,
 * diagonal of unit trapezoids, LDA gap, guard zones) keeps its sentinel.  The
 * source's array must be unchanged.
 *
 * Then: one 8 MiB broadcast per TOP on the whole grid (contiguous and packed),
 * and 300 consecutive broadcasts with changing roots, scopes and TOPs,
 * interleaved with unreceived point-to-point messages in the same context, to
 * show that ordering and message IDs keep them apart.
 */
#include "../../topologies/topology.h"
#include "mpitest.h"
#include "typed.h"

/* Every TOP letter the library answers to, the default first (from the
 * registry, whose list the unit tests pin to LAWN 73's). */
static const char *tops;

enum { SENTINEL = 0x5A, GUARD = 32 };

typedef struct {
    char uplo, diag;
    int m, n;
} shape;

static const shape shapes[] = {
    {'G', 'N', 4, 3}, {'U', 'N', 5, 3}, {'U', 'U', 5, 3}, {'U', 'N', 3, 5}, {'U', 'U', 3, 5},
    {'L', 'N', 5, 3}, {'L', 'U', 5, 3}, {'L', 'N', 3, 5}, {'L', 'U', 3, 5}, {'G', 'N', 0, 0},
};

static unsigned char pattern(int src, int salt, size_t k)
{
    return (unsigned char)(src * 53 + salt * 29 + k * 13 + 7);
}

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
} grid;

/* One broadcast: 'src' is the source's grid position (row, col). */
static void one_bcast(const grid *g, const typed_ops *t, char scope, char top, const shape *s, int srow,
                      int scol, int salt)
{
    /* In R (C) scope every row (column) broadcasts at once, from column scol (row srow). */
    int mysrc_row = scope == 'R' ? g->myrow : srow, mysrc_col = scope == 'C' ? g->mycol : scol;
    int am_src = g->myrow == mysrc_row && g->mycol == mysrc_col;
    int src_id = mysrc_row * g->npcol + mysrc_col;
    int reshape = s->uplo == 'G' && (salt % 3 == 1) && s->m * s->n > 0;
    int m = reshape ? s->m * s->n : s->m, n = reshape ? 1 : s->n;
    /* receivers' LDA gap and the Fortran entry points vary independently */
    int lda = am_src ? s->m + salt % 3 : m + 2 * ((salt / 2) % 2);
    if (am_src)
        m = s->m, n = s->n;
    if (lda < 1)
        lda = 1;
    size_t esz = t->esz, body = (size_t)lda * (size_t)(n > 0 ? n : 1) * esz, total = body + 2 * GUARD;
    unsigned char *A = malloc(total);
    char sc[] = {scope, 0}, tp[] = {top, 0}, up[] = {s->uplo, 0}, dg[] = {s->diag, 0};
    if (am_src) {
        for (size_t k = 0; k < total; k++)
            A[k] = pattern(src_id, salt, k);
        if (s->uplo == 'G')
            (salt % 2 ? t->gebs_f : t->gebs)(g->ctxt, sc, tp, m, n, A + GUARD, lda);
        else
            t->trbs(g->ctxt, sc, tp, up, dg, m, n, A + GUARD, lda);
        int changed = 0;
        for (size_t k = 0; k < total; k++)
            changed += A[k] != pattern(src_id, salt, k);
        CHECK(!changed, "scope %c top '%c' %c: the source's array changed (%d bytes)", scope, top, t->letter,
              changed);
        free(A);
        return;
    }
    memset(A, SENTINEL, total);
    if (s->uplo == 'G')
        t->gebr(g->ctxt, sc, tp, m, n, A + GUARD, lda, srow, scol);
    else
        (salt % 2 ? t->trbr_f : t->trbr)(g->ctxt, sc, tp, up, dg, m, n, A + GUARD, lda, srow, scol);

    int src_lda = s->m + salt % 3 < 1 ? 1 : s->m + salt % 3;
    int bad = 0;
    for (size_t k = 0; k < total && bad < 2; k++) {
        unsigned char want = SENTINEL;
        if (k >= GUARD && k < GUARD + body && n > 0) {
            size_t e = (k - GUARD) / esz, b = (k - GUARD) % esz;
            int i = (int)(e % (size_t)lda), j = (int)(e / (size_t)lda);
            if (i < m) {
                /* element (i,j) here is element q in column order of the source's M x N */
                size_t q = (size_t)i + (size_t)j * (size_t)m;
                int si = (int)(q % (size_t)s->m), sj = (int)(q / (size_t)s->m);
                if (in_shape(s->uplo, s->diag, s->m, s->n, si, sj))
                    want = pattern(src_id, salt, GUARD + ((size_t)si + (size_t)sj * src_lda) * esz + b);
            }
        }
        if (A[k] != want) {
            bad++;
            CHECK(0,
                  "grid %dx%d scope %c top '%c' type %c %c%c %dx%d (recv %dx%d lda %d) from {%d,%d}: byte "
                  "%zu is %02x, want %02x",
                  g->nprow, g->npcol, scope, top, t->letter, s->uplo, s->diag, s->m, s->n, m, n, lda,
                  mysrc_row, mysrc_col, k, A[k], want);
        }
    }
    free(A);
}

static void sweep(const grid *g, int quick)
{
    const char scopes[] = "RCA";
    int salt = 0;
    for (int sc = 0; sc < 3; sc++)
        for (const char *tp = tops; *tp; tp++)
            for (int ti = 0; ti < 5; ti++)
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
                    if (quick && (ti + (int)sh) % 3)
                        continue;
                    /* sources: every row/column for R/C, every process for A */
                    int nsrc = scopes[sc] == 'R'   ? g->npcol
                               : scopes[sc] == 'C' ? g->nprow
                                                   : g->nprow * g->npcol;
                    for (int k = 0; k < nsrc; k++, salt++) {
                        int srow = scopes[sc] == 'R' ? 0 : scopes[sc] == 'C' ? k : k / g->npcol;
                        int scol = scopes[sc] == 'R' ? k : scopes[sc] == 'C' ? 0 : k % g->npcol;
                        if (*tp == 'M' ||
                            *tp == 'T') { /* vary the rings/branches setting: M +-1..4, T 1..4 */
                            int v = *tp == 'M' ? (salt % 2 ? -1 : 1) * (1 + (salt / 4) % 4) : 1 + salt % 4;
                            Cblacs_set(g->ctxt, *tp == 'M' ? 11 : 12, &v);
                        }
                        one_bcast(g, all_types[ti], scopes[sc], *tp, &shapes[sh], srow, scol, salt);
                    }
                }
}

/* 8 MiB along every TOP on the whole grid, contiguous and packed (LDA > M),
 * from a different root each time. */
static void big(const grid *g)
{
    size_t n = (size_t)1 << 20;                          /* doubles */
    double *a = malloc((size_t)1025 * 1024 * sizeof *a); /* room for both layouts */
    int root = 0;
    for (const char *tp = tops; *tp; tp++)
        for (int packed = 0; packed <= 1; packed++, root++) {
            char t[] = {*tp, 0};
            int src = root % (g->nprow * g->npcol), sr = src / g->npcol, scl = src % g->npcol;
            int me = g->myrow * g->npcol + g->mycol;
            int m = packed ? 1024 : (int)n, nn = packed ? 1024 : 1, lda = packed ? 1025 : m;
            for (size_t k = 0; k < (size_t)lda * nn; k++)
                a[k] = me == src ? (double)(k * 3 + root) : -1.0;
            if (me == src)
                Cdgebs2d(g->ctxt, "All", t, m, nn, a, lda);
            else
                Cdgebr2d(g->ctxt, "All", t, m, nn, a, lda, sr, scl);
            size_t bad = 0;
            for (int j = 0; j < nn; j++)
                for (int i = 0; i < lda; i++) {
                    size_t k = (size_t)i + (size_t)j * lda;
                    double want = (i < m || me == src) ? (double)(k * 3 + root) : -1.0;
                    bad += a[k] != want;
                }
            CHECK(bad == 0, "8 MiB broadcast, top '%c'%s: %zu wrong elements", *tp, packed ? " (packed)" : "",
                  bad);
        }
    /* 0 x 0 still takes part */
    if (g->myrow == 0 && g->mycol == 0)
        Cdgebs2d(g->ctxt, "A", "S", 0, 0, a, 1);
    else
        Cdgebr2d(g->ctxt, "A", "S", 0, 0, a, 1, 0, 0);
    free(a);
}

/* Broadcasts with changing roots, scopes and TOPs between unreceived
 * point-to-point messages. */
static void interleaved(const grid *g)
{
    int P = g->nprow, Q = g->npcol, me = g->myrow * Q + g->mycol;
    int right = (g->mycol + 1) % Q, left = (g->mycol + Q - 1) % Q;
    for (int k = 0; k < 300; k++) {
        int x[3] = {k, me, -k}, y[3] = {0, 0, 0};
        Cigesd2d(g->ctxt, 3, 1, x, 3, g->myrow, right);
        char scope = "RCA"[k % 3], top[] = {tops[(k * 7) % strlen(tops)], 0}, sc[] = {scope, 0};
        int np = scope == 'R' ? Q : scope == 'C' ? P : P * Q, root = (k * 5) % np;
        int rr = scope == 'R' ? g->myrow : scope == 'C' ? root : root / Q;
        int rc = scope == 'R' ? root : scope == 'C' ? g->mycol : root % Q;
        double v[4];
        int src = rr * Q + rc;
        for (int e = 0; e < 4; e++)
            v[e] = me == src ? k * 10.0 + e + src : -1;
        if (me == src)
            Cdgebs2d(g->ctxt, sc, top, 2, 2, v, 2);
        else
            Cdgebr2d(g->ctxt, sc, top, 2, 2, v, 2, rr, rc);
        for (int e = 0; e < 4; e++)
            CHECK(v[e] == k * 10.0 + e + src, "interleaved %d (scope %c top '%s'): %g", k, scope, top, v[e]);
        Cigerv2d(g->ctxt, 3, 1, y, 3, g->myrow, left);
        CHECK(y[0] == k && y[1] == g->myrow * Q + left && y[2] == -k, "interleaved p2p %d: %d %d %d", k, y[0],
              y[1], y[2]);
    }
}

int main(int argc, char **argv)
{
    tops = blx_algorithm_letters();
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    mpitest_start();
    mt_grid grids[8];
    int ng = mpitest_grids(mt_size, grids);
    for (int gi = 0; gi < ng; gi++) {
        grid g;
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "Row", grids[gi].p, grids[gi].q);
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        if (g.ctxt < 0)
            continue;
        sweep(&g, quick);
        if (!quick && gi == 0)
            big(&g);
        interleaved(&g);
        Cblacs_gridexit(g.ctxt);
    }
    return mpitest_finish("t_bcast");
}
