/*
 * test/mpi/t_uop.c [quick] - the user-defined trapezoidal combine vTUOP2D
 * (LAWN 73 section 7.1.3).
 *
 * Part 1, the sweep: grids 1 x P, P x 1, 2 x 2, 2 x 3, 3 x 3 where they fit;
 * scopes R, C, A; every TOP letter; the five types; shapes 'G' 3 x 2 with
 * LDA 5, 'U' 4 x 3 with its diagonal and 'L' 3 x 5 without; leave-on-all
 * and each member in turn as the destination; the C and the Fortran
 * interface by turns.  The user's functions: INIT doubles each entry, OP
 * adds, POST adds 1, so the result is 2 * (sum of the contributions) + 1,
 * exact in every type (small integers).  Destinations: the shape's
 * elements right, the rest of the block and the LDA gap untouched; others:
 * A untouched.  The functions' calls are counted: INIT once per process
 * with n = the shape's element count, POST once per destination and never
 * elsewhere, OP only on whole columns of a general matrix, and somewhere
 * in the scope at least once per combine of two or more members.
 * For integers, also an exclusive or with no INIT and no POST (C NULLs).
 *
 * Part 2, long vectors: the scaled 2-norm of LAPACK's DNRM2 as (scale,
 * sumsq) pairs in a 2 x K double matrix, on values near 1e300 whose plain
 * sum of squares overflows, along TOPs that cut long messages into pieces;
 * OP must never see half a pair.  Under a network's model (argument
 * "network", as t_longmsg), the default's choice is checked: with at least
 * as many columns as members the registry may pick Rabenseifner's
 * reduce-scatter, and the algorithm it picks runs; with one column, no
 * splitting algorithm may run.
 */
#include <math.h>

#include "../../blacs/internal.h"
#include "../../topologies/topology.h"
#include "mpitest.h"
#include "typed.h"

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
} grid;

/* ---- the user's functions, counting their calls ---- */

static const typed_ops *cur;   /* the type of the combine in progress */
static int cur_m, cur_general; /* rows, and whether the shape is 'G' */
static long init_calls, init_n, post_calls, op_calls, op_bad_chunk;

static void init_double(int n, void *v)
{
    init_calls++;
    init_n += n;
    for (int k = 0; k < n; k++) {
        double re, im;
        typed_get(cur, v, (size_t)k, &re, &im);
        typed_put(cur, v, (size_t)k, 2 * re, 2 * im);
    }
}

static void op_add(int n, void *a, const void *b)
{
    op_calls++;
    if (cur_general && n % cur_m != 0)
        op_bad_chunk++;
    for (int k = 0; k < n; k++) {
        double ar, ai, br, bi;
        typed_get(cur, a, (size_t)k, &ar, &ai);
        typed_get(cur, b, (size_t)k, &br, &bi);
        typed_put(cur, a, (size_t)k, ar + br, ai + bi);
    }
}

static void post_plus1(int n, void *v)
{
    post_calls++;
    for (int k = 0; k < n; k++) {
        double re, im;
        typed_get(cur, v, (size_t)k, &re, &im);
        typed_put(cur, v, (size_t)k, re + 1, im);
    }
}

static void op_xor(int n, void *a, const void *b)
{
    op_calls++;
    for (int k = 0; k < n; k++)
        ((int *)a)[k] ^= ((const int *)b)[k];
}

/* The Fortran interface's versions: every argument by address. */
static void f_init_double(int *n, void *v) { init_double(*n, v); }
static void f_op_add(int *n, void *a, void *b) { op_add(*n, a, b); }
static void f_post_plus1(int *n, void *v) { post_plus1(*n, v); }

/* ---- part 1 ---- */

static int scope_size(const grid *g, char scope)
{
    return scope == 'R' ? g->npcol : scope == 'C' ? g->nprow : g->nprow * g->npcol;
}
static int my_index(const grid *g, char scope)
{
    return scope == 'R' ? g->mycol : scope == 'C' ? g->myrow : g->myrow * g->npcol + g->mycol;
}
/* Grid coordinates of scope member k. */
static void member(const grid *g, char scope, int k, int *r, int *c)
{
    *r = scope == 'R' ? g->myrow : scope == 'C' ? k : k / g->npcol;
    *c = scope == 'R' ? k : scope == 'C' ? g->mycol : k % g->npcol;
}

