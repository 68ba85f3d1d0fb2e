/*
 * blacs/call.h - entering and leaving a communication call, and the cores
 * that take its record (record.h).
 *
 * The core of each family (p2p.c, bcast.c, combine.c; grid.c for the
 * barrier) takes the record an entry point filled and calls blx_enter,
 * which enters the thread guard, checks and decodes what the kinds share
 * (the context, the scope, the matrix's shape, the other side) and, where
 * calls are watched (debug level 2, statistics), keeps the record for the
 * hang report (watch.c); blx_leave counts it (stats.c) and ends it.  No
 * integer the user passed reaches a core unchecked: in the ILP64 library a
 * value that does not fit an int is a clear error naming the routine and
 * the argument.
 */
#ifndef BLX_CALL_H
#define BLX_CALL_H

#include "record.h"

/* The start and end of every communication call (call.c).  blx_leave
 * counts the call's bytes and the algorithm that ran (NULL: none) where
 * statistics are kept. */
BLX_INTERNAL void blx_enter(blx_call *k);
BLX_INTERNAL void blx_leave(blx_call *k, size_t bytes, const char *algorithm);

/* The cores, one per family. */
BLX_INTERNAL void blx_send_matrix(blx_call *k);
BLX_INTERNAL void blx_recv_matrix(blx_call *k);
BLX_INTERNAL void blx_recv_any(blx_call *k);
BLX_INTERNAL void blx_bcast(blx_call *k);
BLX_INTERNAL void blx_combine(blx_call *k);
BLX_INTERNAL void blx_barrier(blx_call *k);

/* Runs a core on the record an entry point filled, then leaves nothing of
 * the call on the stack below the entry point (base/stack.h): inlined into
 * every communication routine. */
static inline __attribute__((always_inline)) void blx_call_run(void (*core)(blx_call *), blx_call *k)
{
    blx_stack_begin(BLX_STACK_COMM);
    core(k);
    blx_stack_forget(k, sizeof *k);
    blx_stack_end();
}

/* The checks of arguments the cores read themselves (call.c). */
/* A pointer argument that the call needs (needed != 0) must not be NULL. */
BLX_INTERNAL void blx_ptr_arg(const blx_call *k, const char *name, const void *p, int needed);
/* The fatal "Unknown topology" error of the TOP argument. */
BLX_INTERNAL BLX_NORETURN void blx_top_error(const blx_call *k);

/* The model a broadcast or combine plans its pieces with: for the default
 * TOP the scope's (machine.c), with which it also priced its choice; a
 * lettered TOP keeps LAWN 73's shape and the grid's model on a node, as
 * before scopes knew their nodes (on scopes over nodes, the network's
 * model made binomial fan-ins up to 2 x slower in simulation:
 * sim/results.md). */
static inline const blx_model *blx_plan_model(const blx_call *k)
{
    return k->top != NULL && *k->top != ' ' ? &k->c->model : &k->s->model;
}

#endif
