/*
 * blacs/grid.c - making and ending grids: gridmap, gridinit, gridexit,
 * exit, barrier.
 *
 * A grid owns four communicators, all built collectively over the system
 * context it was made from, so BLACS traffic never touches the user's
 * communicator:
 *   comm      every member, rank = row-major grid position (vpid); all data
 *             of all three scopes and of point-to-point moves here, kept
 *             apart by message IDs (msgid/);
 *   side      a duplicate of comm, with the same message IDs: point-to-point's
 *             second channel (a receiver's ready note, and a long message
 *             sent straight from the user's matrix; p2p.c);
 *   row, col  MPI_Comm_split of comm, and all, a duplicate of comm: each
 *             scope's own, for its barriers (which they alone carry) and
 *             MPI's collectives.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/debug.h"
#include "call.h"
#include "stats.h"
#include "threads.h"
#include "watch.h"

/* A grid as BLACS_GRIDMAP is given it: USERMAP (leading dimension LDUMAP),
 * NPROW x NPCOL. */
typedef struct grid_map {
    const blacs_int *map;
    int64_t ld;
    int nprow, npcol;
} grid_map;

/* The rank USERMAP places at (i, j). */
static blacs_int map_at(const grid_map *g, int i, int j) { return g->map[i + (size_t)j * (size_t)g->ld]; }

