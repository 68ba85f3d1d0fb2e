/*
 * test/mpi/t_support.c - every support routine of the C interface, with the
 * reference's answers (spec section 2), on any number of processes.
 *
 * pinfo/setup; get/set with every WHAT code; gridinit in both orders and
 * gridmap with a user map, for every grid shape that fits; processes outside
 * a grid; gridinfo/pnum/pcoord in and out of range; barrier in every scope;
 * context handle numbering and reuse; overlapping grids; grids on a
 * sub-communicator and on the communicator of another grid; the C system
 * handle table; freebuff; timers (C and Fortran names) against a sleep and
 * against CPU work; barriers that wait for a late member in every scope; the
 * k*id routines; BLACS_EXIT(1) and starting again.
 */
#include <time.h>

#include "mpitest.h"

/* gridinit on WORLD: check the placement rule of spec 2.4 on every process. */
static void check_gridinit(int p, int q, const char *order)
{
    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    CHECK(ctxt == 0, "BLACS_GET(0,0) gave %d", ctxt);
    Cblacs_gridinit(&ctxt, (char *)order, p, q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int colmajor = order[0] == 'C' || order[0] == 'c';
    if (mt_rank >= p * q) {
        CHECK(ctxt == -1, "%dx%d: outside process got ctxt %d", p, q, ctxt);
        CHECK(nprow == -1 && npcol == -1 && myrow == -1 && mycol == -1, "outside gridinfo");
        return;
    }
    int er = colmajor ? mt_rank % p : mt_rank / q, ec = colmajor ? mt_rank / p : mt_rank % q;
    CHECK(ctxt >= 0, "%dx%d %s: member got ctxt %d", p, q, order, ctxt);
    CHECK(nprow == p && npcol == q, "%dx%d: gridinfo says %dx%d", p, q, nprow, npcol);
    CHECK(myrow == er && mycol == ec, "%dx%d order %s: rank %d at {%d,%d}, expected {%d,%d}", p, q, order,
          mt_rank, myrow, mycol, er, ec);

    /* pnum is the row-major position, whatever the order; pcoord inverts it */
    for (int r = -1; r <= p; r++)
        for (int c = -1; c <= q; c++) {
            int pn = Cblacs_pnum(ctxt, r, c);
            int inside = r >= 0 && r < p && c >= 0 && c < q;
            CHECK(pn == (inside ? r * q + c : -1), "pnum(%d,%d) = %d", r, c, pn);
        }
    for (int pn = -2; pn <= p * q; pn++) {
        int r, c;
        Cblacs_pcoord(ctxt, pn, &r, &c);
        int inside = pn >= 0 && pn < p * q;
        CHECK(r == (inside ? pn / q : -1) && c == (inside ? pn % q : -1), "pcoord(%d) = (%d,%d)", pn, r, c);
    }

    /* the context's own communicator: rank = pnum */
    int sys10, rank, size;
    Cblacs_get(ctxt, 10, &sys10);
    MPI_Comm comm = Cblacs2sys_handle(sys10);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK(size == p * q && rank == myrow * q + mycol, "get(ctxt,10): rank %d of %d", rank, size);
    CHECK(Csys2blacs_handle(comm) == sys10, "get(ctxt,10) handle not registered");
    Cfree_blacs_system_handle(sys10);

    /* barriers of every scope (an unknown scope is an error: t_errors) */
    Cblacs_barrier(ctxt, "All");
    Cblacs_barrier(ctxt, "r");
    Cblacs_barrier(ctxt, "Column");
    Cblacs_gridexit(ctxt);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    CHECK(nprow == -1 && myrow == -1, "gridinfo after gridexit gave %d", nprow);
}

/* get/set of the per-context codes 10-16 (spec 2.2). */
static void check_getset(void)
{
    int ctxt, v, v2[2];
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    const int defaults[] = {1, 1, 1, 1, 0, 0};
    for (int w = 11; w <= 16; w++) {
        Cblacs_get(ctxt, w, &v);
        CHECK(v == defaults[w - 11], "default of WHAT %d is %d", w, v);
    }
    int set[] = {-3, 2, 5, 7, 1, 1};
    for (int w = 11; w <= 16; w++) {
        Cblacs_set(ctxt, w, &set[w - 11]);
        Cblacs_get(ctxt, w, &v);
        CHECK(v == set[w - 11], "WHAT %d set %d, got %d", w, set[w - 11], v);
    }
    /* rejected values leave the setting alone (with a warning) */
    int zero = 0, neg = -2;
    Cblacs_set(ctxt, 11, &zero);
    Cblacs_get(ctxt, 11, &v);
    CHECK(v == -3, "NR_BS set to 0 changed it to %d", v);
    Cblacs_set(ctxt, 14, &neg);
    Cblacs_get(ctxt, 14, &v);
    CHECK(v == 7, "NB_CO set to -2 changed it to %d", v);
    /* a fresh grid starts from the defaults again */
    int ctxt2;
    Cblacs_get(0, 0, &ctxt2);
    Cblacs_gridinit(&ctxt2, "R", 1, mt_size);
    Cblacs_get(ctxt2, 12, &v);
    CHECK(v == 1 && ctxt2 != ctxt, "second grid: NB_BS %d, handles %d %d", v, ctxt, ctxt2);
    Cblacs_gridexit(ctxt2);
    Cblacs_gridexit(ctxt);

    /* process-wide codes 0, 1, 2 ignore the context */
    int *ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    Cblacs_get(-1, 1, v2);
    CHECK(v2[0] == 0 && v2[1] == *ub, "message-ID range [%d,%d], tag ub %d", v2[0], v2[1], *ub);
    Cblacs_get(-1, 2, &v);
    const char *level = getenv("BLACS_DEBUG");
    CHECK(v == (level ? atoi(level) : 1), "debug level %d, BLACS_DEBUG %s", v, level ? level : "unset");
    Cblacs_get(12345, 0, &v);
    CHECK(v == 0, "system context %d", v);
    /* a narrower ID range is honoured by the grids made afterwards */
    int range[2] = {1000, 1000 + 4095};
    Cblacs_set(-1, 1, range);
    Cblacs_get(-1, 1, v2);
    CHECK(v2[0] == 1000 && v2[1] == 5095, "range after set [%d,%d]", v2[0], v2[1]);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    int x = mt_rank, y = -1;
    for (int k = 0; k < 5000; k++) { /* more messages than the range holds: IDs wrap */
        Cigesd2d(ctxt, 1, 1, &x, 1, 0, (mt_rank + 1) % mt_size);
        Cigerv2d(ctxt, 1, 1, &y, 1, 0, (mt_rank + mt_size - 1) % mt_size);
        CHECK(y == (mt_rank + mt_size - 1) % mt_size, "narrow range message %d got %d", k, y);
        if (y != (mt_rank + mt_size - 1) % mt_size)
            break;
    }
    Cblacs_gridexit(ctxt);

    /* the narrowest range: every kind of traffic cycles through very few IDs.
     * Leave-on-one combines first, with their root late: nothing else makes
     * the others wait, so the leaves run many operations ahead of the root;
     * then broadcasts from every root in turn.  Every result must be right. */
    int tiny[2] = {0, 5};
    Cblacs_set(-1, 1, tiny);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    if (mt_rank == 0)
        nanosleep(&(struct timespec){0, 300000000}, NULL); /* the root comes late */
    const char *tops[] = {"F", "T", "1", "S", " "};
    for (int k = 0; k < 40; k++) {
        int sum = mt_rank * 1000 + k, want = 0;
        for (int r = 0; r < mt_size; r++)
            want += r * 1000 + k;
        Cigsum2d(ctxt, "R", (char *)tops[k % 5], 1, 1, &sum, 1, 0, 0);
        if (mt_rank == 0)
            CHECK(sum == want, "tiny ID range, sum %d (top '%s'): %d, want %d", k, tops[k % 5], sum, want);
    }
    for (int k = 0; k < 40; k++) {
        double d = mt_rank == k % mt_size ? k + 0.5 : -1;
        if (mt_rank == k % mt_size)
            Cdgebs2d(ctxt, "All", (char *)tops[k % 5], 1, 1, &d, 1);
        else
            Cdgebr2d(ctxt, "All", (char *)tops[k % 5], 1, 1, &d, 1, 0, k % mt_size);
        CHECK(d == k + 0.5, "tiny ID range, broadcast %d: %g", k, d);
    }
    Cblacs_gridexit(ctxt);
    int full[2] = {0, *ub};
    Cblacs_set(-1, 1, full);
}

/* Context handles are the lowest free index; non-members take no slot. */
static void check_handles(void)
{
    int a, b, c;
    Cblacs_get(0, 0, &a);
    Cblacs_gridinit(&a, "R", 1, 1); /* only rank 0 is a member */
    Cblacs_get(0, 0, &b);
    Cblacs_gridinit(&b, "R", 1, mt_size);
    if (mt_rank == 0)
        CHECK(a == 0 && b == 1, "rank 0 handles %d %d", a, b);
    else
        CHECK(a == -1 && b == 0, "handles %d %d", a, b);
    if (a >= 0)
        Cblacs_gridexit(a);
    Cblacs_get(0, 0, &c);
    Cblacs_gridinit(&c, "C", mt_size, 1);
    /* rank 0 freed slot 0 (grid a); elsewhere slot 0 still holds grid b */
    CHECK(c == (mt_rank == 0 ? 0 : 1), "lowest free slot not used: got %d", c);
    /* two overlapping grids in use at the same time, interleaved */
    int x = 100 + mt_rank, y = -1, z = -1;
    Cigesd2d(b, 1, 1, &x, 1, 0, (mt_rank + 1) % mt_size);
    Cigesd2d(c, 1, 1, &x, 1, (mt_rank + mt_size - 1) % mt_size, 0);
    Cigerv2d(c, 1, 1, &z, 1, (mt_rank + 1) % mt_size, 0);
    Cigerv2d(b, 1, 1, &y, 1, 0, (mt_rank + mt_size - 1) % mt_size);
    CHECK(y == 100 + (mt_rank + mt_size - 1) % mt_size, "grid b got %d", y);
    CHECK(z == 100 + (mt_rank + 1) % mt_size, "grid c got %d", z);
    Cblacs_gridexit(b);
    Cblacs_gridexit(c);
}

/* Grids on a sub-communicator, with a user map, and on another grid's
 * communicator (spec 2.3, 2.4). */
static void check_subcomm(void)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half);
    int hrank, hsize;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    int h = Csys2blacs_handle(half);
    CHECK(h > 0, "handle of a new communicator is %d", h);
    CHECK(Csys2blacs_handle(half) == h, "same communicator, new handle");
    CHECK(Cblacs2sys_handle(h) == half, "handle %d does not give the communicator back", h);
    CHECK(Csys2blacs_handle(MPI_COMM_WORLD) == 0, "WORLD is not handle 0");

    /* reversed order: half rank k sits at column hsize-1-k */
    int *map = malloc((size_t)hsize * 3 * sizeof *map);
    for (int j = 0; j < hsize; j++)
        map[0 + j * 3] = hsize - 1 - j; /* LDUMAP 3 > NPROW 1 */
    int ctxt = h, nprow, npcol, myrow, mycol;
    Cblacs_gridmap(&ctxt, map, 3, 1, hsize);
    free(map);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    CHECK(nprow == 1 && npcol == hsize && myrow == 0 && mycol == hsize - 1 - hrank,
          "gridmap on half: {%d,%d} of %dx%d", myrow, mycol, nprow, npcol);
    /* the user may free the communicator: the grid has its own */
    Cfree_blacs_system_handle(h);
    MPI_Comm_free(&half);
    int x = 1000 * (mt_rank % 2) + mycol, y = -1;
    Cigesd2d(ctxt, 1, 1, &x, 1, 0, (mycol + 1) % npcol);
    Cigerv2d(ctxt, 1, 1, &y, 1, 0, (mycol + npcol - 1) % npcol);
    CHECK(y == 1000 * (mt_rank % 2) + (mycol + npcol - 1) % npcol, "half grid message %d", y);

    /* a grid made from this grid's communicator (BLACS_GET code 10) */
    int sys, sub, r1, c1;
    Cblacs_get(ctxt, 10, &sys);
    sub = sys;
    Cblacs_gridinit(&sub, "C", 1, 1);
    Cblacs_gridinfo(sub, &nprow, &npcol, &r1, &c1);
    CHECK((mycol == 0) == (sub >= 0), "1x1 grid on grid comm (pnum 0 is column 0): ctxt %d", sub);
    CHECK(sub < 0 || (nprow == 1 && npcol == 1 && r1 == 0 && c1 == 0), "1x1 grid info");
    if (sub >= 0)
        Cblacs_gridexit(sub);
    Cblacs_gridexit(ctxt);

    /* freeing a handle that does not exist is a warning; WORLD is never freed */
    Cfree_blacs_system_handle(0);
    CHECK(Cblacs2sys_handle(0) == MPI_COMM_WORLD, "handle 0 freed");
}