static double contribution(int r, int c, int i, int j, int salt)
{
    return (double)((r * 7 + c * 13 + i * 3 + j * 5 + salt) % 11 - 5);
}

typedef struct {
    char uplo, diag;
    int m, n, lda;
} shape;

static long count_of(const shape *s)
{
    long k = 0;
    for (int j = 0; j < s->n; j++)
        for (int i = 0; i < s->m; i++)
            k += in_shape(s->uplo, s->diag, s->m, s->n, i, j);
    return k;
}

/* One combine and its checks.  dest < 0: leave-on-all. */
static void one(const grid *g, const typed_ops *t, char scope, char top, const shape *s, int dest,
                int fortran, int salt)
{
    int np = scope_size(g, scope), me = my_index(g, scope);
    size_t cells = (size_t)s->lda * (size_t)s->n;
    double *a = malloc(cells * 2 * sizeof(double)), re, im;
    for (size_t k = 0; k < cells; k++) {
        int i = (int)(k % (size_t)s->lda), j = (int)(k / (size_t)s->lda);
        typed_put(t, a, k, i < s->m ? contribution(g->myrow, g->mycol, i, j, salt) : 99, i < s->m ? 1 : 99);
    }
    int rdest = -1, cdest = -1;
    if (dest >= 0)
        member(g, scope, dest, &rdest, &cdest);
    char sc[2] = {scope, 0}, tp[2] = {top, 0}, up[2] = {s->uplo, 0}, dg[2] = {s->diag, 0};
    cur = t;
    cur_m = s->m;
    cur_general = s->uplo == 'G';
    long i0 = init_calls, n0 = init_n, p0 = post_calls, o0 = op_calls;
    if (fortran)
        t->tuop_f(g->ctxt, sc, tp, up, dg, s->m, s->n, a, s->lda, rdest, cdest, f_init_double, f_op_add,
                  f_post_plus1);
    else
        t->tuop(g->ctxt, sc, tp, up, dg, s->m, s->n, a, s->lda, rdest, cdest, init_double, op_add,
                post_plus1);
    int mine = dest < 0 || dest == me;
    long bad = 0;
    for (size_t k = 0; k < cells; k++) {
        int i = (int)(k % (size_t)s->lda), j = (int)(k / (size_t)s->lda);
        double want_re = i < s->m ? contribution(g->myrow, g->mycol, i, j, salt) : 99,
               want_im = i < s->m ? 1 : 99;
        if (mine && i < s->m && in_shape(s->uplo, s->diag, s->m, s->n, i, j)) {
            double sum = 0;
            for (int q = 0; q < np; q++) {
                int r, c;
                member(g, scope, q, &r, &c);
                sum += contribution(r, c, i, j, salt);
            }
            want_re = 2 * sum + 1;
            want_im = 2.0 * np;
        }
        typed_get(t, a, k, &re, &im);
        bad += re != want_re || (t->is_complex && im != want_im);
    }
    CHECK(bad == 0, "%c %c TOP '%c' %c %dx%d dest %d fortran %d: %ld wrong elements", t->letter, scope, top,
          s->uplo, s->m, s->n, dest, fortran, bad);
    CHECK(init_calls == i0 + 1 && init_n == n0 + count_of(s),
          "INIT: %ld calls on %ld elements (want 1 on %ld)", init_calls - i0, init_n - n0, count_of(s));
    CHECK(post_calls == p0 + (mine ? 1 : 0), "POST: %ld calls on a %s", post_calls - p0,
          mine ? "destination" : "non-destination");
    /* OP ran somewhere in the scope (two or more members, some elements) */
    int scope_ops = (int)(op_calls - o0);
    Cigsum2d(g->ctxt, sc, tp, 1, 1, &scope_ops, 1, -1, -1); /* the built-in sum, tested elsewhere */
    CHECK(np == 1 || count_of(s) == 0 || scope_ops > 0, "OP never ran in scope %c of %d", scope, np);
    free(a);
}

