/*
 * bench/k_matrix.c - CoMet's matrix kernels on the P x Q grid: guard-strip
 * update, shift, transpose, row and column broadcast.
 */
#include "bench.h"
#include "blacs.h"

/* ---------------------------------------------------------------------------
 * Matrix kernels on the P x Q grid: a global matrix of (P nl) x (Q nl)
 * elements bench_gmat(i, j), block-distributed, nl x nl per process.
 * Rows report the maximum time over the grid.
 * ------------------------------------------------------------------------ */
static int north(const grid *g) { return ((g->myrow + g->P - 1) % g->P) * g->Q + g->mycol; }
static int south(const grid *g) { return ((g->myrow + 1) % g->P) * g->Q + g->mycol; }
static int east(const grid *g) { return g->myrow * g->Q + (g->mycol + 1) % g->Q; }
static int west(const grid *g) { return g->myrow * g->Q + (g->mycol + g->Q - 1) % g->Q; }

/* The same strided send/receive for both variants: BLACS take (m, n, lda);
 * MPI gets the row datatype for 1 x n rows. */
static void msend(job *j, double *a, int m, int n, int lda, int to, int tag, MPI_Request *rq)
{
    const grid *g = j->g;
    if (j->mpi)
        MPI_Isend(a, m == 1 ? 1 : m * n, m == 1 ? j->vec : MPI_DOUBLE, to, tag, g->comm, rq);
    else
        Cdgesd2d(g->ctxt, m, n, a, lda, to / g->Q, to % g->Q);
}

static void mrecv(job *j, double *a, int m, int n, int lda, int from, int tag, MPI_Request *rq)
{
    const grid *g = j->g;
    if (j->mpi)
        MPI_Irecv(a, m == 1 ? 1 : m * n, m == 1 ? j->vec : MPI_DOUBLE, from, tag, g->comm, rq);
    else
        Cdgerv2d(g->ctxt, m, n, a, lda, from / g->Q, from % g->Q);
}

/* Guard-strip update (CoMet figure 11): the local block lives inside a
 * one-element guard wrapper, (nl+2) x (nl+2); the first and last interior
 * rows go north and south, the first and last interior columns west and
 * east (periodic neighbours), and come back into the guard strips. */
static void prep_guard(job *j)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2;
    if (!j->s) {
        j->s = bench_dalloc((size_t)ld * ld);
        if (j->mpi) {
            MPI_Type_vector(nl, 1, ld, MPI_DOUBLE, &j->vec);
            MPI_Type_commit(&j->vec);
        }
    }
    bench_fill_val(j->s, (size_t)ld * ld, SENTINEL);
    bench_fill_block(j->s + 1 + ld, ld, nl, g->myrow, g->mycol);
    bench_inject(j, &j->s[1 + ld]); /* in the north row and the west column */
}

