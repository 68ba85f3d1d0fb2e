/*
 * blacs/internal.h - state shared by the library's modules.
 *
 * One context table serves both interfaces: a grid made through
 * blacs_gridinit_ works in Cdgesd2d and the other way round.  Only system
 * contexts differ (C: indices into our table of MPI_Comm, slot 0 =
 * MPI_COMM_WORLD; Fortran: Fortran MPI communicator handles).
 */
#ifndef BLX_INTERNAL_H
#define BLX_INTERNAL_H

#include <mpi.h>
#include <stdint.h>

#include "../base/report.h"
#include "../base/visibility.h"
#include "../buffers/bytes.h"
#include "../buffers/pack.h"
#include "../msgid/msgid.h"
#include "../topologies/model.h"
#include "../topologies/topology.h"
#include "../topologies/tree.h"
#include "blacs.h"
#include "types.h"

/* The interface a call came through. */
typedef enum blx_iface { BLX_IFACE_C = 0, BLX_IFACE_F77 = 1 } blx_iface;

/* One of a context's three scopes.  Data of every scope moves on the grid
 * communicator, kept apart by message IDs; the scope's own communicator is
 * used for MPI_Barrier only. */
typedef struct blx_scope {
    int id; /* BLX_SCOPE_ROW, _COL or _ALL */
    MPI_Comm comm;
    int np;                 /* members */
    int me;                 /* my index in the scope */
    int first, stride;      /* grid rank of member k is first + k * stride */
    blx_tree_cache trees;   /* the trees its broadcasts and combines walk */
    blx_route_cache routes; /* the default TOP's recent choices */
    blx_nodes *nodes;       /* which members share a node (machine.c) */
    blx_model model;        /* the cost model its one-level algorithms plan with */
    /* the same from the models nothing measured (machine.c), which
     * repeatable combines plan with; fixed_nodes NULL: nodes is the same */
    blx_nodes *fixed_nodes;
    blx_model fixed_model;
} blx_scope;

typedef struct blx_ctx {
    int handle;
    MPI_Comm comm; /* the grid: rank = vpid = row * npcol + col */
    /* a duplicate of comm for point-to-point's second channel (p2p.c): a
     * receiver's "ready" note, and a long message sent straight from A */
    MPI_Comm side;
    int nprow, npcol, myrow, mycol, vpid;
    blx_scope scope[BLX_NSCOPE];
    blx_msgids ids;
    /* BLACS_SET codes 11-16; each new grid starts from the defaults. */
    int nr_bs, nb_bs, nr_co, nb_co, topsrepeat, topscohrnt;
    /* the cost model on a node (point-to-point plans with it; machine.c),
     * and the algorithms BLACS_ALGORITHM forces on the default TOP: the
     * same on every member */
    blx_model model;
    blx_forced forced;
    /* MPI's collectives as a tuning file measured them (model.h), or NULL */
    blx_mpi_costs *mpi_costs;
    /* the last point-to-point cut (p2p.c: blx_p2p_cut): a loop of messages
     * of one size plans once; 0 pieces: none yet */
    blx_cut p2p_cut;
    /* the last point-to-point send (p2p.c: a stream to one receiver): its
     * destination + 1 (0: none yet) and the ID then expected next from it */
    int p2p_last_dest, p2p_last_recv;
    /* debug levels (watch.h): hang reports (2), p2p descriptions (3), and
     * agreement checks per scope (3); MPI_COMM_NULL when off */
    MPI_Comm watch, check, agree[BLX_NSCOPE];
    /* the vestigial kbsid/kbrid counters, kept apart from the real IDs */
    int kid_scope;
    int kid[BLX_NSCOPE];
} blx_ctx;

/* The endpoint of one operation on scope s of context c (tag: its message
 * ID), for the layers below; point-to-point uses the whole grid. */
