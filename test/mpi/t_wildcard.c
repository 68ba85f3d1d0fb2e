/*
 * test/mpi/t_wildcard.c - the receive from any process, vGERVA2D and
 * vTRRVA2D (LAWN 73 section 7.1.2), on every grid shape that fits.
 *
 * A fan-in: every process but the collector {0,0} sends it two matrices
 * (general, then trapezoidal), each holding values that name the sender and
 * the message; the collector takes them all with receives from any process,
 * and checks that each arrived exactly once, whole, with the sender's
 * coordinates returned, and each sender's two messages in the order sent.
 * For all five types, through C and through Fortran.
 *
 * Around the fan-in, traffic a wildcard receive must not take:
 *  - a broadcast to the collector, of the same size, sent before the
 *    point-to-point messages and received after them (TOP 'F': the
 *    collector forwards nothing, so the others need not wait for it);
 *  - after the wildcards (and a barrier: a wildcard takes any outstanding
 *    point-to-point message), named receives of further messages: the
 *    counters must still agree.
 * Then the restricted forms: {r,-1} takes only row r's messages and
 * {-1,c} only column c's, with messages from everywhere outstanding; and a
 * process's message to itself.
 */
#include "mpitest.h"
#include "typed.h"

enum { M = 3, N = 2, LDA = 4, SALT_GE = 1, SALT_GE2 = 2, SALT_TR = 3, SALT_BC = 4, SALT_NAMED = 5 };

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
} grid;

static void fill(const typed_ops *t, void *a, int who, int salt)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++)
            typed_put(t, a, (size_t)(i + j * LDA), i < M ? mt_value(who, salt, i + j * M) : -7, 0);
}

/* Whether a received M x N (trapezoid: its elements only) holds what 'who'
 * sent with 'salt'; the LDA gap and the elements outside the shape must
 * keep the receiver's marker -7. */
static int holds(const typed_ops *t, const void *a, char uplo, int who, int salt)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++) {
            double re, im;
            typed_get(t, a, (size_t)(i + j * LDA), &re, &im);
            int in = i < M && in_shape(uplo, 'N', M, N, i, j);
            if (re != (in ? mt_value(who, salt, i + j * M) : -7))
                return 0;
        }
    return 1;
}

static void blank(const typed_ops *t, void *a)
{
    for (size_t k = 0; k < (size_t)LDA * N; k++)
        typed_put(t, a, k, -7, 0);
}

/* Through the C or the Fortran interface. */
static void recv_any(const typed_ops *t, int fortran, const grid *g, char uplo, void *a, int *r, int *c)
{
    static char diag[] = "N";
    char u[2] = {uplo, 0};
    if (uplo != 'G')
        t->trrva(g->ctxt, u, diag, M, N, a, LDA, r, c);
    else if (fortran)
        t->gerva_f(g->ctxt, M, N, a, LDA, r, c);
    else
        t->gerva(g->ctxt, M, N, a, LDA, r, c);
}

static void fan_in(const typed_ops *t, int fortran, const grid *g)
{
    int ng = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    double a[2 * LDA * N]; /* room for a complex double matrix */
    static char all[] = "All", full[] = "F";
    if (me != 0) {
        /* the broadcast first: from {0,1} ('F': straight to everyone) */
        if (me == 1) {
            fill(t, a, me, SALT_BC);
            t->gebs(g->ctxt, all, full, M, N, a, LDA);
        } else if (ng > 1) {
            t->gebr(g->ctxt, all, full, M, N, a, LDA, 1 / g->npcol, 1 % g->npcol);
        }
        fill(t, a, me, SALT_GE);
        t->gesd(g->ctxt, M, N, a, LDA, 0, 0);
        fill(t, a, me, SALT_GE2);
        t->gesd(g->ctxt, M, N, a, LDA, 0, 0);
        /* a wildcard takes any outstanding message (LAWN 73): the next
         * one leaves only once the collector is done with them */
        Cblacs_barrier(g->ctxt, all);
        fill(t, a, me, SALT_NAMED);
        t->gesd(g->ctxt, M, N, a, LDA, 0, 0);
        return;
    }
    /* the collector: 2 (ng - 1) wildcard receives; a sender's first
     * message must come before its second (same pair: order kept) */
    int *got = calloc((size_t)ng, sizeof *got);
    for (int k = 0; k < 2 * (ng - 1); k++) {
        int r = -1, c = -1;
        blank(t, a);
        recv_any(t, fortran, g, 'G', a, &r, &c);
        int who = r * g->npcol + c;
        CHECK(r >= 0 && r < g->nprow && c >= 0 && c < g->npcol && who != 0, "%c: sender {%d,%d} returned",
              t->letter, r, c);
        if (who <= 0 || who >= ng)
            continue;
        int salt = got[who]++ == 0 ? SALT_GE : SALT_GE2;
        CHECK(holds(t, a, 'G', who, salt), "%c: message %d from {%d,%d} wrong (fortran %d)", t->letter,
              got[who], r, c, fortran);
    }
    for (int w = 1; w < ng; w++)
        CHECK(got[w] == 2, "%c: %d messages taken from member %d, not 2", t->letter, got[w], w);
    free(got);
    Cblacs_barrier(g->ctxt, all);
    /* the broadcast was not taken by the wildcards */
    if (ng > 1) {
        blank(t, a);
        t->gebr(g->ctxt, all, full, M, N, a, LDA, 1 / g->npcol, 1 % g->npcol);
        CHECK(holds(t, a, 'G', 1, SALT_BC), "%c: broadcast wrong after the wildcard receives", t->letter);
    }
    /* named receives after them: counters in step */
    for (int w = 1; w < ng; w++) {
        blank(t, a);
        t->gerv(g->ctxt, M, N, a, LDA, w / g->npcol, w % g->npcol);
        CHECK(holds(t, a, 'G', w, SALT_NAMED), "%c: named receive from member %d wrong after wildcards",
              t->letter, w);
    }
}

