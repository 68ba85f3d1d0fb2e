/*
 * test/mpi/t_combine.c [quick] - combines: every op x type x TOP x scope x
 * destination x grid, checking values, RA/CA and coherence.
 *
 * Part 1, the sweep.  Grids 1 x P, P x 1, 2 x 2, 2 x 3, 3 x 3 where they fit
 * (others idle); scopes R, C, A; all 17 TOP letters ('M' and 'T' with varied
 * settings); SUM, AMX, AMN (with RA/CA, LDIA > M, and with LDIA = -1) for the
 * five types; every member as destination, and leave-on-all given both as
 * RDEST = -1 and as CDEST = -1 (the unused coordinate of R and C scopes is
 * set to nonsense to show it is ignored).  Shapes 3 x 2 with LDA > M, 1 x 1,
 * 0 x 0, and 200 x 30 (double and double complex).  Values are small
 * integers with many equal absolute values, so sums are exact in every type
 * and the tie rules of spec 5.1 decide AMX/AMN: each process computes the
 * expected answer itself.  Destinations: A and RA/CA right, the LDA/LDIA gaps
 * untouched; other processes: A, RA, CA untouched.  Leave-on-all: the result
 * is bitwise identical on every member.
 *
 * Part 2, coherence and repeatability, in double precision.  Each element
 * sums values like 1e16, 1, -1e16, 3.14 whose total depends on the order of
 * the additions.  The checker that compares results across processes is
 * first shown to catch an incoherent combine (every rank adds the same
 * numbers in its own order, as a badly made allreduce may); then, for every
 * TOP, leave-on-all results must be bitwise equal everywhere, and with
 * BLACS_SET 15 (repeatable) equal across repeated runs while the processes
 * enter at staggered times.
 */
#include <math.h>
#include <time.h>

#include "../../topologies/topology.h"
#include "mpitest.h"
#include "typed.h"

/* Every TOP letter the library answers to, the default first (from the
 * registry, whose list the unit tests pin to LAWN 73's). */
static const char *tops;

enum { OP_SUM, OP_AMX, OP_AMN };

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
    MPI_Comm comm; /* MPI view of the grid's members, for cross-checks */
} grid;

/* Contribution of grid process (r,c) to element (i,j): small integers with
 * repeated absolute values; complex parts from the same pool. */
static void contribution(int r, int c, int i, int j, int salt, double *re, double *im)
{
    int h = r * 7 + c * 13 + i * 3 + j * 5 + salt;
    *re = (double)((h * 37) % 9 - 4);
    *im = (double)((h * 11) % 5 - 2);
}

static double mag(const typed_ops *t, double re, double im)
{
    return t->is_complex ? fabs(re) + fabs(im) : fabs(re);
}

/* Spec 5.1, computed directly: the member chosen for one element. */
static int expected_winner(const typed_ops *t, int op, int located, int n, const double *re, const double *im,
                           const int *dist)
{
    int w = 0;
    for (int k = 1; k < n; k++) {
        double mk = mag(t, re[k], im[k]), mw = mag(t, re[w], im[w]);
        int better = op == OP_AMX ? mk > mw : mk < mw;
        if (mk == mw)
            better = located ? dist[k] < dist[w] : (re[k] > re[w] || (re[k] == re[w] && im[k] > im[w]));
        if (better)
            w = k;
    }
    return w;
}

/* Grid coordinates of member k of my scope. */
static void member(const grid *g, char scope, int k, int *r, int *c)
{
    *r = scope == 'R' ? g->myrow : scope == 'C' ? k : k / g->npcol;
    *c = scope == 'R' ? k : scope == 'C' ? g->mycol : k % g->npcol;
}

static int bytes_equal_everywhere(const void *buf, int bytes, MPI_Comm comm)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    char *all = malloc((size_t)bytes * size + 1);
    MPI_Allgather(buf, bytes, MPI_BYTE, all, bytes, MPI_BYTE, comm);
    int same = 1;
    for (int p = 1; p < size; p++)
        same &= memcmp(all, all + (size_t)p * bytes, (size_t)bytes) == 0;
    free(all);
    return same;
}