/* A pattern with bits in every byte (unsigned: no signed overflow). */
static int pattern(int r, int c, int k) { return (int)((unsigned)(r * 31 + c * 17 + k * 5) * 0x01010101u); }

static void xor_check(const grid *g, char scope, char top, int dest)
{
    int np = scope_size(g, scope), me = my_index(g, scope), a[6], rdest = -1, cdest = -1;
    for (int k = 0; k < 6; k++)
        a[k] = pattern(g->myrow, g->mycol, k);
    if (dest >= 0)
        member(g, scope, dest, &rdest, &cdest);
    char sc[2] = {scope, 0}, tp[2] = {top, 0}, up[] = "G", dg[] = "N";
    Cituop2d(g->ctxt, sc, tp, up, dg, 3, 2, a, 3, rdest, cdest, NULL, op_xor, NULL);
    int mine = dest < 0 || dest == me, bad = 0;
    for (int k = 0; k < 6; k++) {
        int want = pattern(g->myrow, g->mycol, k);
        if (mine) {
            want = 0;
            for (int q = 0; q < np; q++) {
                int r, c;
                member(g, scope, q, &r, &c);
                want ^= pattern(r, c, k);
            }
        }
        bad += a[k] != want;
    }
    CHECK(bad == 0, "xor %c TOP '%c' dest %d: %d wrong", scope, top, dest, bad);
}

static void sweep(const grid *g, int quick)
{
    const shape shapes[] = {{'G', 'N', 3, 2, 5}, {'U', 'N', 4, 3, 4}, {'L', 'U', 3, 5, 3}};
    const char *tops = blx_algorithm_letters();
    int iter = 0;
    for (const char *sp = "RCA"; *sp; sp++) {
        int np = scope_size(g, *sp);
        for (const char *tp = tops; *tp; tp++) {
            if (quick && (tp - tops) % 3 != 0)
                continue;
            for (int t = 0; t < 5; t++)
                for (int s = 0; s < 3; s++, iter++) {
                    /* leave-on-all, then one destination, varied */
                    one(g, all_types[t], *sp, *tp, &shapes[s], -1, iter % 2, iter);
                    one(g, all_types[t], *sp, *tp, &shapes[s], iter % np, (iter + 1) % 2, iter);
                }
            xor_check(g, *sp, *tp, -1);
            xor_check(g, *sp, *tp, (int)(tp - tops) % np);
        }
    }
    CHECK(op_bad_chunk == 0, "OP got %ld calls cutting a column", op_bad_chunk);
}

/* ---- part 2: the scaled 2-norm on long vectors ---- */

/* (scale, sumsq) pairs: INIT makes (|x|, 1) of x (stored as (x, ignored)),
 * OP merges two pairs, POST leaves the norm scale * sqrt(sumsq) in the
 * first entry.  Symmetric in its operands, so coherent. */
static void norm_init(int n, void *v)
{
    double *p = v;
    for (int k = 0; k + 1 < n; k += 2) {
        p[k + 1] = p[k] != 0 ? 1 : 0;
        p[k] = fabs(p[k]);
    }
}
static void norm_op(int n, void *a, const void *b)
{
    double *x = a;
    const double *y = b;
    op_calls++;
    if (n % 2 != 0)
        op_bad_chunk++;
    for (int k = 0; k + 1 < n; k += 2) {
        double s1 = x[k], q1 = x[k + 1], s2 = y[k], q2 = y[k + 1];
        if (s1 < s2 || (s1 == s2 && q1 < q2)) { /* the larger scale first */
            double ts = s1, tq = q1;
            s1 = s2, q1 = q2, s2 = ts, q2 = tq;
        }
        x[k] = s1;
        x[k + 1] = s1 > 0 ? q1 + q2 * (s2 / s1) * (s2 / s1) : 0;
    }
}
static void norm_post(int n, void *v)
{
    double *p = v;
    for (int k = 0; k + 1 < n; k += 2)
        p[k] = p[k] * sqrt(p[k + 1]);
}