static double run_guard(job *j, int reps)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2;
    double *a = j->s;
    int N = north(g), S = south(g), E = east(g), W = west(g);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        MPI_Request rq[8];
        /* Receives first for MPI (posted non-blocking); the BLACS send
         * first and receive after, in an order that also matches when two
         * neighbours are the same process (P or Q = 1 or 2): messages
         * between two processes arrive in the order sent. */
        if (j->mpi) {
            mrecv(j, &a[nl + 1 + ld], 1, nl, ld, S, TAG_N, &rq[0]);
            mrecv(j, &a[0 + ld], 1, nl, ld, N, TAG_S, &rq[1]);
            mrecv(j, &a[1], nl, 1, ld, W, TAG_E, &rq[2]);
            mrecv(j, &a[1 + (size_t)(nl + 1) * ld], nl, 1, ld, E, TAG_W, &rq[3]);
        }
        msend(j, &a[1 + ld], 1, nl, ld, N, TAG_N, &rq[4]);              /* north row */
        msend(j, &a[nl + ld], 1, nl, ld, S, TAG_S, &rq[5]);             /* south row */
        msend(j, &a[1 + (size_t)nl * ld], nl, 1, ld, E, TAG_E, &rq[6]); /* east column */
        msend(j, &a[1 + ld], nl, 1, ld, W, TAG_W, &rq[7]);              /* west column */
        if (j->mpi) {
            MPI_Status st[8]; /* not MPI_STATUSES_IGNORE (see run_overlap, k_p2p.c) */
            MPI_Waitall(8, rq, st);
        } else {
            mrecv(j, &a[nl + 1 + ld], 1, nl, ld, S, 0, NULL);               /* south guard */
            mrecv(j, &a[0 + ld], 1, nl, ld, N, 0, NULL);                    /* north guard */
            mrecv(j, &a[1], nl, 1, ld, W, 0, NULL);                         /* west guard */
            mrecv(j, &a[1 + (size_t)(nl + 1) * ld], nl, 1, ld, E, 0, NULL); /* east guard */
        }
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_guard(job *j)
{
    const grid *g = j->g;
    int nl = j->n, ld = nl + 2, P = g->P, Q = g->Q;
    long r0 = (long)g->myrow * nl, c0 = (long)g->mycol * nl;
    long up = ((long)(g->myrow + P - 1) % P) * nl + nl - 1, down = ((long)(g->myrow + 1) % P) * nl;
    long left = ((long)(g->mycol + Q - 1) % Q) * nl + nl - 1, right = ((long)(g->mycol + 1) % Q) * nl;
    const double *a = j->s;
    long bad = 0;
    for (int k = 0; k < nl; k++) {
        bad += bench_mismatch(j, "north guard", k, a[0 + (size_t)(k + 1) * ld], bench_gmat(up, c0 + k));
        bad +=
            bench_mismatch(j, "south guard", k, a[nl + 1 + (size_t)(k + 1) * ld], bench_gmat(down, c0 + k));
        bad += bench_mismatch(j, "west guard", k, a[k + 1], bench_gmat(r0 + k, left));
        bad +=
            bench_mismatch(j, "east guard", k, a[k + 1 + (size_t)(nl + 1) * ld], bench_gmat(r0 + k, right));
    }
    return bad;
}

const kernel bench_k_guard = {prep_guard, run_guard, check_guard, T_MAX, 0, 1};

/* Shift (CoMet figure 12): every process sends its block north (param 0)
 * or east (param 1) and receives its neighbour's; after k shifts north a
 * process holds the block of the process k rows below it. */
static void prep_block2(job *j)
{
    const grid *g = j->g;
    size_t nn = (size_t)j->n * j->n;
    if (!j->s) {
        j->s = bench_dalloc(nn);
        j->r = bench_dalloc(nn);
    }
    bench_fill_block(j->s, j->n, j->n, g->myrow, g->mycol);
    bench_inject(j, j->s);
    bench_fill_val(j->r, nn, SENTINEL);
}

/* Send block s to `to`, receive the block from `from` into r. */
static void block_exchange(job *j, int to, int from)
{
    const grid *g = j->g;
    int nl = j->n, nn = nl * nl;
    if (j->mpi) {
        MPI_Sendrecv(j->s, nn, MPI_DOUBLE, to, TAG_P2P, j->r, nn, MPI_DOUBLE, from, TAG_P2P, g->comm,
                     MPI_STATUS_IGNORE);
    } else {
        Cdgesd2d(g->ctxt, nl, nl, j->s, nl, to / g->Q, to % g->Q);
        Cdgerv2d(g->ctxt, nl, nl, j->r, nl, from / g->Q, from % g->Q);
    }
}