static void one_combine(const grid *g, const typed_ops *t, int op, char scope, char top, int m, int n,
                        int destk, int all_as_cdest, int located, int salt)
{
    int P = g->nprow, Q = g->npcol;
    int np = scope == 'R' ? Q : scope == 'C' ? P : P * Q;
    int me = scope == 'R' ? g->mycol : scope == 'C' ? g->myrow : g->myrow * Q + g->mycol;
    int all = destk < 0, lda = m + 2, ldia = located ? m + 1 : -1;
    int rdest, cdest;
    if (all) { /* leave-on-all, spelled two ways */
        rdest = all_as_cdest ? 3 : -1;
        cdest = all_as_cdest ? -1 : 5;
    } else {
        member(g, scope, destk, &rdest, &cdest);
        if (scope == 'R')
            rdest = 99; /* ignored in a row scope */
        if (scope == 'C')
            cdest = -7; /* ignored in a column scope */
    }
    size_t esz = t->esz, cells = (size_t)lda * (size_t)(n > 0 ? n : 1);
    unsigned char *A = malloc(cells * esz), *A0 = malloc(cells * esz);
    int ni = (located ? m + 1 : 2) * (n > 0 ? n : 1);
    int *RA = malloc((size_t)ni * sizeof *RA), *CA = malloc((size_t)ni * sizeof *CA);
    for (size_t k = 0; k < cells; k++)
        typed_put(t, A, k, -1234, 77); /* gap value */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double re, im;
            contribution(g->myrow, g->mycol, i, j, salt, &re, &im);
            typed_put(t, A, (size_t)i + (size_t)j * lda, re, im);
        }
    memcpy(A0, A, cells * esz);
    for (int k = 0; k < ni; k++)
        RA[k] = CA[k] = -555;

    char sc[] = {scope, 0}, tp[] = {top, 0};
    if (op == OP_SUM)
        (salt % 2 ? t->gsum_f : t->gsum)(g->ctxt, sc, tp, m, n, A, lda, rdest, cdest);
    else if (op == OP_AMX)
        (salt % 2 ? t->gamx_f : t->gamx)(g->ctxt, sc, tp, m, n, A, lda, RA, CA, ldia, rdest, cdest);
    else
        t->gamn(g->ctxt, sc, tp, m, n, A, lda, RA, CA, ldia, rdest, cdest);

    const char *opname[] = {"SUM", "AMX", "AMN"};
    int is_dest = all || me == destk;
    int bad = 0;
    double *re = malloc((size_t)np * sizeof *re), *im = malloc((size_t)np * sizeof *im);
    int *dist = malloc((size_t)np * sizeof *dist);
    for (int j = 0; j < n && bad < 2; j++)
        for (int i = 0; i < lda && bad < 2; i++) {
            size_t k = (size_t)i + (size_t)j * lda;
            double gre, gim, wre, wim;
            typed_get(t, A, k, &gre, &gim);
            typed_get(t, A0, k, &wre, &wim);
            int wr = -555, wc = -555;
            if (is_dest && i < m) {
                for (int q = 0; q < np; q++) {
                    int r, c;
                    member(g, scope, q, &r, &c);
                    contribution(r, c, i, j, salt, &re[q], &im[q]);
                    dist[q] = all ? q : (q - destk + np) % np;
                }
                if (op == OP_SUM) {
                    wre = wim = 0;
                    for (int q = 0; q < np; q++)
                        wre += re[q], wim += im[q];
                    if (!t->is_complex)
                        wim = 0;
                } else {
                    int w = expected_winner(t, op, located, np, re, im, dist);
                    wre = re[w];
                    wim = t->is_complex ? im[w] : 0;
                    member(g, scope, w, &wr, &wc);
                }
            }
            if (gre != wre || gim != wim) {
                bad++;
                CHECK(0,
                      "%s %c scope %c top '%c' %dx%d dest %d%s (grid %dx%d): A(%d,%d) = (%g,%g), want "
                      "(%g,%g)%s",
                      opname[op], t->letter, scope, top, m, n, destk, located ? " located" : "", P, Q, i, j,
                      gre, gim, wre, wim, is_dest ? "" : " (not a destination: must be untouched)");
            }
            if (ldia > 0 && i < ldia) {
                size_t kk = (size_t)i + (size_t)j * ldia;
                int want_r = (is_dest && i < m) ? wr : -555, want_c = (is_dest && i < m) ? wc : -555;
                if (RA[kk] != want_r || CA[kk] != want_c) {
                    bad++;
                    CHECK(0, "%s %c scope %c top '%c' dest %d: RA/CA(%d,%d) = (%d,%d), want (%d,%d)",
                          opname[op], t->letter, scope, top, destk, i, j, RA[kk], CA[kk], want_r, want_c);
                }
            }
        }
    if (!located)
        for (int k = 0; k < ni; k++)
            CHECK(RA[k] == -555 && CA[k] == -555, "LDIA = -1 but RA/CA were written");
    free(re);
    free(im);
    free(dist);
    free(A);
    free(A0);
    free(RA);
    free(CA);
}

