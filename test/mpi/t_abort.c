/*
 * test/mpi/t_abort.c - BLACS_ABORT ends every process, including ones busy in
 * a loop that never calls MPI (the official tester's last auxiliary test).
 * The process at {0, P/2} aborts with error -1; run-mpi.sh expects the job to
 * end quickly, non-zero, with the abort message.
 */
#include "mpitest.h"

int main(void)
{
    mpitest_start();
    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    Cblacs_barrier(ctxt, "A");
    if (mycol == npcol / 2) {
        int c = ctxt, e = -1;
        blacs_abort_(&c, &e); /* through the Fortran entry point, as the tester does */
    }
    volatile unsigned long spin = 0;
    for (;;)
        spin++;
}
