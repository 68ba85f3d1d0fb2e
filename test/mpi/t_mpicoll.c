/*
 * test/mpi/t_mpicoll.c [incoherent] - MPI's own collectives as an algorithm
 * of the default TOP (topologies/mpi.c).
 *
 * Forced by BLACS_ALGORITHM on every grid shape: broadcasts from every
 * source, sums to every destination and to all, of every type, general
 * (LDA > M) and trapezoidal, each counted by the algorithm's run counter
 * and every element checked; a sum to all gives every member the same bits;
 * an absolute maximum (which MPI has not) falls back to the default's own
 * choice, uncounted.  Then weighed by the default from a tuning file
 * (BLACS_MODEL_FILE, lines mpi.OP.NPxNN): chosen for a sum to all where the
 * file measured it faster, not for a broadcast measured slower, not with
 * BLACS_SET 15 (repeatable combines), not for an absolute maximum.
 *
 * With "incoherent" (run at BLACS_DEBUG=3): a combine to all with a user
 * operation that gives each process other bits (it adds its rank) along
 * the bidirectional exchange, where both members of a pair compute: the
 * check after every combine to all must stop it with a clear error.
 */
#include <unistd.h>

#include "../../blacs/internal.h"
#include "mpitest.h"

#define N 1500 /* elements: a column of 1500 */

static unsigned long runs(void) { return blx_algorithm_runs(&blx_alg_mpi); }

static const char *const scopes[] = {"Row", "Column", "All"};

/* Scope member count and my index in it. */
static void scope_of(int ctxt, int s, int *np, int *me)
{
    int p, q, r, c;
    Cblacs_gridinfo(ctxt, &p, &q, &r, &c);
    *np = s == 0 ? q : s == 1 ? p : p * q;
    *me = s == 0 ? c : s == 1 ? r : r * q + c;
}

/* Grid coordinates of member k of scope s. */
static void coords(int ctxt, int s, int k, int *pr, int *pc)
{
    int p, q, r, c;
    Cblacs_gridinfo(ctxt, &p, &q, &r, &c);
    *pr = s == 0 ? r : s == 1 ? k : k / q;
    *pc = s == 0 ? k : s == 1 ? c : k % q;
}

static void broadcasts(int ctxt)
{
    double *a = malloc(2 * N * sizeof *a); /* a column of N - 1 in an LDA of N, and a trapezoid */
    for (int s = 0; s < 3; s++) {
        int np, me;
        scope_of(ctxt, s, &np, &me);
        for (int src = 0; src < np && np > 1; src++) {
            int sr, sc;
            coords(ctxt, s, src, &sr, &sc);
            for (int tr = 0; tr < 2; tr++) {
                int m = tr ? 40 : N - 1, n = tr ? 30 : 2, lda = tr ? 40 : N;
                for (long k = 0; k < 2 * N; k++)
                    a[k] = me == src ? mt_value(src, s, k) : -1;
                unsigned long before = runs();
                if (me == src && tr)
                    Cdtrbs2d(ctxt, scopes[s], " ", "U", "N", m, n, a, lda);
                else if (me == src)
                    Cdgebs2d(ctxt, scopes[s], " ", m, n, a, lda);
                else if (tr)
                    Cdtrbr2d(ctxt, scopes[s], " ", "U", "N", m, n, a, lda, sr, sc);
                else
                    Cdgebr2d(ctxt, scopes[s], " ", m, n, a, lda, sr, sc);
                CHECK(runs() == before + 1, "%s broadcast from %d: MPI's collective did not run", scopes[s],
                      src);
                int bad = 0;
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < m; i++) {
                        long k = i + (long)j * lda;
                        int in = !tr || i <= j + (m - n); /* upper trapezoid (m >= n), its diagonal too */
                        bad += a[k] != (in || me == src ? mt_value(src, s, k) : -1);
                    }
                for (int j = 0; j < n && !tr; j++)
                    bad += a[m + (long)j * lda] != (me == src ? mt_value(src, s, m + (long)j * lda) : -1);
                CHECK(bad == 0, "%s broadcast from %d (%s): %d elements wrong", scopes[s], src,
                      tr ? "trapezoid" : "general", bad);
            }
        }
    }
    free(a);
}

