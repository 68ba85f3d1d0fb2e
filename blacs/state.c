/*
 * blacs/state.c - process-wide state: start-up, the context table and the
 * table of C system handles.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/debug.h"
#include "../base/env.h"
#include "../base/heap.h"
#include "internal.h"

blx_state blx_g;

/* Marks a context slot whose grid was exited (NULL: never used).  Kept
 * apart so that errors can say which mistake was made. */
static blx_ctx exited_marker;
#define EXITED (&exited_marker)

#define TABLE_STEP 10 /* both tables grow by 10 slots, as the reference's */

/* Whether MPI's own blocking waits yield the processor already: Open MPI's
 * do where its launcher knows the node is oversubscribed (it passes
 * mpi_oversubscribe, which mpi_yield_when_idle follows unless set: 1 or
 * another number, true, yes, enabled, t, y).  MPICH's spin. */
static int mpi_waits_yield(void)
{
    const char *v = getenv("OMPI_MCA_mpi_yield_when_idle");
    v = v != NULL && *v != '\0' ? v : getenv("OMPI_MCA_mpi_oversubscribe");
    return v != NULL && *v != '\0' && (atoi(v) != 0 || strchr("tTyYeE", *v) != NULL);
}

/* Whether waits should yield (blx_waits_yield): BLACS_WAIT=yield, or
 * BLACS_WAIT=auto (the default), this node runs more processes than it
 * has processors and MPI's own waits do not yield there; block: never. */
static int waits_yield(void)
{
    static const char *const words[] = {"auto", "block", "yield", NULL};
    int how = blx_env_word("BLACS_WAIT", 0, words);
    long procs = blx_machine_node_processes(), cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return how == 2 || (how == 0 && procs > 0 && cpus > 0 && procs > cpus && !mpi_waits_yield());
}

/* How a report names processes: by their coordinates in the context. */
static void report_self(int ctxt, int *row, int *col)
{
    const blx_ctx *c = blx_ctx_find(ctxt);
    if (c != NULL) {
        *row = c->myrow;
        *col = c->mycol;
    }
}

static void report_peer(int ctxt, int rank, int *row, int *col)
{
    const blx_ctx *c = blx_ctx_find(ctxt);
    if (c != NULL) {
        *row = rank / c->npcol;
        *col = rank % c->npcol;
    }
}

void blx_init(void)
{
    if (blx_g.initialized || !blx_bind_checked())
        return;
    static const blx_report_hook hook = {report_self, report_peer, NULL};
    blx_report_set_hook(&hook); /* the first grid adds the watch (grid.c) */
    int flag = 0;
    MPI_Finalized(&flag);
    if (flag)
        blx_fatal(-1, "BLACS_PINFO", "MPI has already been finalized (BLACS_EXIT(0) ends MPI)");
    blx_heap_setup(); /* ScaLAPACK's work space, freed and taken again around each message (heap.h) */
    MPI_Initialized(&flag);
    if (!flag)
        MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &blx_g.world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &blx_g.world_size);
    blx_bind_check_launcher(blx_g.world_size);
    int *ub = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    blx_g.tag_ub = (flag && ub) ? *ub : 32767;
    if (blx_g.id_hi == 0) { /* not set by BLACS_SET code 1 */
        blx_g.id_lo = 0;
        blx_g.id_hi = blx_g.tag_ub;
    }
    blx_debug_get(); /* the settings are read once, before anything else runs */
    blx_waits_yield(waits_yield());
    blx_g.initialized = 1;
}

/* ---- contexts ---- */

blx_ctx *blx_ctx_find(int ctxt)
{
    if (ctxt < 0 || ctxt >= blx_g.nctx || blx_g.ctx[ctxt] == EXITED)
        return NULL;
    return blx_g.ctx[ctxt];
}

int blx_ctx_exited(int ctxt) { return ctxt >= 0 && ctxt < blx_g.nctx && blx_g.ctx[ctxt] == EXITED; }

blx_ctx *blx_ctx_get(int ctxt, const char *routine)
{
    blx_ctx *c = blx_ctx_find(ctxt);
    if (c == NULL) {
        if (blx_ctx_exited(ctxt))
            blx_fatal(ctxt, routine, "invalid context ConTxt = %d: that grid has been exited", ctxt);
        blx_fatal(ctxt, routine, "invalid context ConTxt = %d: no such grid on this process%s", ctxt,
                  ctxt == -1 ? " (-1 is what BLACS_GRIDINIT gives processes outside the grid)" : "");
    }
    blx_buf_poll();
    return c;
}