static inline blx_ep blx_scope_ep(const blx_ctx *c, const blx_scope *s, int tag, const char *routine)
{
    blx_ep e = {c->comm, s->np, s->me, s->first, s->stride, NULL, tag, c->handle, routine, 0, s->comm};
    return e;
}
static inline blx_ep blx_grid_ep(const blx_ctx *c, int tag, const char *routine)
{
    return blx_scope_ep(c, &c->scope[BLX_SCOPE_ALL], tag, routine);
}

typedef struct blx_state {
    int initialized; /* MPI_COMM_WORLD recorded */
    int world_rank, world_size;
    int tag_ub;
    int id_lo, id_hi; /* message-ID range for new grids (BLACS_SET code 1) */
    blx_ctx **ctx;    /* context table; NULL = free slot */
    int nctx;
    MPI_Comm *sys; /* C system handles; MPI_COMM_NULL = free slot */
    int nsys;
} blx_state;

BLX_INTERNAL extern blx_state blx_g;

/* --- state.c --- */
BLX_INTERNAL void blx_init(void);
/* bind.c: the check made when the library is loaded (blx_init calls this,
 * so that a static link takes the check in too). */
BLX_INTERNAL int blx_bind_checked(void);
/* bind.c: stops every process when MPI_COMM_WORLD has one process but the
 * launcher says it started more (another MPI's launcher: every process
 * would run as a job of its own). */
BLX_INTERNAL void blx_bind_check_launcher(int world_size);
/* The context behind a handle, or a fatal error naming the routine.  Also
 * polls the send-buffer queue, as every BLACS call does. */
BLX_INTERNAL blx_ctx *blx_ctx_get(int ctxt, const char *routine);
/* The context or NULL (gridinfo, pnum, pcoord answer -1 for bad handles). */
BLX_INTERNAL blx_ctx *blx_ctx_find(int ctxt);
BLX_INTERNAL int blx_ctx_exited(int ctxt);
BLX_INTERNAL int blx_ctx_add(blx_ctx *c);
BLX_INTERNAL void blx_ctx_remove(int handle);
/* Forgets every slot (BLACS_EXIT): handles start from 0 again. */
BLX_INTERNAL void blx_ctx_reset(void);
BLX_INTERNAL int blx_sys_register(MPI_Comm comm);
BLX_INTERNAL MPI_Comm blx_sys_lookup(int handle, const char *routine);
BLX_INTERNAL void blx_sys_free(int handle);
/* A communicator about to be freed leaves the table (a later use of its
 * handle is then the clear "No system context" error, not a crash). */
BLX_INTERNAL void blx_sys_forget(MPI_Comm comm);
/* A system context as the given interface spells it -> MPI_Comm. */
BLX_INTERNAL MPI_Comm blx_sys_comm(blx_iface iface, int handle, const char *routine);
/* MPI_Comm -> a system context for the interface (C: registers a handle). */
BLX_INTERNAL int blx_sys_handle(blx_iface iface, MPI_Comm comm);

/* --- grid.c --- */
BLX_INTERNAL void blx_gridmap(const char *routine, int *ctxt, MPI_Comm sys, const blacs_int *map,
                              int64_t ldumap, int nprow, int npcol);
BLX_INTERNAL void blx_gridinit(const char *routine, int *ctxt, MPI_Comm sys, const char *order, int nprow,
                               int npcol);
BLX_INTERNAL void blx_gridexit(int ctxt);
BLX_INTERNAL void blx_exit(int notdone);
/* Cblacs_stats: the grid's statistics merged and printed by its process
 * {0,0} (collective over the grid; stats.c). */
BLX_INTERNAL void blx_stats(int ctxt);

/* --- machine.c: a new grid's cost models and nodes, and its scopes' --- */
BLX_INTERNAL void blx_machine_init(blx_ctx *c, const char *routine);
BLX_INTERNAL void blx_machine_free(blx_ctx *c);
/* The node of every process of comm (np of them; this one is vpid), named
 * by the lowest rank on it: MPI_COMM_TYPE_SHARED, or BLACS_NODES as process
 * 0 reads it; collective over comm; free() the result. */