/* This thread's CPU seconds: the reference the CPU timers are held to. */
static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The timers, by both names.  A 100 ms sleep advances the wall clocks by at
 * least about that much and the CPU clocks by little; a fixed amount of CPU
 * work (until this thread has used 50 ms, however small a share of a core an
 * oversubscribed process gets) advances the CPU clocks by at least about
 * that much.  A stuck clock, or a wall clock as the CPU clock, fails. */
static void check_timers(void)
{
    double w0 = Cdwalltime00(), fw0 = dwalltime00_(), c0 = Cdcputime00(), fc0 = dcputime00_();
    nanosleep(&(struct timespec){0, 100000000}, NULL);
    double w1 = Cdwalltime00(), fw1 = dwalltime00_(), c1 = Cdcputime00(), fc1 = dcputime00_();
    CHECK(w1 - w0 >= 0.09 && w1 - w0 < 60, "Cdwalltime00 advanced %g s over a 100 ms sleep", w1 - w0);
    CHECK(fw1 - fw0 >= 0.09 && fw1 - fw0 < 60, "dwalltime00_ advanced %g s over a 100 ms sleep", fw1 - fw0);
    CHECK(c0 >= 0 && c1 - c0 >= 0 && c1 - c0 < 0.05, "Cdcputime00 went %g -> %g over a 100 ms sleep", c0, c1);
    CHECK(fc0 >= 0 && fc1 - fc0 >= 0 && fc1 - fc0 < 0.05, "dcputime00_ went %g -> %g over a 100 ms sleep",
          fc0, fc1);

    volatile double sink = 0;
    double r0 = thread_cpu();
    while (thread_cpu() - r0 < 0.05)
        for (int k = 0; k < 10000; k++)
            sink += k;
    double c2 = Cdcputime00(), fc2 = dcputime00_();
    CHECK(c2 - c1 >= 0.045 && c2 - c1 < 60, "Cdcputime00 advanced %g s over 50 ms of CPU work", c2 - c1);
    CHECK(fc2 - fc1 >= 0.045 && fc2 - fc1 < 60, "dcputime00_ advanced %g s over 50 ms of CPU work",
          fc2 - fc1);
}

