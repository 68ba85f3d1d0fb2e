/*
 * test/mpi/t_property.c SEED [ROUNDS] - every algorithm, forced by name,
 * under random use: a property test against an independent oracle.
 *
 * Each round (every process draws the same choices from SEED and the round)
 * makes a grid of a random shape with BLACS_ALGORITHM forcing one
 * algorithm of the table for each operation (every row that provides it,
 * each number it takes: branches, rings, the radix 2, 4 or 8 of the
 * reduce-scatter), and often BLACS_NODES splitting it into "nodes" so that
 * the two-level and node-slice forms can run; then a run of operations,
 * back to back on the same buffers: broadcasts, sums, absolute maxima and
 * minima with and without locations, to one member or to all, and
 * point-to-point messages, on random scopes, with random types, general
 * or trapezoidal shapes, leading dimensions, sources and destinations,
 * and sizes spread over 1 element to 96 Ki elements, with counts near the
 * scope's size (where the vector may or may not be cut among its members).
 * TOP is ' ' (the forced algorithm, where it can run) or a random letter.
 *
 * The oracle: every element is a small integer computed from (process,
 * call, index), exact in every type, so the expected broadcast, sum, or
 * maximum and its location are computed independently by every receiver.
 * Elements outside the shape and the gap of LDA must stay as they were; a
 * source overwrites its matrix as soon as a call returns (a send that still
 * read it would deliver garbage).  Run it under BLACS_PERTURB to meet other
 * timings (make stress; make check runs it with two seeds).  Rank 0 prints
 * how often each algorithm ran: the forced ones must have run.
 */
#include <stdint.h>

#include "../../blacs/internal.h"
#include "../../topologies/topology.h"
#include "mpitest.h"
#include "typed.h"

#define MAXN (96 * 1024) /* elements of the largest matrix */
#define SENTINEL -777

static uint64_t rng;
static uint64_t draw(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int pick(int n) { return (int)(draw() % (uint64_t)n); }

/* The value of element k that process 'who' contributes to call 'call':
 * small integers, so that sums of 8 are exact in every type.  For the
 * maxima, |value| differs between processes (no ties: the location is
 * unique) and its sign varies. */
static int value(int who, int call, long k) { return (int)((who * 37 + call * 11 + k * 7) % 201) - 100; }
static int amax_value(int who, int call, long k)
{
    int mag = 1 + (int)((call * 13 + k * 5) % 40) * 16 + (who * 5 + call) % 16;
    return (k + who) % 3 ? mag : -mag;
}

/* A grid's candidates: "op=name[:number]" for every row that provides op. */
static int forcings(const char *op, char out[][48], int most)
{
    int n = 0;
    for (int i = 0; i < BLX_NALGORITHMS; i++) {
        const blx_algorithm *a = blx_algorithms[i];
        const int nums[] = {0, 1, 2, 3, 4, 8};
        for (size_t j = 0; j < sizeof nums / sizeof nums[0] && n < most; j++) {
            char item[48];
            if (nums[j] == 0)
                snprintf(item, sizeof item, "%s=%s", op, a->name);
            else
                snprintf(item, sizeof item, "%s=%s:%d", op, a->name, nums[j]);
            blx_forced f = blx_forced_none();
            char why[160];
            if (blx_forced_parse(item, &f, why, sizeof why) == 0)
                snprintf(out[n++], 48, "%s", item);
        }
    }
    return n;
}

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol, me, np;
} grid;

static void coords(const grid *g, char scope, int member, int *r, int *c)
{
    *r = scope == 'R' ? g->myrow : scope == 'C' ? member : member / g->npcol;
    *c = scope == 'R' ? member : scope == 'C' ? g->mycol : member % g->npcol;
}
static int members(const grid *g, char scope)
{
    return scope == 'R' ? g->npcol : scope == 'C' ? g->nprow : g->np;
}
static int my_member(const grid *g, char scope)
{
    return scope == 'R' ? g->mycol : scope == 'C' ? g->myrow : g->me;
}
static void fill(const typed_ops *t, void *a, long m, long n, long lda, char uplo, char diag, int who,
                 int call, int amx)
{
    for (long j = 0; j < n; j++)
        for (long i = 0; i < lda; i++) {
            long k = i + j * lda;
            int in = i < m && in_shape(uplo, diag, (int)m, (int)n, (int)i, (int)j);
            int v = !in ? SENTINEL : amx ? amax_value(who, call, i + j * m) : value(who, call, i + j * m);
            typed_put(t, a, (size_t)k, v, !t->is_complex ? 0 : v == SENTINEL ? SENTINEL : -v);
        }
}