static void sweep(const grid *g, int quick)
{
    const char scopes[] = "RCA";
    int salt = 0;
    for (int s = 0; s < 3; s++) {
        char scope = scopes[s];
        int np = scope == 'R' ? g->npcol : scope == 'C' ? g->nprow : g->nprow * g->npcol;
        for (const char *tp = tops; *tp; tp++)
            for (int op = 0; op < 3; op++)
                for (int ti = 0; ti < 5; ti++)
                    for (int d = -2; d < np; d++, salt++) {
                        if (quick && (salt % 4))
                            continue;
                        if (*tp == 'M' || *tp == 'T') {
                            int v = *tp == 'M' ? (salt % 2 ? -1 : 1) * (1 + salt % 3) : 1 + salt % 3;
                            Cblacs_set(g->ctxt, *tp == 'M' ? 13 : 14, &v);
                        }
                        int rep = salt % 5 == 0;
                        Cblacs_set(g->ctxt, 15, &rep);
                        const typed_ops *t = all_types[ti];
                        /* independent of the M/T setting (salt % 3) */
                        int located = op != OP_SUM && (salt / 3) % 3 != 0;
                        one_combine(g, t, op, scope, *tp, 3, 2, d < 0 ? -1 : d, d == -2, located, salt);
                        if (salt % 7 == 0)
                            one_combine(g, t, op, scope, *tp, 1, 1, d < 0 ? -1 : d, 0, op != OP_SUM, salt);
                        if (salt % 11 == 0)
                            one_combine(g, t, op, scope, *tp, 0, 0, d < 0 ? -1 : d, 0, op != OP_SUM, salt);
                        if ((t->letter == 'd' || t->letter == 'z') && d <= 0 && !quick)
                            one_combine(g, t, op, scope, *tp, 200, 30, d < 0 ? -1 : d, 0, located, salt);
                    }
    }
    int zero = 0;
    Cblacs_set(g->ctxt, 15, &zero);
}

/* Values whose sum depends on the association order. */
static double tricky(int r, int c, int k)
{
    static const double pool[] = {1e16, 1.0, -1e16, 3.141592653589793, 1e-3, -2.5, 7e15, 0.1};
    return pool[(r * 3 + c * 5 + k) % 8] * (1 + ((r + c + k) % 3));
}

/* Each member adds the same contributions in its own rotated order: the
 * result differs between members for these values. */