static double run_shift(job *j, int reps)
{
    const grid *g = j->g;
    int to = j->param ? east(g) : north(g), from = j->param ? west(g) : south(g);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        block_exchange(j, to, from);
        double *t = j->s; /* what came in is my block now */
        j->s = j->r;
        j->r = t;
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_shift(job *j)
{
    const grid *g = j->g;
    int pr = g->myrow, pc = g->mycol;
    if (j->param)
        pc = (int)(((long)pc - j->total % g->Q + g->Q) % g->Q);
    else
        pr = (int)((pr + j->total) % g->P);
    return bench_check_block(j, "block", j->s, j->n, j->n, pr, pc);
}

const kernel bench_k_shift = {prep_block2, run_shift, check_shift, T_MAX, 0, 1};

/* Transpose (CoMet figure 13), square grids: exchange the block with the
 * process at the transposed position, then transpose it locally (the
 * diagonal only transposes).  After an odd number of transposes process
 * (r, c) holds block (c, r) of the matrix, transposed. */
static void local_transpose(double *dst, const double *src, int nl)
{
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            dst[i + (size_t)jj * nl] = src[jj + (size_t)i * nl];
}

static double run_transpose(job *j, int reps)
{
    const grid *g = j->g;
    int partner = g->mycol * g->Q + g->myrow, nl = j->n;
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (partner != g->me) {
            block_exchange(j, partner, partner);
            local_transpose(j->s, j->r, nl);
        } else {
            local_transpose(j->r, j->s, nl);
            double *t = j->s;
            j->s = j->r;
            j->r = t;
        }
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_transpose(job *j)
{
    const grid *g = j->g;
    int nl = j->n;
    if (j->total % 2 == 0)
        return bench_check_block(j, "block", j->s, nl, nl, g->myrow, g->mycol);
    long bad = 0;
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            bad += bench_mismatch(j, "transposed block", i + (long)jj * nl, j->s[i + (size_t)jj * nl],
                                  bench_gmat((long)g->mycol * nl + jj, (long)g->myrow * nl + i));
    return bad;
}

const kernel bench_k_transpose = {prep_block2, run_transpose, check_transpose, T_MAX, 0, 1};

/* Row broadcast (param 0): global row nl/2 lives in process row 0; each
 * process of row 0 broadcasts its piece (1 x nl, stride nl) down its
 * column, scope 'Column'.  Column broadcast (param 1): global column nl/2
 * lives in process column 0, broadcast along the rows, scope 'Row'. */
static void prep_rowcol(job *j)
{
    const grid *g = j->g;
    int nl = j->n;
    if (!j->s) {
        j->s = bench_dalloc((size_t)nl * nl);
        j->r = bench_dalloc(nl);
        if (j->mpi && !j->param) {
            MPI_Type_vector(nl, 1, nl, MPI_DOUBLE, &j->vec);
            MPI_Type_commit(&j->vec);
        }
    }
    bench_fill_block(j->s, nl, nl, g->myrow, g->mycol);
    bench_inject(j, j->param ? &j->s[(size_t)(nl / 2) * nl] : &j->s[nl / 2]);
    bench_fill_val(j->r, nl, SENTINEL);
}

static double run_rowcol(job *j, int reps)
{
    int nl = j->n, l = nl / 2, root = bench_scope_root(j);
    double *v = !root ? j->r : j->param ? &j->s[(size_t)l * nl] : &j->s[l];
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (j->param) /* a column: nl x 1, contiguous */
            bench_xbcast(j, v, nl, 1, nl, MPI_DATATYPE_NULL);
        else /* a row: 1 x nl with stride nl on the root */
            bench_xbcast(j, v, 1, nl, root ? nl : 1, root && j->mpi ? j->vec : MPI_DATATYPE_NULL);
    }
    return (MPI_Wtime() - t0) / reps;
}

static long check_rowcol(job *j)
{
    const grid *g = j->g;
    int nl = j->n, l = nl / 2, root = bench_scope_root(j);
    long bad = 0;
    for (int k = 0; k < nl; k++) {
        /* Receivers got the piece; the root's own copy must be intact. */
        double got = !root ? j->r[k] : j->param ? j->s[k + (size_t)l * nl] : j->s[l + (size_t)k * nl];
        double want =
            j->param ? bench_gmat((long)g->myrow * nl + k, l) : bench_gmat(l, (long)g->mycol * nl + k);
        bad += bench_mismatch(j, root ? "source piece" : "received piece", k, got, want);
    }
    return bad;
}

const kernel bench_k_rowcol = {prep_rowcol, run_rowcol, check_rowcol, T_MAX, 0, 1};