static int bad; /* elements wrong in this round, reported once */

static void expect(const typed_ops *t, const void *a, long k, double want, const char *what, int call)
{
    double re, im;
    typed_get(t, a, (size_t)k, &re, &im);
    if (re != want || (t->is_complex && im != (want == SENTINEL ? SENTINEL : -want))) {
        if (bad++ < 5)
            CHECK(0, "call %d (%s, type %c): element %ld is %g%+gi, expected %g", call, what, t->letter, k,
                  re, im, want);
    }
}

/* A matrix of a call: its shape, drawn by every process alike. */
typedef struct {
    const typed_ops *t;
    char uplo, diag;
    long m, n, lda;
} shape;

/* Sizes from 1 element to MAXN, spread over their logarithm, and counts
 * near the scope's size np. */
static shape draw_shape(int np, int general)
{
    shape s = {all_types[pick(5)], general || pick(3) ? 'G' : "UL"[pick(2)], "UN"[pick(2)], 1, 1, 1};
    long count = pick(4) == 0 ? np - 1 + pick(3) : 1L << pick(17);
    count = count < 1 ? 1 : count + (pick(2) ? pick((int)count + 1) : 0);
    if (count > MAXN / 2)
        count = MAXN / 2;
    s.n = pick(4) == 0 ? 1 : 1 + pick(8);
    s.m = (count + s.n - 1) / s.n;
    s.lda = s.m + (pick(3) == 0 ? pick(5) : 0);
    if (s.lda * s.n > MAXN)
        s.n = MAXN / s.lda;
    return s;
}

static void *buf; /* MAXN elements of the widest type each, reused by every call */
static int ra[MAXN], ca[MAXN];

static const char *tops_bcast = " 1234IDSMHFT", *tops_comb = " 123IDSMHFT";

/* A call the round makes sure of: TOP ' ' on the scope named, a sum to
 * member 0 (dest 0) or to all (dest -1) of an element a member at least;
 * off: everything drawn. */
static struct {
    int on, dest;
} sure;

static void check_matrix(const shape *s, const void *a, int who, int call, int amx, const char *what)
{
    for (long j = 0; j < s->n; j++)
        for (long i = 0; i < s->lda; i++) {
            int in = i < s->m && in_shape(s->uplo, s->diag, (int)s->m, (int)s->n, (int)i, (int)j);
            long k = i + j * s->m;
            expect(s->t, a, i + j * s->lda,
                   !in   ? SENTINEL
                   : amx ? amax_value(who, call, k)
                         : value(who, call, k),
                   what, call);
        }
}

static void op_bcast(const grid *g, char scope, int call)
{
    shape s = draw_shape(members(g, scope), 0);
    char top[2] = {pick(2) || sure.on ? ' ' : tops_bcast[pick((int)strlen(tops_bcast))], 0};
    int src = pick(members(g, scope)), sr, sc, me = my_member(g, scope);
    coords(g, scope, src, &sr, &sc);
    char sco[2] = {scope, 0};
    if (me == src) {
        fill(s.t, buf, s.m, s.n, s.lda, s.uplo, s.diag, src, call, 0);
        if (s.uplo == 'G')
            s.t->gebs(g->ctxt, sco, top, (int)s.m, (int)s.n, buf, (int)s.lda);
        else
            s.t->trbs(g->ctxt, sco, top, &s.uplo, &s.diag, (int)s.m, (int)s.n, buf, (int)s.lda);
        memset(buf, 0x5a, (size_t)(s.lda * s.n) * s.t->esz); /* reused at once */
        return;
    }
    fill(s.t, buf, s.m, s.n, s.lda, s.uplo, s.diag, -1, -1, 0); /* the sentinel outside, garbage inside */
    if (s.uplo == 'G')
        s.t->gebr(g->ctxt, sco, top, (int)s.m, (int)s.n, buf, (int)s.lda, sr, sc);
    else
        s.t->trbr(g->ctxt, sco, top, &s.uplo, &s.diag, (int)s.m, (int)s.n, buf, (int)s.lda, sr, sc);
    check_matrix(&s, buf, src, call, 0, "broadcast");
}