/* Only trapezoids, so the shape of what arrives is known: vTRRVA2D. */
static void fan_in_tr(const typed_ops *t, const grid *g)
{
    int ng = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    double a[2 * LDA * N];
    static char lower[] = "L", nodiag[] = "N";
    if (me != 0) {
        fill(t, a, me, SALT_TR);
        t->trsd(g->ctxt, lower, nodiag, M, N, a, LDA, 0, 0);
        return;
    }
    int *got = calloc((size_t)ng, sizeof *got);
    for (int k = 0; k < ng - 1; k++) {
        int r = -1, c = -1;
        blank(t, a);
        recv_any(t, 0, g, 'L', a, &r, &c);
        int who = r * g->npcol + c;
        CHECK(who > 0 && who < ng, "%c: trapezoid sender {%d,%d}", t->letter, r, c);
        if (who > 0 && who < ng) {
            got[who]++;
            CHECK(holds(t, a, 'L', who, SALT_TR), "%c: trapezoid from {%d,%d} wrong", t->letter, r, c);
        }
    }
    for (int w = 1; w < ng; w++)
        CHECK(got[w] == 1, "%c: %d trapezoids from member %d", t->letter, got[w], w);
    free(got);
}

/* One wildcard receive of a 1 x 1 int naming its sender, restricted to
 * {r, c} (-1: any); checks the sender is allowed and tallies it. */
static void take(const grid *g, int r0, int c0, int *got)
{
    int r = r0, c = c0, v = -1, ng = g->nprow * g->npcol;
    Cigerva2d(g->ctxt, 1, 1, &v, 1, &r, &c);
    int ok = (r0 < 0 || r == r0) && (c0 < 0 || c == c0) && v == r * g->npcol + c && v > 0 && v < ng;
    CHECK(ok, "{%d,%d} took {%d,%d} (value %d)", r0, c0, r, c, v);
    if (ok)
        got[v]++;
}

/* {r,-1} and {-1,c}: with every other process's message outstanding, the
 * collector takes row 1's first (when there is one), then column 1's
 * others (when there is one), then the rest with {-1,-1}. */
static void restricted(const grid *g)
{
    int ng = g->nprow * g->npcol, me = g->myrow * g->npcol + g->mycol;
    if (me != 0) {
        Cigesd2d(g->ctxt, 1, 1, &me, 1, 0, 0);
        return;
    }
    int *got = calloc((size_t)ng, sizeof *got), left = ng - 1;
    for (int k = 0; g->nprow > 1 && k < g->npcol; k++, left--)
        take(g, 1, -1, got);
    for (int k = 0; g->npcol > 1 && k < g->nprow - (g->nprow > 1); k++, left--)
        take(g, -1, 1, got);
    for (; left > 0; left--)
        take(g, -1, -1, got);
    for (int w = 1; w < ng; w++)
        CHECK(got[w] == 1, "restricted: %d messages from member %d", got[w], w);
    free(got);
}

/* A message to oneself, taken by a wildcard. */
static void self(const grid *g)
{
    double x[2] = {g->myrow + 0.5, g->mycol + 0.25}, y[2] = {0, 0};
    Cdgesd2d(g->ctxt, 2, 1, x, 2, g->myrow, g->mycol);
    int r = -1, c = -1;
    Cdgerva2d(g->ctxt, 2, 1, y, 2, &r, &c);
    CHECK(r == g->myrow && c == g->mycol && y[0] == x[0] && y[1] == x[1], "self: took {%d,%d} %g %g", r, c,
          y[0], y[1]);
}

int main(void)
{
    mpitest_start();
    mt_grid shapes[5];
    int ngrids = mpitest_grids(mt_size, shapes);
    int runs = 0;
    for (int k = 0; k < ngrids; k++) {
        grid g = {0, shapes[k].p, shapes[k].q, -1, -1};
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "Row", g.nprow, g.npcol);
        if (g.ctxt < 0)
            continue;
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        /* each phase ends with a barrier: a wildcard takes any
         * outstanding message, so none of the next phase may be sent yet */
        for (int t = 0; t < 5; t++) {
            fan_in(all_types[t], 0, &g);
            Cblacs_barrier(g.ctxt, "All");
            fan_in(all_types[t], 1, &g);
            Cblacs_barrier(g.ctxt, "All");
            fan_in_tr(all_types[t], &g);
            Cblacs_barrier(g.ctxt, "All");
        }
        restricted(&g);
        Cblacs_barrier(g.ctxt, "All");
        self(&g);
        Cblacs_barrier(g.ctxt, "All");
        Cblacs_gridexit(g.ctxt);
        runs++;
    }
    CHECK(runs > 0 || mt_rank >= 1, "no grid ran");
    return mpitest_finish("t_wildcard");
}
