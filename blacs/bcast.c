/*
 * blacs/bcast.c - broadcasts: vGEBS2D, vGEBR2D, vTRBS2D, vTRBR2D (spec
 * section 4), globally blocking, along the algorithm the TOP letter names.
 *
 * The core takes the call record, finds the route (topologies/registry.c),
 * takes the scope's message ID, and hands the algorithm a contiguous
 * buffer: the user's matrix itself when it is contiguous (no copy at the
 * source, received in place elsewhere), or a buffer packed once at the
 * source and forwarded packed.  Receivers may use another LDA, and for
 * general matrices another M x N of the same size.
 *
 * The source's send is locally blocking (LAWN 73 section 6.2.2): from
 * NOTES_MIN bytes, the receivers next to the source say when they are
 * ready, and a source whose receivers are not all ready copies A into a
 * send buffer, posts its sends and returns (topologies/tree_bcast.c, for
 * the algorithms that walk a tree: every lettered TOP but the exchanges).
 * Below that, MPI's own eager sends return at once.  Not with more
 * processes than processors (the model's overlap = 0): there the source's
 * copy and its wait for the notes would only take the core from the
 * receivers it is waiting for (ring broadcasts in a loop on 4 processes
 * of 2 cores ran 1.3 to 2.4 times longer), so the source sends straight
 * from A as before.  On a network link (the scope's model has window 1:
 * it spans nodes, machine.c), a message sent whole has no notes
 * (BLX_NOTES_NET, tree_bcast.c): waiting for them cost the receivers the
 * latency a note takes (simulated on 16-core nodes, 32 processes over 2: a
 * 4 KiB broadcast 1.55 x); a message cut into pieces keeps them, so that
 * a panel's owner leaves the panel to busy receivers (lu, simulated: 9%).  The sends left in flight complete during later calls;
 * blacs_gridexit leaves them to MPI, which keeps a freed communicator alive
 * until they are done, and blacs_freebuff (WAIT != 0) and blacs_exit wait
 * for them.
 */
#include "../topologies/topology.h"
#include "agree.h"
#include "call.h"

/* Where a send may wait for its receiver.  MPI's eager limits are not
 * known portably and are lower than one may think: on Open MPI 4.1 over
 * shared memory, a 512-byte MPI_Isend to a process that has not yet posted
 * its receive did not complete until it had (only the fast boxes, up to
 * about 256 bytes, are sent at once). */
#define NOTES_MIN 256

/* The operation's record (topology.h): routed, priced and run from it. */
static blx_route_in record(const blx_call *k)
{
    return (blx_route_in){.np = k->s->np,
                          .bytes = blx_shape_bytes(&k->shape),
                          .rings = k->c->nr_bs,
                          .branches = k->c->nb_bs,
                          .model = blx_plan_model(k),
                          .trees = &k->s->trees,
                          .routes = &k->s->routes,
                          .forced = &k->c->forced,
                          .nodes = k->s->nodes,
                          .mpi = 1,
                          .mpi_costs = k->c->mpi_costs};
}

static void run(blx_call *k, const blx_route *r, blx_xfer *x)
{
    blx_ctx *c = k->c;
    int is_source = k->kind == BLX_BCAST_SEND;
    blx_ptr_arg(k, "A", k->A, blx_shape_count(&k->shape) > 0);
    if (c->agree[k->s->id] != MPI_COMM_NULL)
        blx_agree_collective(k);
    k->tag = blx_msgid_next_scoped(&c->ids, k->s->id, k->peer);
    x->ep = blx_scope_ep(c, k->s, k->tag, k->name);
    x->root = k->peer;
    x->lettered = k->letter != ' ';
    const blx_model *scope = &k->s->model;         /* the network's where the scope spans nodes */
    if (x->in.bytes > NOTES_MIN && scope->overlap) /* alike on every member */
        x->notes = scope->window > 1 ? BLX_NOTES : BLX_NOTES_NET;
    x->side = c->side;
    int packed = !blx_shape_contiguous(&k->shape);
    if (packed) {
        x->buf = blx_scratch(BLX_SCRATCH_DATA, x->in.bytes, c->handle, k->name);
        if (is_source)
            blx_pack(&k->shape, k->A, x->buf);
    } else {
        x->buf = k->A; /* the source's A is only read */
    }
    blx_bcast_run(r, x);
    if (packed && !is_source)
        blx_unpack(&k->shape, x->buf, k->A);
}

void blx_bcast(blx_call *k)
{
    blx_enter(k);
    blx_xfer x = {.in = record(k)};
    blx_route r;
    if (blx_route_bcast(&r, k->top ? *k->top : '\0', &x.in) != 0)
        blx_top_error(k);
    if (k->s->np > 1)
        run(k, &r, &x);
    blx_leave(k, blx_shape_bytes(&k->shape), k->s->np > 1 ? r.alg->name : NULL);
}
