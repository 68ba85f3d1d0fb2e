/*
 * bench/comm.c - the communication calls of the kernels, one wrapper per
 * operation: the BLACS call, or (j->mpi) its raw MPI counterpart on the
 * grid's own communicator.
 */
#include "bench.h"
#include "blacs.h"

/* ---------------------------------------------------------------------------
 * Communication wrappers: one call site per operation for both variants
 * ------------------------------------------------------------------------ */
void bench_xsend(job *j, double *v, int n, int to)
{
    if (j->mpi)
        MPI_Send(v, n, MPI_DOUBLE, to, TAG_P2P, j->g->comm);
    else
        Cdgesd2d(j->g->ctxt, n, 1, v, bench_ld1(n), to / j->g->Q, to % j->g->Q);
}

void bench_xrecv(job *j, double *v, int n, int from)
{
    if (j->mpi)
        MPI_Recv(v, n, MPI_DOUBLE, from, TAG_P2P, j->g->comm, MPI_STATUS_IGNORE);
    else
        Cdgerv2d(j->g->ctxt, n, 1, v, bench_ld1(n), from / j->g->Q, from % j->g->Q);
}

/* Both partners send, then receive: legal with the BLACS' locally-blocking
 * sends; MPI needs a non-blocking send for it (Isend, Recv, Wait). */
void bench_xexchange(job *j, double *s, double *r, int n, int peer)
{
    if (j->mpi) {
        MPI_Request rq;
        MPI_Isend(s, n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, &rq);
        MPI_Recv(r, n, MPI_DOUBLE, peer, TAG_P2P, j->g->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        bench_xsend(j, s, n, peer);
        bench_xrecv(j, r, n, peer);
    }
}

void bench_xbarrier(job *j)
{
    if (j->broken) /* --inject-fault: a barrier that does not synchronize */
        return;
    if (j->mpi)
        MPI_Barrier(j->g->comm);
    else
        Cblacs_barrier(j->g->ctxt, "All");
}

static char *scope_name(char scope) { return scope == 'R' ? "Row" : scope == 'C' ? "Column" : "All"; }

/* The MPI communicator of my scope; its rank 0 is the scope's source or
 * destination (column 0 of a row, row 0 of a column, {0,0} of the grid). */
static MPI_Comm scope_comm(const job *j)
{
    return j->scope == 'R' ? j->g->rowcomm : j->scope == 'C' ? j->g->colcomm : j->g->comm;
}

int bench_scope_root(const job *j)
{
    const grid *g = j->g;
    return j->scope == 'R' ? g->mycol == 0 : j->scope == 'C' ? g->myrow == 0 : g->me == 0;
}

/* Grid rank of the root of my scope. */
int bench_scope_root_rank(const job *j)
{
    const grid *g = j->g;
    return j->scope == 'R' ? g->myrow * g->Q : j->scope == 'C' ? g->mycol : 0;
}

/* Broadcast of n doubles from the root of my scope (vec: MPI datatype of v
 * on the root when it is strided; receivers always take n contiguous). */
void bench_xbcast(job *j, double *v, int m, int n, int lda, MPI_Datatype vec)
{
    const grid *g = j->g;
    char top[2] = {j->top ? j->top : ' ', 0};
    int root = bench_scope_root(j);
    if (j->mpi) {
        if (root && vec != MPI_DATATYPE_NULL)
            MPI_Bcast(v, 1, vec, 0, scope_comm(j));
        else
            MPI_Bcast(v, m * n, MPI_DOUBLE, 0, scope_comm(j));
    } else if (root) {
        Cdgebs2d(g->ctxt, scope_name(j->scope), top, m, n, v, lda);
    } else {
        int rs = j->scope == 'R' ? g->myrow : 0, cs = j->scope == 'C' ? g->mycol : 0;
        Cdgebr2d(g->ctxt, scope_name(j->scope), top, m, n, v, bench_ld1(m), rs, cs);
    }
}

/* The operation of vTUOP2D for UOP_SUM (bench.h). */
#ifdef BENCH_EXTENSIONS
/* optimized as the library's built-in sums are (-O3), so that the series
 * compares the two paths and not two compilations of the same loop */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void
add_doubles(blacs_int n, void *a, const void *b)
{
    double *restrict x = a;
    const double *restrict y = b;
    for (int k = 0; k < n; k++)
        x[k] += y[k];
}
#endif

/* Sum of n doubles over my scope, in place: left on all (param 0) or on the
 * scope's root (param 1, "leave-on-one"); through vTUOP2D for mode UOP_SUM. */
void bench_xsum(job *j, double *v, int n)
{
    const grid *g = j->g;
    if (j->mpi) {
        if (!j->param)
            MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, scope_comm(j));
        else if (bench_scope_root(j))
            MPI_Reduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, 0, scope_comm(j));
        else
            MPI_Reduce(v, NULL, n, MPI_DOUBLE, MPI_SUM, 0, scope_comm(j));
#ifdef BENCH_EXTENSIONS
    } else if (j->mode == UOP_SUM) { /* the same sum through vTUOP2D, as a 1 x n row: cut anywhere */
        char top[2] = {j->top ? j->top : ' ', 0}, gen[] = "G", diag[] = "N";
        int rd = j->param ? 0 : -1, cd = j->param ? 0 : -1;
        Cdtuop2d(g->ctxt, scope_name(j->scope), top, gen, diag, 1, n, v, 1, rd, cd, NULL, add_doubles, NULL);
#endif
    } else {
        char top[2] = {j->top ? j->top : ' ', 0};
        int rd = j->param ? 0 : -1, cd = j->param ? 0 : -1; /* -1: leave on all */
        Cdgsum2d(g->ctxt, scope_name(j->scope), top, n, 1, v, bench_ld1(n), rd, cd);
    }
}