BLX_INTERNAL int *blx_machine_nodes(const char *routine, MPI_Comm comm, int np, int vpid);
/* Processes the launcher started on this node (Open MPI, MPICH's Hydra),
 * or 0 if it does not say: with more than the processors, the node's
 * model is crowded (blx_model_crowd). */
BLX_INTERNAL int blx_machine_node_processes(void);
/* On process 0 of the job's grids: the node's alpha and beta it measured
 * (before blx_model_crowd), or 0 if it measured none (tests; beta 0 too
 * where 1 MiB came back no slower than 8 bytes: the default's stays). */
BLX_INTERNAL double blx_machine_node_alpha(void);
BLX_INTERNAL double blx_machine_node_beta(void);

/* --- support.c --- */
BLX_INTERNAL void blx_pinfo(blacs_int *mypnum, blacs_int *nprocs);
BLX_INTERNAL void blx_version(blacs_int *major, blacs_int *minor, blacs_int *patch);
BLX_INTERNAL void blx_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
BLX_INTERNAL int blx_pnum(int ctxt, int prow, int pcol);
BLX_INTERNAL void blx_pcoord(int ctxt, int pnum, int *prow, int *pcol);
BLX_INTERNAL void blx_freebuff(int wait);
BLX_INTERNAL BLX_NORETURN void blx_abort(int ctxt, int errnum);
BLX_INTERNAL int blx_kp2pid(void);
BLX_INTERNAL int blx_kscopedid(int ctxt, const char *scope, const char *routine);

/* --- getset.c --- */
/* ConTxt and WHAT as the interface gave them (checked here). */
BLX_INTERNAL void blx_get(blx_iface iface, blacs_int ctxt, blacs_int what, blacs_int *val);
BLX_INTERNAL void blx_set(blacs_int ctxt, blacs_int what, const blacs_int *val);

/* --- call.c: integer arguments, shared by every routine --- */
/* An integer argument the core keeps as an int (a context, a process
 * coordinate or count, a WHAT code: MPI ranks and communicator sizes are
 * ints).  In the ILP64 library a value outside int is fatal, naming the
 * routine and the argument; in the LP64 library it is the identity. */
#ifdef BLACS_ILP64
BLX_INTERNAL int blx_int_arg(blacs_int v, const char *routine, const char *name);
/* The same where an out-of-range value only means "no such context or
 * process" (gridinfo, pnum, pcoord never fail): -1 then. */
static inline int blx_int_or_none(blacs_int v) { return v >= INT32_MIN && v <= INT32_MAX ? (int)v : -1; }
#else
static inline int blx_int_arg(blacs_int v, const char *routine, const char *name)
{
    (void)routine, (void)name;
    return v;
}
static inline int blx_int_or_none(blacs_int v) { return v; }
#endif
/* Case-insensitive letter of an option argument ('\0' for NULL). */
static inline char blx_upper(const char *p)
{
    char c = p ? *p : '\0';
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}
/* The scope a SCOPE letter names: BLX_SCOPE_ROW, _COL or _ALL; -1 if none. */
static inline int blx_scope_index(const char *scope)
{
    switch (blx_upper(scope)) {
    case 'R': return BLX_SCOPE_ROW;
    case 'C': return BLX_SCOPE_COL;
    case 'A': return BLX_SCOPE_ALL;
    default: return -1;
    }
}

/* --- p2p.c --- */
/* Point-to-point messages sent straight from A when the receiver is ready
 * (p2p.c): long ones (below this, copying costs less than the ready note),
 * each fitting one MPI message (BLX_MAX_MSG). */
#define BLX_P2P_DIRECT_MIN ((size_t)64 << 10)
/* How many sends of this process went straight from A and how many
 * buffered (p2p.c's header), for the tests. */
BLX_INTERNAL void blx_p2p_counts(unsigned long *direct, unsigned long *buffered);
/* How a buffered message of n bytes between two members of grid c is cut:
 * the same on both sides (the grid's model), non-decreasing in n
 * (blx_cut_make).  The answer is kept for the next message of n bytes. */
BLX_INTERNAL blx_cut blx_p2p_cut(blx_ctx *c, size_t n);

#endif