/* FNV-1a over the grid description, to check that every caller passed the same. */
static uint64_t grid_hash(const grid_map *g)
{
    uint64_t h = 1469598103934665603ull;
    int head[2] = {g->nprow, g->npcol};
    for (int k = 0; k < 2 + g->nprow * g->npcol; k++) {
        int64_t v = k < 2 ? head[k] : map_at(g, (k - 2) % g->nprow, (k - 2) / g->nprow);
        for (int b = 0; b < 8; b++) {
            h ^= (uint64_t)v >> (8 * b) & 0xffu;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static void scope_init(blx_scope *s, int id, MPI_Comm comm, int np, int me, int first, int stride)
{
    s->id = id;
    s->comm = comm;
    s->np = np;
    s->me = me;
    s->first = first;
    s->stride = stride;
}

static int sys_size(const char *routine, MPI_Comm sys)
{
    int n;
    blx_check_mpi(-1, routine, MPI_Comm_size(sys, &n), "MPI_Comm_size");
    return n;
}

static void check_grid_shape(const char *routine, int syssize, int nprow, int npcol)
{
    if (nprow < 1 || npcol < 1 || (long long)nprow * npcol > syssize)
        blx_fatal(-1, routine,
                  "Illegal grid (%d x %d), #procs=%d: NPROW and NPCOL must be at least 1 and "
                  "NPROW*NPCOL at most the %d processes of the system context",
                  nprow, npcol, syssize, syssize);
}

/* The LP64 library called by a program whose INTEGER is 64-bit reads each
 * USERMAP entry as two ints, the rank then its high half (0): when every
 * entry read at an odd int position is 0, a bad map gets a hint saying so.
 * Only the entries the call may read are looked at. */
static const char *wide_map_hint(const grid_map *g)
{
    int odd = 0;
    if (sizeof(blacs_int) != 4)
        return "";
    for (int j = 0; j < g->npcol; j++)
        for (int i = 0; i < g->nprow; i++) {
            size_t p = (size_t)i + (size_t)j * (size_t)g->ld;
            if (p % 2 == 1 && g->map[p] != 0)
                return "";
            odd += p % 2 == 1;
        }
    return odd > 0 ? " (every other entry read is 0: if the caller was compiled with 64-bit INTEGER, e.g. "
                     "gfortran -fdefault-integer-8, it must link the ILP64 library, libblacs64-<mpi>)"
                   : "";
}

/* Checks USERMAP (ranks of the system context, none twice) and finds this
 * process in it: *myrow = -1 if it is not placed. */
static void read_map(const char *routine, const grid_map *g, int syssize, int sysrank, int *myrow, int *mycol)
{
    *myrow = *mycol = -1;
    char *seen = calloc((size_t)syssize, 1);
    if (seen == NULL)
        blx_fatal(-1, routine, "out of memory");
    for (int j = 0; j < g->npcol; j++) {
        for (int i = 0; i < g->nprow; i++) {
            blacs_int r = map_at(g, i, j);
            if (r < 0 || r >= syssize)
                blx_fatal(-1, routine, "USERMAP(%d,%d) = %lld is not a rank of the system context (0..%d)%s",
                          i + 1, j + 1, (long long)r, syssize - 1, wide_map_hint(g));
            if (seen[r])
                blx_fatal(-1, routine, "USERMAP(%d,%d) = %lld: rank %lld is placed twice%s", i + 1, j + 1,
                          (long long)r, (long long)r, wide_map_hint(g));
            seen[r] = 1;
            if (r == sysrank) {
                *myrow = i;
                *mycol = j;
            }
        }
    }
    free(seen);
}

/* Collective over the system context: every caller must describe the same grid. */
static void check_same_grid(const char *routine, MPI_Comm sys, const grid_map *g)
{
    /* min and max of the grid's hash and of the message-ID range (BLACS_SET
     * code 1), in one reduction */
    uint64_t h = grid_hash(g), lo = (uint64_t)blx_g.id_lo, hi = (uint64_t)blx_g.id_hi;
    uint64_t mm[6] = {h, ~h, lo, ~lo, hi, ~hi};
    blx_check_mpi(-1, routine, MPI_Allreduce(MPI_IN_PLACE, mm, 6, MPI_UINT64_T, MPI_MIN, sys),
                  "MPI_Allreduce");
    if (mm[0] != h || ~mm[1] != h)
        blx_fatal(-1, routine,
                  "the processes of the system context passed different grids (NPROW, NPCOL "
                  "or USERMAP differ)");
    if (mm[2] != lo || ~mm[3] != lo || mm[4] != hi || ~mm[5] != hi) {
        int me;
        MPI_Comm_rank(sys, &me);
        blx_fatal_once(
            me == 0, -1, routine,
            "the processes of the system context set different message-ID ranges (BLACS_SET code 1): "
            "process 0 has [%d, %d]; the lower ends run from %d to %d and the upper ends from %d "
            "to %d; every process must set the same",
            blx_g.id_lo, blx_g.id_hi, (int)mm[2], (int)~mm[3], (int)mm[4], (int)~mm[5]);
    }
}

/* The algorithms BLACS_ALGORITHM forces on the default TOP of a new grid,
 * as process 0 of the grid reads it: the same on every member (each must
 * choose what the others choose). */
static blx_forced grid_forced(const char *routine, MPI_Comm comm, int vpid)
{
    blx_forced f = blx_forced_none();
    const char *text = getenv("BLACS_ALGORITHM");
    char why[160];
    if (vpid == 0 && text != NULL && blx_forced_parse(text, &f, why, sizeof why) != 0)
        blx_fatal(-1, routine,
                  "BLACS_ALGORITHM='%s' is not a list of operation=algorithm pairs: %s (operations bcast, "
                  "reduce, allreduce; algorithms as doc/guide.md lists them, or default)",
                  text, why);
    blx_check_mpi(-1, routine, MPI_Bcast(&f, sizeof f, MPI_BYTE, 0, comm), "MPI_Bcast");
    return f;
}

/* A member's context on the grid communicator comm. */
static blx_ctx *ctx_new(const char *routine, MPI_Comm comm, int nprow, int npcol, int myrow, int mycol)
{
    blx_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        blx_fatal(-1, routine, "out of memory");
    blx_check_mpi(-1, routine, MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    c->comm = comm;
    blx_check_mpi(-1, routine, MPI_Comm_dup(comm, &c->side), "MPI_Comm_dup");
    c->nprow = nprow;
    c->npcol = npcol;
    c->myrow = myrow;
    c->mycol = mycol;
    c->vpid = myrow * npcol + mycol;

    MPI_Comm row, col, all;
    blx_check_mpi(-1, routine, MPI_Comm_split(comm, myrow, mycol, &row), "MPI_Comm_split");
    blx_check_mpi(-1, routine, MPI_Comm_split(comm, mycol, myrow, &col), "MPI_Comm_split");
    blx_check_mpi(-1, routine, MPI_Comm_dup(comm, &all), "MPI_Comm_dup");
    scope_init(&c->scope[BLX_SCOPE_ROW], BLX_SCOPE_ROW, row, npcol, mycol, myrow * npcol, 1);
    scope_init(&c->scope[BLX_SCOPE_COL], BLX_SCOPE_COL, col, nprow, myrow, mycol, npcol);
    scope_init(&c->scope[BLX_SCOPE_ALL], BLX_SCOPE_ALL, all, nprow * npcol, c->vpid, 0, 1);

    int rc = blx_msgids_init(&c->ids, blx_g.id_lo, blx_g.id_hi, nprow, npcol);
    if (rc == -1)
        blx_fatal(-1, routine, "the message-ID range [%d, %d] (BLACS_SET code 1) holds fewer than %d IDs",
                  blx_g.id_lo, blx_g.id_hi, BLX_MSGID_MIN_RANGE);
    if (rc != 0)
        blx_fatal(-1, routine, "out of memory");
    blx_watch_grid_init(c, routine);
    c->nr_bs = c->nb_bs = c->nr_co = c->nb_co = 1;
    blx_machine_init(c, routine);
    c->forced = grid_forced(routine, comm, c->vpid);
    c->kid_scope = BLX_SCOPE_ALL;
    return c;
}

void blx_gridmap(const char *routine, int *ctxt, MPI_Comm sys, const blacs_int *map, int64_t ldumap,
                 int nprow, int npcol)
{
    blx_init();
    blx_thread_enter(-1, routine);
    blx_buf_poll();
    int sysrank, syssize = sys_size(routine, sys);
    blx_check_mpi(-1, routine, MPI_Comm_rank(sys, &sysrank), "MPI_Comm_rank");
    check_grid_shape(routine, syssize, nprow, npcol);
    if (ldumap < nprow)
        blx_fatal(-1, routine, "LDUMAP = %lld is smaller than NPROW = %d", (long long)ldumap, nprow);
    if (map == NULL)
        blx_fatal(-1, routine, "USERMAP is a null pointer");
    static int started;
    if (!started) { /* the first grid: hang reports and statistics begin */
        blx_report_set_waiting(blx_watch_waiting);
        blx_stats_start(blx_g.world_rank);
        started = 1;
    }
    int myrow, mycol;
    grid_map g = {map, ldumap, nprow, npcol};
    read_map(routine, &g, syssize, sysrank, &myrow, &mycol);
    check_same_grid(routine, sys, &g);

    int member = myrow >= 0;
    MPI_Comm comm;
    blx_check_mpi(-1, routine,
                  MPI_Comm_split(sys, member ? 0 : MPI_UNDEFINED, member ? myrow * npcol + mycol : 0, &comm),
                  "MPI_Comm_split");
    *ctxt = member ? blx_ctx_add(ctx_new(routine, comm, nprow, npcol, myrow, mycol)) : -1;
    blx_thread_leave();
}

void blx_gridinit(const char *routine, int *ctxt, MPI_Comm sys, const char *order, int nprow, int npcol)
{
    blx_init();
    check_grid_shape(routine, sys_size(routine, sys), nprow, npcol);
    int colmajor = blx_upper(order) == 'C';
    blacs_int *map = malloc((size_t)nprow * (size_t)npcol * sizeof *map);
    if (map == NULL)
        blx_fatal(-1, routine, "out of memory for a %d x %d grid", nprow, npcol);
    for (int j = 0; j < npcol; j++)
        for (int i = 0; i < nprow; i++)
            map[i + (size_t)j * nprow] = colmajor ? i + j * nprow : i * npcol + j;
    blx_gridmap(routine, ctxt, sys, map, nprow, nprow, npcol);
    free(map);
}

static void ctx_free(blx_ctx *c)
{
    blx_machine_free(c);
    for (int s = 0; s < BLX_NSCOPE; s++) {
        blx_tree_cache_free(&c->scope[s].trees);
        blx_sys_forget(c->scope[s].comm);
        MPI_Comm_free(&c->scope[s].comm);
    }
    blx_sys_forget(c->comm); /* BLACS_GET code 10 may have registered it */
    blx_watch_grid_free(c);
    MPI_Comm_free(&c->side);
    MPI_Comm_free(&c->comm);
    blx_msgids_free(&c->ids);
    blx_ctx_remove(c->handle);
    free(c);
}

void blx_gridexit(int ctxt)
{
    if (blx_ctx_exited(ctxt))
        blx_fatal(ctxt, "BLACS_GRIDEXIT", "Trying to exit an already freed context (ConTxt = %d)", ctxt);
    blx_ctx *c = blx_ctx_find(ctxt);
    if (c == NULL)
        blx_fatal(ctxt, "BLACS_GRIDEXIT", "Trying to exit non-existent context (ConTxt = %d)", ctxt);
    blx_thread_enter(ctxt, "BLACS_GRIDEXIT");
    blx_buf_poll();
    /* Sends still buffered on this grid complete normally: MPI keeps a freed
     * communicator alive until its pending operations are done. */
    ctx_free(c);
    blx_thread_leave();
}

void blx_exit(int notdone)
{
    for (int h = 0; h < blx_g.nctx; h++) {
        blx_ctx *c = blx_ctx_find(h);
        if (c != NULL)
            ctx_free(c);
    }
    blx_ctx_reset();
    blx_buf_wait_all("BLACS_EXIT");
    if (blx_mpi_up())
        blx_stats_exit(blx_g.world_rank);
    blx_buf_free_ready();
    blx_scratch_free();
    if (notdone == 0) { /* MPI ends here, whoever started it (spec 2.5) */
        if (blx_mpi_up())
            MPI_Finalize();
        blx_g.initialized = 0;
    }
}

/* A dissemination barrier (Hensgen, Finkel and Manber): in round j every
 * member sends an empty message to the member 2^j places after it and
 * receives one from the member 2^j places before it, ceil(log2 np) rounds.
 * On the scope's own communicator, which carries nothing else (one tag
 * will do: within a barrier each round hears from another member, and
 * the barriers of a pair follow each other in order).  Through the byte
 * layer, so that its waits poll and report a hang as every other wait
 * (MPI_Barrier cannot; an MPI_Ibarrier and a wait took twice as long). */
void blx_barrier(blx_call *k)
{
    blx_enter(k);
    blx_scope *s = k->s;
    blx_ep e = blx_scope_ep(k->c, s, 0, k->name);
    e.comm = s->comm, e.first = 0, e.stride = 1;
    for (int d = 1; d < s->np; d *= 2)
        blx_sendrecv(&e, NULL, 0, (s->me + d) % s->np, NULL, 0, (s->me - d + s->np) % s->np);
    blx_leave(k, 0, NULL);
}