/* Sums of every type to every destination and to all: exact (small integers). */
static void sums(int ctxt)
{
    double *d = malloc(2 * N * sizeof *d);
    float *f = malloc(2 * N * sizeof *f);
    blacs_int *v = malloc(N * sizeof *v);
    for (int s = 0; s < 3; s++) {
        int np, me;
        scope_of(ctxt, s, &np, &me);
        for (int dest = -1; dest < np && np > 1; dest++) {
            int dr = -1, dc = -1;
            if (dest >= 0)
                coords(ctxt, s, dest, &dr, &dc);
            int gets = dest < 0 || me == dest;
            for (int t = 0; t < 4; t++) { /* i, s, d (LDA > M), z */
                long n = t == 3 ? 2 * N : t == 2 ? N + 1 : N;
                for (long k = 0; k < n; k++) {
                    d[k] = mt_value(me, t, k);
                    f[k] = (float)mt_value(me, t, k);
                }
                for (long k = 0; k < N; k++)
                    v[k] = mt_value(me, t, k);
                unsigned long before = runs();
                if (t == 0)
                    Cigsum2d(ctxt, scopes[s], " ", N, 1, v, N, dr, dc);
                else if (t == 1)
                    Csgsum2d(ctxt, scopes[s], " ", N, 1, f, N, dr, dc);
                else if (t == 2)
                    Cdgsum2d(ctxt, scopes[s], " ", N / 2, 2, d, N / 2 + 1, dr, dc); /* LDA > M: packed */
                else
                    Czgsum2d(ctxt, scopes[s], " ", N, 1, d, N, dr, dc);
                CHECK(runs() == before + 1, "%s sum (type %d) to %d: MPI's collective did not run", scopes[s],
                      t, dest);
                int bad = 0;
                for (long k = 0; k < n; k++) {
                    if (t == 2 && (k % (N / 2 + 1)) == N / 2) /* outside the matrix */
                        continue;
                    long want = 0;
                    for (int w = 0; w < np; w++)
                        want += mt_value(w, t, k);
                    long mine = mt_value(me, t, k);
                    double got = t == 0 ? (double)v[k < N ? k : 0] : t == 1 ? f[k < N ? k : 0] : d[k];
                    if (t < 2 && k >= N)
                        continue;
                    bad += got != (gets ? want : mine);
                }
                CHECK(bad == 0, "%s sum (type %d) to %d: %d elements wrong", scopes[s], t, dest, bad);
            }
        }
        /* a sum to all of inexact values: the same bits everywhere */
        for (long k = 0; k < N; k++)
            d[k] = 1.0 / (me + 3) + (double)k / 7;
        Cdgsum2d(ctxt, scopes[s], " ", N, 1, d, N, -1, -1);
        double first[N];
        memcpy(first, d, sizeof first);
        MPI_Comm comm = blx_ctx_find(ctxt)
                            ->scope[s == 0   ? BLX_SCOPE_ROW
                                    : s == 1 ? BLX_SCOPE_COL
                                             : BLX_SCOPE_ALL]
                            .comm;
        MPI_Bcast(first, N, MPI_DOUBLE, 0, comm);
        CHECK(memcmp(first, d, sizeof first) == 0, "%s sum to all: not the same bits as member 0's",
              scopes[s]);
        /* an absolute maximum: MPI has none, the default's own runs */
        unsigned long before = runs();
        blacs_int ra[4], ca[4];
        Cdgamx2d(ctxt, scopes[s], " ", 4, 1, d, 4, ra, ca, 4, -1, -1);
        CHECK(runs() == before, "%s absolute maximum: ran MPI's collective", scopes[s]);
    }
    free(d);
    free(f);
    free(v);
}

