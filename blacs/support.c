/*
 * blacs/support.c - the small support routines shared by both interfaces:
 * process and grid queries, freebuff, abort, the vestigial k*id routines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "threads.h"

void blx_pinfo(blacs_int *mypnum, blacs_int *nprocs)
{
    blx_init();
    *mypnum = blx_g.world_rank;
    *nprocs = blx_g.world_size;
}

void blx_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol)
{
    const blx_ctx *c = blx_ctx_find(ctxt);
    if (c == NULL) {
        *nprow = *npcol = *myrow = *mycol = -1;
        return;
    }
    *nprow = c->nprow;
    *npcol = c->npcol;
    *myrow = c->myrow;
    *mycol = c->mycol;
}

int blx_pnum(int ctxt, int prow, int pcol)
{
    const blx_ctx *c = blx_ctx_find(ctxt);
    if (c == NULL || prow < 0 || prow >= c->nprow || pcol < 0 || pcol >= c->npcol)
        return -1;
    return prow * c->npcol + pcol;
}

void blx_pcoord(int ctxt, int pnum, int *prow, int *pcol)
{
    const blx_ctx *c = blx_ctx_find(ctxt);
    if (c == NULL || pnum < 0 || pnum >= c->nprow * c->npcol) {
        *prow = *pcol = -1;
        return;
    }
    *prow = pnum / c->npcol;
    *pcol = pnum % c->npcol;
}

void blx_freebuff(int wait)
{
    blx_thread_enter(-1, "BLACS_FREEBUFF");
    if (wait)
        blx_buf_wait_all("BLACS_FREEBUFF");
    else
        blx_buf_poll();
    blx_buf_free_ready();
    blx_scratch_free();
    blx_thread_leave();
}

void blx_abort(int ctxt, int errnum)
{
    int row = -1, col = -1, nprow, npcol;
    blx_gridinfo(ctxt, &nprow, &npcol, &row, &col);
    int up = blx_mpi_up(), pnum = -1;
    if (up)
        MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    fprintf(stderr, "{%d,%d}, pnum=%d, Contxt=%d, killed other procs, exiting with error #%d.\n\n", row, col,
            pnum, ctxt, errnum);
    fflush(stderr);
    fflush(stdout);
    if (up)
        MPI_Abort(MPI_COMM_WORLD, errnum);
    exit(errnum);
}

/* ksendid/krecvid: the reference answers a constant. */
#define BLX_KID_P2P 9977

int blx_kp2pid(void) { return BLX_KID_P2P; }

/* kbsid/kbrid: a per-context, per-scope counter, starting at 0 and wrapping at
 * MPI_TAG_UB.  These counters are not the ones our topologies use, so calling
 * them cannot disturb real traffic.  Unlike the reference, kbrid advances the
 * scope it is given (the reference always advances the column scope). */
int blx_kscopedid(int ctxt, const char *scope, const char *routine)
{
    blx_ctx *c = blx_ctx_get(ctxt, routine);
    int which = blx_scope_index(scope);
    if (which >= 0) /* unknown letter: the last scope selected */
        c->kid_scope = which;
    int *k = &c->kid[c->kid_scope];
    int id = *k;
    *k = (*k >= blx_g.tag_ub) ? 0 : *k + 1;
    return id;
}

void blx_version(blacs_int *major, blacs_int *minor, blacs_int *patch)
{
    *major = BLACS_VERSION_MAJOR;
    *minor = BLACS_VERSION_MINOR;
    *patch = BLACS_VERSION_PATCH;
}
