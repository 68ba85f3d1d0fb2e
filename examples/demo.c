/*
 * examples/demo.c - a first BLACS program: a 2 x 2 process grid passes a
 * small matrix around the grid, and every process prints what it holds.
 *
 *   mpirun -np 4 build/examples/demo
 *
 * Each process fills a 3 x 4 matrix with (its grid position)*100 + element
 * index, sends it to the next process in row-major order (wrapping around),
 * and receives its predecessor's.  Sends are "locally blocking": every process
 * can send first and receive second without deadlock, whatever the size.
 * Then the upper triangle of the received matrix is passed the other way
 * round with a trapezoidal send, to show that only the shape travels.
 */
#include <stdio.h>

#include "blacs.h"

enum { M = 3, N = 4, LDA = 3 };

static void show(const char *title, int myrow, int mycol, const double *a)
{
    printf("{%d,%d} %s\n", myrow, mycol, title);
    for (int i = 0; i < M; i++) {
        printf("   ");
        for (int j = 0; j < N; j++)
            printf(" %6.0f", a[i + j * LDA]);
        printf("\n");
    }
    fflush(stdout);
}

int main(void)
{
    int me, np, ctxt, nprow, npcol, myrow, mycol;
    Cblacs_pinfo(&me, &np);
    if (np < 4) {
        if (me == 0)
            fprintf(stderr, "demo: needs 4 processes (mpirun -np 4)\n");
        Cblacs_exit(0);
        return 1;
    }
    Cblacs_get(0, 0, &ctxt);             /* default system context: MPI_COMM_WORLD */
    Cblacs_gridinit(&ctxt, "Row", 2, 2); /* 2 x 2 grid, row-major */
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (myrow < 0) { /* extra processes are outside the grid */
        Cblacs_exit(0);
        return 0;
    }

    int mine = Cblacs_pnum(ctxt, myrow, mycol);
    int next = (mine + 1) % (nprow * npcol), prev = (mine + nprow * npcol - 1) % (nprow * npcol);
    int nr, nc, pr, pc;
    Cblacs_pcoord(ctxt, next, &nr, &nc);
    Cblacs_pcoord(ctxt, prev, &pr, &pc);

    double a[LDA * N], b[LDA * N];
    for (int k = 0; k < LDA * N; k++) {
        a[k] = mine * 100 + k;
        b[k] = -1;
    }

    /* Everybody sends first, then receives. */
    Cdgesd2d(ctxt, M, N, a, LDA, nr, nc);
    Cdgerv2d(ctxt, M, N, b, LDA, pr, pc);

    /* Pass the upper trapezoid of what we got back to where it came from. */
    double t[LDA * N];
    for (int k = 0; k < LDA * N; k++)
        t[k] = 0;
    Cdtrsd2d(ctxt, "Upper", "Non-unit", M, N, b, LDA, pr, pc);
    Cdtrrv2d(ctxt, "Upper", "Non-unit", M, N, t, LDA, nr, nc);

    for (int p = 0; p < nprow * npcol; p++) {
        Cblacs_barrier(ctxt, "All");
        if (p == mine) {
            char title[96];
            snprintf(title, sizeof title, "received from {%d,%d}:", pr, pc);
            show(title, myrow, mycol, b);
            snprintf(title, sizeof title, "upper trapezoid of my own matrix, back from {%d,%d}:", nr, nc);
            show(title, myrow, mycol, t);
        }
    }
    Cblacs_barrier(ctxt, "All");
    if (mine == 0)
        printf("demo: every process received its predecessor's matrix and its own upper trapezoid\n");

    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