/* The combine's oracle at a destination: element k of the result. */
static void check_combine(const grid *g, char scope, const shape *s, int op, int dest, int located, int call)
{
    int np = members(g, scope);
    for (long j = 0; j < s->n; j++)
        for (long i = 0; i < s->m; i++) {
            long k = i + j * s->m, at = i + j * s->lda;
            double want = 0;
            int win = 0;
            for (int w = 0; w < np; w++) {
                int v = op == 0 ? value(w, call, k) : amax_value(w, call, k);
                int better = op == 1 ? abs(v) > abs((int)want) : abs(v) < abs((int)want);
                if (op == 0)
                    want += v;
                else if (w == 0 || better)
                    want = v, win = w;
            }
            expect(s->t, buf, at, want,
                   op == 0   ? "sum"
                   : op == 1 ? "absolute maximum"
                             : "absolute minimum",
                   call);
            int wr, wc;
            coords(g, scope, win, &wr, &wc);
            if (located && (ra[at] != wr || ca[at] != wc) && bad++ < 5)
                CHECK(0, "call %d: location of element %ld is {%d,%d}, expected {%d,%d} (destination %d)",
                      call, k, ra[at], ca[at], wr, wc, dest);
        }
}

static void op_combine(const grid *g, char scope, int call)
{
    int np = members(g, scope), me = my_member(g, scope), op = sure.on ? 0 : pick(3);
    shape s = draw_shape(np, 1);
    if (sure.on && s.m * s.n < np) /* a sum the forced algorithms that cut the vector can run */
        s.m = np, s.n = 1, s.lda = s.lda > s.m ? s.lda : s.m;
    int located = op > 0 && pick(2),
        dest = sure.on        ? sure.dest
               : pick(3) == 0 ? -1
                              : pick(np),
        dr = -1, dc = -1;
    if (dest >= 0)
        coords(g, scope, dest, &dr, &dc);
    char top[2] = {pick(2) || sure.on ? ' ' : tops_comb[pick((int)strlen(tops_comb))], 0},
         sco[2] = {scope, 0};
    fill(s.t, buf, s.m, s.n, s.lda, 'G', 'N', me, call, op > 0);
    int ldia = located ? (int)s.lda : -1;
    if (op == 0)
        s.t->gsum(g->ctxt, sco, top, (int)s.m, (int)s.n, buf, (int)s.lda, dr, dc);
    else
        (op == 1 ? s.t->gamx : s.t->gamn)(g->ctxt, sco, top, (int)s.m, (int)s.n, buf, (int)s.lda, ra, ca,
                                          ldia, dr, dc);
    if (dest < 0 || dest == me)
        check_combine(g, scope, &s, op, dest, located, call);
    else /* a non-destination's matrix stays its own */
        check_matrix(&s, buf, me, call, op > 0, "a non-destination's matrix");
}

/* A message from one member of the scope to another, then the next call at
 * once (the sender's matrix overwritten as soon as the send returns). */
static void op_p2p(const grid *g, char scope, int call)
{
    int np = members(g, scope), me = my_member(g, scope);
    if (np < 2)
        return;
    shape s = draw_shape(np, 0);
    int from = pick(np), to = (from + 1 + pick(np - 1)) % np, r, c;
    if (me == from) {
        coords(g, scope, to, &r, &c);
        fill(s.t, buf, s.m, s.n, s.lda, s.uplo, s.diag, from, call, 0);
        if (s.uplo == 'G')
            s.t->gesd(g->ctxt, (int)s.m, (int)s.n, buf, (int)s.lda, r, c);
        else
            s.t->trsd(g->ctxt, &s.uplo, &s.diag, (int)s.m, (int)s.n, buf, (int)s.lda, r, c);
        memset(buf, 0x5a, (size_t)(s.lda * s.n) * s.t->esz);
    } else if (me == to) {
        coords(g, scope, from, &r, &c);
        fill(s.t, buf, s.m, s.n, s.lda, s.uplo, s.diag, -1, -1, 0);
        if (s.uplo == 'G')
            s.t->gerv(g->ctxt, (int)s.m, (int)s.n, buf, (int)s.lda, r, c);
        else
            s.t->trrv(g->ctxt, &s.uplo, &s.diag, (int)s.m, (int)s.n, buf, (int)s.lda, r, c);
        check_matrix(&s, buf, from, call, 0, "point-to-point");
    }
}