static double big(int who, int j) { return 1e300 * (1 + (who * 3 + j) % 7) * ((who + j) % 2 ? -1 : 1); }

static void norms(const grid *g, char top, int cols)
{
    int np = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    double *a = malloc(2 * (size_t)cols * sizeof *a);
    for (int j = 0; j < cols; j++)
        a[2 * j] = big(me, j), a[2 * j + 1] = -1;
    char tp[2] = {top, 0}, all[] = "A", gen[] = "G", dg[] = "N";
    op_bad_chunk = 0;
    Cdtuop2d(g->ctxt, all, tp, gen, dg, 2, cols, a, 2, -1, -1, norm_init, norm_op, norm_post);
    long bad = 0;
    for (int j = 0; j < cols; j++) {
        /* the exact norm, scaled by hand */
        double ss = 0;
        for (int w = 0; w < np; w++)
            ss += (big(w, j) / 1e300) * (big(w, j) / 1e300);
        double want = 1e300 * sqrt(ss);
        bad += !(fabs(a[2 * j] - want) <= 1e-13 * want);
    }
    CHECK(bad == 0, "norm TOP '%c' %d columns: %ld wrong (first %g)", top, cols, bad, a[0]);
    CHECK(op_bad_chunk == 0, "norm TOP '%c': OP saw half a pair %ld times", top, op_bad_chunk);
    free(a);
}

/* Under the network's model: the default picks by the cost model among
 * algorithms that may split the vector only with at least np columns. */
static void default_choice(const grid *g)
{
    int np = g->nprow * g->npcol;
    const blx_model *model = &blx_ctx_find(g->ctxt)->model;
    blx_tree_cache trees = {0};
    size_t bytes = (size_t)1 << 21;
    for (int split = 0; split <= 1; split++) {
        blx_route r;
        blx_route_in in = {np, bytes, 1, split, 1, 1, model, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL};
        CHECK(blx_route_combine(&r, ' ', &in) == 0, "no route");
        int cols = split ? (int)(bytes / 16) : 1; /* 2 x cols, or (bytes / 8) x 1 */
        int m = split ? 2 : (int)(bytes / 8);
        double *a = calloc((size_t)m * (size_t)cols, sizeof *a);
        unsigned long before = blx_algorithm_runs(r.alg), rab = blx_algorithm_runs(&blx_alg_rabenseifner);
        char all[] = "A", sp[] = " ", gen[] = "G", dg[] = "N";
        cur = &d_typed;
        cur_m = m;
        cur_general = 1;
        Cdtuop2d(g->ctxt, all, sp, gen, dg, m, cols, a, m, -1, -1, NULL, op_add, NULL);
        CHECK(blx_algorithm_runs(r.alg) == before + 1, "%d columns: %s did not run", cols, r.alg->name);
        if (!split)
            CHECK(blx_algorithm_runs(&blx_alg_rabenseifner) == rab, "one column: the vector was split");
        if (split && mt_rank == 0)
            printf("  %d processes, 2 MiB in %d columns: the default runs %s\n", np, cols, r.alg->name);
        free(a);
    }
    blx_tree_cache_free(&trees);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int network = argc > 1 && strcmp(argv[1], "network") == 0;
    if (network)
        setenv("BLACS_MODEL", "alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=1", 1);
    mpitest_start();
    mt_grid shapes[5];
    int ngrids = mpitest_grids(mt_size, shapes);
    for (int k = 0; k < ngrids; k++) {
        grid g = {0, shapes[k].p, shapes[k].q, -1, -1};
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "Row", g.nprow, g.npcol);
        if (g.ctxt < 0)
            continue;
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        if (!network)
            sweep(&g, quick);
        if (g.nprow * g.npcol == mt_size) {
            for (const char *t = network ? " " : " 1TIMSH"; *t; t++) {
                norms(&g, *t, 3);
                norms(&g, *t, 40000);
            }
            if (network)
                default_choice(&g);
        }
        Cblacs_gridexit(g.ctxt);
    }
    return mpitest_finish("t_uop");
}
