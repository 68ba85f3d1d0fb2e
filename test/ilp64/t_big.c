/*
 * test/ilp64/t_big.c - the ILP64 library (built with -DBLACS_ILP64) on
 * values beyond 32 bits, on 2 processes:
 *   - a 1 x 2 matrix with LDA = 2^31 + 5 sent, received, broadcast and
 *     summed: its two elements are 16 GiB apart, on memory mapped with
 *     MAP_NORESERVE (only the pages touched are ever allocated);
 *   - the same as a trapezoid (the column-by-column packing);
 *   - integer elements beyond 2^32 (the 'i' routines move 64-bit INTEGERs),
 *     and IGAMX2D's RA/CA with LDIA = 2^31 + 5;
 *   - with an argument: a value that does not fit where MPI needs an int
 *     must be a clear error (t_big nprow: NPROW = 2^32 + 1; t_big cdest:
 *     a leave-on-one sum's CDEST = 2^32 + 1, which narrowed to int would
 *     silently name column 1).
 */
#define _DEFAULT_SOURCE /* MAP_NORESERVE, MAP_ANONYMOUS */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "blacs_ilp64.h"

static int fails;
#define CHECK(cond, what)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fails++;                                                       \
            fprintf(stderr, "t_big: FAIL %s (line %d)\n", what, __LINE__); \
        }                                                                  \
    } while (0)

static const blacs_int BIG = ((blacs_int)1 << 31) + 5;

/* 'cols' columns of BIG elements of 'esz' bytes, only reserved. */
static void *big_map(int cols, size_t esz)
{
    void *p = mmap(NULL, (size_t)BIG * (size_t)cols * esz, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("t_big: mmap");
        Cblacs_abort(-1, 2);
    }
    return p;
}

static void p2p(blacs_int ctxt, blacs_int me)
{
    double *A = big_map(2, sizeof(double));
    if (me == 0) {
        A[0] = 1.5, A[BIG] = 2.5, A[BIG + 1] = 3.5;
        Cdgesd2d(ctxt, 1, 2, A, BIG, 0, 1);
        Cdtrsd2d(ctxt, "U", "N", 2, 2, A, BIG, 0, 1); /* (0,0), (0,1), (1,1) */
    } else {
        Cdgerv2d(ctxt, 1, 2, A, BIG, 0, 0);
        CHECK(A[0] == 1.5 && A[BIG] == 2.5, "dgerv2d with LDA = 2^31 + 5");
        CHECK(A[1] == 0 && A[BIG - 1] == 0 && A[BIG + 1] == 0, "dgerv2d wrote outside the matrix");
        A[0] = A[BIG] = 0;
        Cdtrrv2d(ctxt, "U", "N", 2, 2, A, BIG, 0, 0);
        CHECK(A[0] == 1.5 && A[BIG] == 2.5 && A[BIG + 1] == 3.5 && A[1] == 0, "dtrrv2d with LDA = 2^31 + 5");
    }
    munmap(A, (size_t)BIG * 2 * sizeof(double));
}

static void scoped(blacs_int ctxt, blacs_int me)
{
    double *A = big_map(2, sizeof(double));
    A[0] = 1 + me, A[BIG] = 10 * (1 + me);
    if (me == 0)
        Cdgebs2d(ctxt, "R", " ", 1, 2, A, BIG);
    else
        Cdgebr2d(ctxt, "R", " ", 1, 2, A, BIG, 0, 0);
    CHECK(A[0] == 1 && A[BIG] == 10, "dgebr2d with LDA = 2^31 + 5");
    A[0] = 1 + me, A[BIG] = 10 * (1 + me);
    Cdgsum2d(ctxt, "R", " ", 1, 2, A, BIG, -1, -1);
    CHECK(A[0] == 3 && A[BIG] == 30, "dgsum2d with LDA = 2^31 + 5");
    munmap(A, (size_t)BIG * 2 * sizeof(double));

    blacs_int v[3] = {((blacs_int)3 << 40) + me, -((blacs_int)1 << 35) * (1 + me), (blacs_int)1 << 33};
    Cigsum2d(ctxt, "A", " ", 3, 1, v, 3, -1, -1);
    CHECK(v[0] == ((blacs_int)6 << 40) + 1 && v[1] == -((blacs_int)3 << 35) && v[2] == (blacs_int)1 << 34,
          "igsum2d of 64-bit integers");

    blacs_int w[2] = {((blacs_int)1 << 40) * (me == 1 ? 5 : 1), 7 - me};
    blacs_int *ra = big_map(2, sizeof(blacs_int)), *ca = big_map(2, sizeof(blacs_int));
    Cigamx2d(ctxt, "R", "I", 1, 2, w, 1, ra, ca, BIG, 0, 0);
    if (me == 0)
        CHECK(w[0] == ((blacs_int)5 << 40) && w[1] == 7 && ca[0] == 1 && ca[BIG] == 0 && ra[0] == 0 &&
                  ra[BIG] == 0,
              "igamx2d of 64-bit integers, RA/CA with LDIA = 2^31 + 5");
    munmap(ra, (size_t)BIG * 2 * sizeof(blacs_int));
    munmap(ca, (size_t)BIG * 2 * sizeof(blacs_int));
}

int main(int argc, char **argv)
{
    blacs_int me, np, ctxt, nprow, npcol, myrow, mycol;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    if (argc > 1 && strcmp(argv[1], "nprow") == 0)
        Cblacs_gridinit(&ctxt, "R", ((blacs_int)1 << 32) + 1, 1);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    CHECK(sizeof(blacs_int) == 8, "blacs_int is 64-bit");
    CHECK(nprow == 1 && npcol == 2 && mycol == me, "gridinfo");
    CHECK(Cblacs_pnum(ctxt, 0, 1) == 1 && Cblacs_pnum(ctxt, (blacs_int)1 << 32, 0) == -1, "pnum");
    if (argc > 1 && strcmp(argv[1], "cdest") == 0) {
        double v = 1;
        Cdgsum2d(ctxt, "R", " ", 1, 1, &v, 1, 0, ((blacs_int)1 << 32) + 1);
    }
    if (myrow == 0) {
        p2p(ctxt, me);
        scoped(ctxt, me);
        Cblacs_gridexit(ctxt);
    }
    int mine = fails, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf(all == 0 ? "t_big: passed on %d processes\n" : "t_big: FAILED (%d failures)\n",
               all == 0 ? (int)np : all);
    Cblacs_exit(0);
    return all != 0;
}