static char bcasts[64][48], reduces[64][48], allreduces[64][48];
static int nb, nr, na;

/* One round: a grid, forced algorithms, nodes, and OPS calls.  Round r
 * forces the r-th candidate of each operation (in turn: every one meets
 * the rounds); a round that forces a two-level form (two_level,
 * node_slices) splits its grid into two nodes, whose halves are equal
 * where it can (node_slices' condition). */
static void round_of(uint64_t seed, int r, int ops, int np)
{
    rng = seed * 1000003 + (uint64_t)r;
    int p = 1 + pick(np), q = 1 + pick(np / p); /* P x Q <= np */
    char forced[160], nodes[16] = "";
    snprintf(forced, sizeof forced, "%s,%s,%s", bcasts[r % nb], reduces[r % nr], allreduces[r % na]);
    int split = pick(3), count = 2 + pick(p * q >= 3 ? 2 : 1);
    if (strstr(forced, "two_level") || strstr(forced, "node_slices")) {
        split = 1, count = 2;
        if (np >= 4)
            p = 2, q = np >= 8 ? 4 : 2;
    }
    if (strstr(forced, "scatter_doubling")) /* a power-of-two scope, where it runs */
        for (p = 1, q = 1; 2 * q <= np; q *= 2)
            ;
    if (split > 0 && p * q >= 2)
        snprintf(nodes, sizeof nodes, "%d%s", count, split == 2 ? ":cyclic" : "");
    if (*nodes)
        setenv("BLACS_NODES", nodes, 1);
    grid g = {.np = p * q};
    g.ctxt = mpitest_grid_forcing(forced, p, q);
    unsetenv("BLACS_NODES");
    if (mt_rank == 0)
        printf("t_property: round %d: %d x %d, %s, BLACS_NODES=%s\n", r, p, q, forced,
               *nodes ? nodes : "(unset)");
    if (g.ctxt < 0)
        return;
    Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
    g.me = g.myrow * g.npcol + g.mycol;
    bad = 0;
    for (int call = 0; call < ops; call++) {
        char scope = "RCA"[pick(3)];
        int kind = pick(5);
        if (kind < 2)
            op_bcast(&g, scope, call);
        else if (kind < 4)
            op_combine(&g, scope, call);
        else
            op_p2p(&g, scope, call);
    }
    /* and the forced algorithms, each once on the whole grid */
    sure.on = 1;
    op_bcast(&g, 'A', ops);
    sure.dest = 0;
    op_combine(&g, 'A', ops + 1);
    sure.dest = -1;
    op_combine(&g, 'A', ops + 2);
    sure.on = 0;
    Cblacs_gridexit(g.ctxt);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    mpitest_start();
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 12;
    buf = malloc((size_t)MAXN * 16);
    nb = forcings("bcast", bcasts, 64);
    nr = forcings("reduce", reduces, 64);
    na = forcings("allreduce", allreduces, 64);
    CHECK(nb > 8 && nr > 4 && na > 4, "forcings: %d broadcasts, %d reduces, %d allreduces", nb, nr, na);
    for (int r = 0; r < rounds; r++)
        round_of(seed, r, 24, mt_size);
    unsigned long mine[BLX_NALGORITHMS], all[BLX_NALGORITHMS];
    for (int i = 0; i < BLX_NALGORITHMS; i++)
        mine[i] = blx_algorithm_runs(blx_algorithms[i]);
    MPI_Reduce(mine, all, BLX_NALGORITHMS, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int i = 0; mt_rank == 0 && i < BLX_NALGORITHMS; i++) {
        printf("t_property: %-16s ran %lu times\n", blx_algorithms[i]->name, all[i]);
        /* every candidate met a round: each algorithm must have run (in
         * slices only where a scope's nodes can hold equal halves) */
        int slices = blx_algorithms[i] == &blx_alg_node_slices;
        CHECK(rounds < nb || all[i] > 0 || (slices && mt_size < 4), "%s never ran in %d rounds",
              blx_algorithms[i]->name, rounds);
    }
    free(buf);
    return mpitest_finish("t_property");
}
