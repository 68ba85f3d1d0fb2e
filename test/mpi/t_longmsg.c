/*
 * test/mpi/t_longmsg.c - the long-message algorithms the default TOP ' '
 * switches to: scatter + allgather broadcasts (from 512 KiB on scopes of 3
 * or more) and reduce-scatter based combines (leave-on-all from 64 KiB,
 * leave-on-one from 256 KiB, without locations).
 *
 * Sizes just below, at and above the switches, with element counts that do
 * not divide by the scope size; every scope, every source and destination;
 * contiguous, LDA > M and trapezoidal broadcasts; SUM (exact integer values),
 * AMX without locations, and AMX with locations (which must stay on the
 * short-message algorithms); the same results bitwise on every process of a
 * leave-on-all combine and on repeated runs; a non-destination's A untouched.
 */
#include <math.h>
#include <stdint.h>
#include <sys/mman.h>

#include "mpitest.h"
#include "typed.h"

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
} grid;

static int scope_size(const grid *g, char scope) { return scope == 'R' ? g->npcol : scope == 'C' ? g->nprow : g->nprow * g->npcol; }
static int scope_me(const grid *g, char scope) { return scope == 'R' ? g->mycol : scope == 'C' ? g->myrow : g->myrow * g->npcol + g->mycol; }
static void coords(const grid *g, char scope, int k, int *r, int *c)
{
    *r = scope == 'R' ? g->myrow : scope == 'C' ? k : k / g->npcol;
    *c = scope == 'R' ? k : scope == 'C' ? g->mycol : k % g->npcol;
}

static double val(int who, long k) { return (double)((who * 131 + k * 7) % 1001 - 500); }

static void bcasts(const grid *g)
{
    const long sizes[] = {(512 << 10) / 8 - 1, (512 << 10) / 8, (512 << 10) / 8 + 3, (3 << 20) / 8 + 1};
    const char *scopes = "RCA";
    for (int si = 0; si < 3; si++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            char scope = scopes[si], sc[] = {scope, 0};
            int np = scope_size(g, scope), me = scope_me(g, scope);
            for (int root = 0; root < np; root += (np > 3 ? 2 : 1)) {
                int layout = (int)(z + (size_t)root) % 3; /* contiguous, LDA > M, trapezoid */
                long n = sizes[z];
                int m = layout == 0 ? (int)n : 509, cols = layout == 0 ? 1 : (int)((n + 508) / 509);
                int lda = layout == 1 ? m + 5 : m;
                size_t cells = (size_t)lda * cols;
                double *a = malloc(cells * sizeof *a);
                int r, c;
                coords(g, scope, root, &r, &c);
                int src = r * g->npcol + c;
                for (size_t k = 0; k < cells; k++)
                    a[k] = me == root ? val(src, (long)k) : -9999.0;
                if (layout < 2) {
                    if (me == root)
                        Cdgebs2d(g->ctxt, sc, " ", m, cols, a, lda);
                    else
                        Cdgebr2d(g->ctxt, sc, " ", m, cols, a, lda, r, c);
                } else {
                    if (me == root)
                        Cdtrbs2d(g->ctxt, sc, " ", "L", "N", m, cols, a, lda);
                    else
                        Cdtrbr2d(g->ctxt, sc, " ", "L", "N", m, cols, a, lda, r, c);
                }
                long bad = 0;
                for (int j = 0; j < cols; j++)
                    for (int i = 0; i < lda; i++) {
                        size_t k = (size_t)i + (size_t)j * lda;
                        int inside = i < m && (layout < 2 || in_shape('L', 'N', m, cols, i, j));
                        double want = (inside || me == root) ? val(src, (long)k) : -9999.0;
                        bad += a[k] != want;
                    }
                CHECK(bad == 0, "broadcast scope %c from member %d, %ld doubles, layout %d: %ld wrong", scope, root, n,
                      layout, bad);
                free(a);
            }
        }
}