/* Barriers wait: on a grid with more than one row and column where the
 * processes allow, one member of every row (column; the whole grid) comes
 * 250 ms late to a Row (Column; All) barrier, and every other member must
 * have waited for it. */
static void check_barrier_waits(void)
{
    int p = mt_size >= 4 ? 2 : 1, q = mt_size / p, ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", p, q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (ctxt < 0)
        return;
    const char *scopes[] = {"Row", "Column", "All"};
    for (int s = 0; s < 3; s++) {
        Cblacs_barrier(ctxt, "All");
        int late = s == 0 ? mycol == 0 : s == 1 ? myrow == 0 : myrow == 0 && mycol == 0;
        double t0 = MPI_Wtime();
        if (late)
            nanosleep(&(struct timespec){0, 250000000}, NULL);
        Cblacs_barrier(ctxt, (char *)scopes[s]);
        double waited = MPI_Wtime() - t0;
        CHECK(late || waited >= 0.1,
              "%s barrier on the %dx%d grid: {%d,%d} waited %.3f s for a member 250 ms late", scopes[s], p, q,
              myrow, mycol, waited);
    }
    Cblacs_gridexit(ctxt);
}

static void check_misc(void)
{
    int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    CHECK(Cksendid(ctxt, 0, 0) == 9977 && Ckrecvid(ctxt, 0, 0) == 9977, "ksendid/krecvid");
    int a = Ckbsid(ctxt, "Row"), b = Ckbsid(ctxt, "r"), c = Ckbsid(ctxt, "?");
    int d = Ckbsid(ctxt, "C"), e = Ckbrid(ctxt, "c", 0, 0), f = Ckbrid(ctxt, "Row", 0, 0);
    CHECK(a == 0 && b == 1 && c == 2 && d == 0 && e == 1 && f == 3, "k*id %d %d %d %d %d %d", a, b, c, d, e,
          f);

    check_timers();

    /* freebuff with sends outstanding and with none */
    int x = 7, y = 0;
    Cigesd2d(ctxt, 1, 1, &x, 1, 0, mt_rank);
    Cblacs_freebuff(ctxt, 0);
    Cigerv2d(ctxt, 1, 1, &y, 1, 0, mt_rank);
    Cblacs_freebuff(ctxt, 1);
    CHECK(y == 7, "send to self %d", y);

    /* BLACS_EXIT(1) leaves MPI up; the BLACS start again */
    Cblacs_exit(1);
    int nprow, npcol, myrow, mycol;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    CHECK(nprow == -1, "context survived BLACS_EXIT(1)");
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    CHECK(ctxt == 0, "after BLACS_EXIT(1) first handle %d", ctxt);
    Cblacs_barrier(ctxt, "A");
    Cblacs_gridexit(ctxt);
}

int main(void)
{
    int me, np, me2, np2;
    Cblacs_pinfo(&me, &np);
    Cblacs_setup(&me2, &np2);
    mpitest_start();
    int wr, ws;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &ws);
    CHECK(me == wr && np == ws && me2 == me && np2 == np, "pinfo %d/%d setup %d/%d", me, np, me2, np2);

    for (int p = 1; p <= np; p++)
        for (int q = 1; p * q <= np; q++) {
            check_gridinit(p, q, "R");
            check_gridinit(p, q, "c");
        }
    check_barrier_waits();
    check_getset();
    check_handles();
    check_subcomm();
    check_misc();
    return mpitest_finish("t_support");
}