static void incoherent_sum(const grid *g, double *x, int n)
{
    int np = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    double *all = malloc((size_t)n * np * sizeof *all);
    MPI_Allgather(x, n, MPI_DOUBLE, all, n, MPI_DOUBLE, g->comm);
    for (int k = 0; k < n; k++) {
        double s = 0;
        for (int q = 0; q < np; q++)
            s += all[(size_t)((q + me) % np) * n + k];
        x[k] = s;
    }
    free(all);
}

static void coherence(const grid *g)
{
    enum { N = 64 };
    double x[N];
    int np = g->nprow * g->npcol;
    /* the checker can fail: an incoherent combine is caught */
    for (int k = 0; k < N; k++)
        x[k] = tricky(g->myrow, g->mycol, k);
    incoherent_sum(g, x, N);
    if (np >= 3)
        CHECK(!bytes_equal_everywhere(x, sizeof x, g->comm),
              "the coherence check did not notice an incoherent sum");

    for (const char *tp = tops; *tp; tp++)
        for (int repeat = 0; repeat <= 1; repeat++) {
            Cblacs_set(g->ctxt, 15, &repeat);
            double first[N], first1[N], y[N];
            int fixed = repeat || *tp == ' '; /* the default folds in a fixed order anyway */
            for (int run = 0; run < 3; run++) {
                for (int k = 0; k < N; k++)
                    x[k] = tricky(g->myrow, g->mycol, k);
                /* stagger the entries so that arrival orders differ between runs */
                int me = g->myrow * g->npcol + g->mycol;
                struct timespec ts = {0, 200000L * ((me + run) % 3)};
                nanosleep(&ts, NULL);
                char top[] = {*tp, 0};
                Cdgsum2d(g->ctxt, "All", top, N, 1, x, N, -1, -1);
                CHECK(bytes_equal_everywhere(x, sizeof x, g->comm),
                      "top '%c' repeatable=%d run %d: leave-on-all sum differs between processes", *tp,
                      repeat, run);
                if (run == 0)
                    memcpy(first, x, sizeof x);
                else if (fixed)
                    CHECK(memcmp(first, x, sizeof x) == 0, "top '%c': repeatable sum changed between runs",
                          *tp);
                /* leave-on-one, to the last process */
                for (int k = 0; k < N; k++)
                    y[k] = tricky(g->myrow, g->mycol, k);
                nanosleep(&ts, NULL);
                Cdgsum2d(g->ctxt, "All", top, N, 1, y, N, g->nprow - 1, g->npcol - 1);
                if (me == np - 1) {
                    if (run == 0)
                        memcpy(first1, y, sizeof y);
                    else if (fixed)
                        CHECK(memcmp(first1, y, sizeof y) == 0,
                              "top '%c': repeatable leave-on-one sum changed", *tp);
                }
            }
            /* row and column scopes too */
            for (int k = 0; k < N; k++)
                x[k] = tricky(g->myrow, g->mycol, k);
            char top[] = {*tp, 0};
            Cdgsum2d(g->ctxt, "Row", top, N, 1, x, N, -1, 0);
            MPI_Comm row;
            MPI_Comm_split(g->comm, g->myrow, g->mycol, &row);
            CHECK(bytes_equal_everywhere(x, sizeof x, row), "top '%c': row sum differs within the row", *tp);
            MPI_Comm_free(&row);
        }
    int zero = 0;
    Cblacs_set(g->ctxt, 15, &zero);
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
        Cblacs_gridinit(&g.ctxt, "Col", grids[gi].p, grids[gi].q);
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        MPI_Comm_split(MPI_COMM_WORLD, g.ctxt >= 0 ? 0 : MPI_UNDEFINED,
                       g.ctxt >= 0 ? g.myrow * g.npcol + g.mycol : 0, &g.comm);
        if (g.ctxt < 0)
            continue;
        sweep(&g, quick);
        coherence(&g);
        MPI_Comm_free(&g.comm);
        Cblacs_gridexit(g.ctxt);
    }
    return mpitest_finish("t_combine");
}