/* The default, weighing MPI's collective by a tuning file. */
static void weighed(void)
{
    char path[64];
    snprintf(path, sizeof path, "t_mpicoll.%d.model", (int)getpid());
    if (mt_rank == 0) { /* only process 0 reads it */
        FILE *f = fopen(path, "w");
        fprintf(f,
                "# MPI measured faster for sums to all, slower for broadcasts\n"
                "mpi.allreduce.%dx1 = 8:0.5, 1048576:0.5\n"
                "mpi.bcast.%dx1 = 8:2\n",
                mt_size, mt_size);
        fclose(f);
    }
    setenv("BLACS_MODEL_FILE", path, 1);
    setenv("BLACS_NODES", "1", 1);
    int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    unsetenv("BLACS_MODEL_FILE");
    unsetenv("BLACS_NODES");
    if (mt_rank == 0)
        unlink(path);
    CHECK(blx_ctx_find(ctxt)->mpi_costs != NULL && blx_ctx_find(ctxt)->mpi_costs->n == 2,
          "the tuning file's MPI costs not every member's");
    double a[64];
    blacs_int ra[64], ca[64];
    for (int k = 0; k < 64; k++)
        a[k] = mt_value(mt_rank, 1, k);
    unsigned long before = runs();
    Cdgsum2d(ctxt, "All", " ", 64, 1, a, 64, -1, -1);
    CHECK(runs() == before + 1, "a sum to all measured faster in MPI: MPI's collective did not run");
    long want = 0;
    for (int w = 0; w < mt_size; w++)
        want += mt_value(w, 1, 5);
    CHECK(a[5] == want, "a sum to all: %g, expected %ld", a[5], want);
    if (mt_rank == 0)
        Cdgebs2d(ctxt, "All", " ", 64, 1, a, 64);
    else
        Cdgebr2d(ctxt, "All", " ", 64, 1, a, 64, 0, 0);
    CHECK(runs() == before + 1, "a broadcast measured slower in MPI ran MPI's collective");
    Cdgamx2d(ctxt, "All", " ", 64, 1, a, 64, ra, ca, 64, -1, -1);
    CHECK(runs() == before + 1, "an absolute maximum ran MPI's collective");
    Cblacs_set(ctxt, 15, (blacs_int[]){1});
    Cdgsum2d(ctxt, "All", " ", 64, 1, a, 64, -1, -1);
    CHECK(runs() == before + 1, "a sum to all with BLACS_SET 15 (repeatable) ran MPI's collective");
    Cblacs_gridexit(ctxt);
}

static int rank_salt;

/* adds the caller's rank: the two members of a pair get other bits */
static void skewed_op(blacs_int n, void *a, const void *b)
{
    double *x = a;
    const double *y = b;
    for (blacs_int i = 0; i < n; i++)
        x[i] = x[i] + y[i] + rank_salt;
}

static void incoherent(void)
{
    int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    rank_salt = mt_rank;
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    Cdtuop2d(ctxt, "All", "H", "G", "N", 8, 1, a, 8, -1, -1, NULL, skewed_op, NULL);
    CHECK(0, "an incoherent combine to all was not stopped at BLACS_DEBUG=3");
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    mpitest_start();
    if (argc > 1 && strcmp(argv[1], "incoherent") == 0) {
        incoherent();
        return mpitest_finish("t_mpicoll");
    }
    mt_grid g[8];
    int ng = mpitest_grids(mt_size, g);
    for (int i = 0; i < ng; i++) {
        int ctxt = mpitest_grid_forcing("bcast=mpi,reduce=mpi,allreduce=mpi", g[i].p, g[i].q);
        if (ctxt >= 0) {
            broadcasts(ctxt);
            sums(ctxt);
            Cblacs_gridexit(ctxt);
        }
    }
    weighed();
    return mpitest_finish("t_mpicoll");
}