static void combines(const grid *g)
{
    const long sizes[] = {(64 << 10) / 8 - 1, (64 << 10) / 8 + 1, (256 << 10) / 8 + 5, (1 << 20) / 8 + 3};
    const char *scopes = "RCA";
    for (int si = 0; si < 3; si++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            char scope = scopes[si], sc[] = {scope, 0};
            int np = scope_size(g, scope), me = scope_me(g, scope);
            long n = sizes[z];
            double *a = malloc((size_t)n * 2 * sizeof *a), *first = malloc((size_t)n * 2 * sizeof *a);
            for (int dest = -1; dest < np; dest += (np > 3 ? 2 : 1)) {
                int rd = -1, cd = -1;
                if (dest >= 0)
                    coords(g, scope, dest, &rd, &cd);
                /* SUM of exact values, double complex (two doubles per element) */
                {
                    for (long k = 0; k < 2 * n; k++)
                        a[k] = val(g->myrow * g->npcol + g->mycol, k);
                    Czgsum2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, rd, cd);
                    if (dest < 0 || me == dest) {
                        long bad = 0;
                        for (long k = 0; k < 2 * n; k++) {
                            double want = 0;
                            for (int q = 0; q < np; q++) {
                                int r, c;
                                coords(g, scope, q, &r, &c);
                                want += val(r * g->npcol + c, k);
                            }
                            bad += a[k] != want;
                        }
                        CHECK(bad == 0, "zgsum2d scope %c dest %d, %ld elements: %ld wrong", scope, dest, n, bad);
                    } else { /* a contiguous A is lent to the combine read-only */
                        long bad = 0;
                        for (long k = 0; k < 2 * n; k++)
                            bad += a[k] != val(g->myrow * g->npcol + g->mycol, k);
                        CHECK(bad == 0, "zgsum2d scope %c dest %d: %ld elements of a non-destination's A changed",
                              scope, dest, bad);
                    }
                }
                /* repeated runs give the same bits, and leave-on-all the same everywhere */
                for (long k = 0; k < n; k++)
                    a[k] = val(g->myrow * g->npcol + g->mycol, k) * 1.000000001 + 1e-7 * k;
                Cdgsum2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, rd, cd);
                memcpy(first, a, (size_t)n * sizeof *a);
                for (long k = 0; k < n; k++)
                    a[k] = val(g->myrow * g->npcol + g->mycol, k) * 1.000000001 + 1e-7 * k;
                Cdgsum2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, rd, cd);
                if (dest < 0 || me == dest)
                    CHECK(memcmp(first, a, (size_t)n * sizeof *a) == 0, "dgsum2d scope %c dest %d not repeatable",
                          scope, dest);
                /* AMX without locations: element k's largest |value| */
                for (long k = 0; k < n; k++)
                    a[k] = val(g->myrow * g->npcol + g->mycol, k);
                Cdgamx2d(g->ctxt, sc, " ", (int)n, 1, a, (int)n, NULL, NULL, -1, rd, cd);
                if (dest < 0 || me == dest) {
                    long bad = 0;
                    for (long k = 0; k < n; k++) {
                        double best = 0;
                        int have = 0;
                        for (int q = 0; q < np; q++) {
                            int r, c;
                            coords(g, scope, q, &r, &c);
                            double v = val(r * g->npcol + c, k);
                            if (!have || fabs(v) > fabs(best) || (fabs(v) == fabs(best) && v > best))
                                best = v, have = 1;
                        }
                        bad += a[k] != best;
                    }
                    CHECK(bad == 0, "dgamx2d scope %c dest %d, %ld elements: %ld wrong", scope, dest, n, bad);
                }
            }
            free(a);
            free(first);
        }
}

/* A broadcast only reads the source's matrix: a read-only one works. */
static void readonly_source(const grid *g)
{
    size_t bytes = (size_t)1 << 20, page = 4096;
    char *raw = malloc(bytes + page);
    double *a = (double *)(((uintptr_t)raw + page - 1) / page * page);
    int n = (int)(bytes / sizeof(double));
    int me = g->mycol, src = g->npcol - 1;
    for (int k = 0; k < n; k++)
        a[k] = me == src ? k : -1;
    if (me == src) {
        mprotect(a, bytes, PROT_READ);
        Cdgebs2d(g->ctxt, "Row", " ", n, 1, a, n);
        mprotect(a, bytes, PROT_READ | PROT_WRITE);
    } else {
        Cdgebr2d(g->ctxt, "Row", " ", n, 1, a, n, g->myrow, src);
    }
    long bad = 0;
    for (int k = 0; k < n; k++)
        bad += a[k] != k;
    CHECK(bad == 0, "broadcast from a read-only matrix: %ld wrong", bad);
    free(raw);
}

/* Leave-on-all results are bitwise equal on every process of the grid. */
static void coherence(const grid *g)
{
    long n = (300 << 10) / 8 + 7;
    double *a = malloc((size_t)n * sizeof *a);
    for (long k = 0; k < n; k++)
        a[k] = (k % 2 ? 1e16 : 1.0) * (1 + (g->myrow * 7 + g->mycol * 3 + k) % 5) * ((k + g->mycol) % 3 ? 1 : -1);
    Cdgsum2d(g->ctxt, "All", " ", (int)n, 1, a, (int)n, -1, -1);
    int np = g->nprow * g->npcol;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, g->myrow * g->npcol + g->mycol, &comm);
    double *all = malloc((size_t)n * np * sizeof *all);
    MPI_Allgather(a, (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, comm);
    for (int p = 1; p < np; p++)
        CHECK(memcmp(all, all + (size_t)p * n, (size_t)n * sizeof *a) == 0, "long sum differs on process %d", p);
    MPI_Comm_free(&comm);
    free(all);
    free(a);
}

int main(void)
{
    mpitest_start();
    mt_grid grids[8];
    int ng = mpitest_grids(mt_size, grids);
    for (int gi = 0; gi < ng; gi++) {
        if (grids[gi].p * grids[gi].q != mt_size && gi > 0)
            continue; /* keep it short: the full grid, plus the first shape */
        grid g;
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "Row", grids[gi].p, grids[gi].q);
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        int member = g.ctxt >= 0;
        if (member) {
            bcasts(&g);
            combines(&g);
            if (g.nprow == 1)
                readonly_source(&g);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (member && grids[gi].p * grids[gi].q == mt_size)
            coherence(&g);
        if (member)
            Cblacs_gridexit(g.ctxt);
    }
    return mpitest_finish("t_longmsg");
}