int blx_ctx_add(blx_ctx *c)
{
    int h = 0;
    while (h < blx_g.nctx && blx_g.ctx[h] != NULL && blx_g.ctx[h] != EXITED)
        h++;
    if (h == blx_g.nctx) {
        blx_ctx **t = realloc(blx_g.ctx, (size_t)(blx_g.nctx + TABLE_STEP) * sizeof *t);
        if (t == NULL)
            blx_fatal(-1, "BLACS_GRIDMAP", "out of memory for the context table");
        memset(t + blx_g.nctx, 0, TABLE_STEP * sizeof *t);
        blx_g.ctx = t;
        blx_g.nctx += TABLE_STEP;
    }
    blx_g.ctx[h] = c;
    c->handle = h;
    return h;
}

void blx_ctx_remove(int handle) { blx_g.ctx[handle] = EXITED; }

void blx_ctx_reset(void)
{
    free(blx_g.ctx);
    blx_g.ctx = NULL;
    blx_g.nctx = 0;
}

/* ---- C system handles ---- */

static void sys_table_start(void)
{
    if (blx_g.nsys > 0)
        return;
    blx_g.sys = malloc(TABLE_STEP * sizeof *blx_g.sys);
    if (blx_g.sys == NULL)
        blx_fatal(-1, "Csys2blacs_handle", "out of memory for the system handle table");
    blx_g.nsys = TABLE_STEP;
    blx_g.sys[0] = MPI_COMM_WORLD; /* slot 0 is always MPI_COMM_WORLD */
    for (int i = 1; i < blx_g.nsys; i++)
        blx_g.sys[i] = MPI_COMM_NULL;
}

int blx_sys_register(MPI_Comm comm)
{
    blx_init();
    if (comm == MPI_COMM_NULL)
        blx_fatal(-1, "Csys2blacs_handle", "Cannot define a BLACS system handle based on MPI_COMM_NULL");
    sys_table_start();
    int h, free_slot = -1;
    for (h = 0; h < blx_g.nsys; h++) {
        if (blx_g.sys[h] == comm)
            return h;
        if (free_slot < 0 && blx_g.sys[h] == MPI_COMM_NULL)
            free_slot = h;
    }
    if (free_slot < 0) {
        MPI_Comm *t = realloc(blx_g.sys, (size_t)(blx_g.nsys + TABLE_STEP) * sizeof *t);
        if (t == NULL)
            blx_fatal(-1, "Csys2blacs_handle", "out of memory for the system handle table");
        for (int i = blx_g.nsys; i < blx_g.nsys + TABLE_STEP; i++)
            t[i] = MPI_COMM_NULL;
        free_slot = blx_g.nsys;
        blx_g.sys = t;
        blx_g.nsys += TABLE_STEP;
    }
    blx_g.sys[free_slot] = comm;
    return free_slot;
}

void blx_sys_forget(MPI_Comm comm)
{
    for (int h = 1; h < blx_g.nsys; h++)
        if (blx_g.sys[h] == comm)
            blx_g.sys[h] = MPI_COMM_NULL;
}

MPI_Comm blx_sys_lookup(int handle, const char *routine)
{
    blx_init();
    sys_table_start();
    if (handle < 0 || handle >= blx_g.nsys || blx_g.sys[handle] == MPI_COMM_NULL)
        blx_fatal(-1, routine, "No system context corresponding to BLACS system context handle %d", handle);
    return blx_g.sys[handle];
}

void blx_sys_free(int handle)
{
    if (handle == 0)
        return; /* MPI_COMM_WORLD is never freed */
    if (handle < 0 || handle >= blx_g.nsys || blx_g.sys[handle] == MPI_COMM_NULL) {
        blx_warn(-1, "Cfree_blacs_system_handle", "Trying to free non-existent system context handle %d",
                 handle);
        return;
    }
    /* Unlike the reference, never compact the table: live handles stay valid. */
    blx_g.sys[handle] = MPI_COMM_NULL;
}

/* MPI_Comm_f2c answers MPI_COMM_NULL, or (Open MPI) a null pointer, for a
 * handle that names no communicator. */
static int comm_is_null(MPI_Comm comm)
{
    MPI_Comm zero;
    memset(&zero, 0, sizeof zero);
    return comm == MPI_COMM_NULL || memcmp(&comm, &zero, sizeof comm) == 0;
}

MPI_Comm blx_sys_comm(blx_iface iface, int handle, const char *routine)
{
    blx_init();
    if (iface == BLX_IFACE_F77) {
        MPI_Comm comm = MPI_Comm_f2c(handle);
        if (comm_is_null(comm))
            blx_fatal(-1, routine, "system context %d is not a valid Fortran MPI communicator", handle);
        return comm;
    }
    return blx_sys_lookup(handle, routine);
}

int blx_sys_handle(blx_iface iface, MPI_Comm comm)
{
    if (iface == BLX_IFACE_F77)
        return (int)MPI_Comm_c2f(comm);
    return blx_sys_register(comm);
}
