/*
 * blacs/combine.c - combines: vGSUM2D, vGAMX2D, vGAMN2D (spec section 5),
 * along the topology the TOP letter names.
 *
 * The entry point packs A (and, for AMX/AMN with locations, each element's
 * "distance") into one contiguous buffer, hands it to the topology, and on
 * the destination(s) unpacks the result into A and turns distances back into
 * grid coordinates in RA/CA.  Other processes' A, RA and CA are left as they
 * were.
 *
 * Distances (spec 5.1): a contribution's distance is (my scope index -
 * destination's) mod np for a single destination, and my scope index for
 * leave-on-all; on equal absolute values the smaller distance wins.
 *
 * Coherence: every leave-on-all combine leaves bitwise identical results on
 * all members, whatever the TOP: tree and ring topologies compute the result
 * once, at member 0, and broadcast it; the bidirectional exchange ('H', and
 * the default for leave-on-all) makes both members of each pair compute the
 * same operation on the same operands.  Repeatability (BLACS_SET 15): fan-ins
 * then fold their children in a fixed order instead of arrival order; the
 * default TOP ' ' always does.
 */
#include <stdlib.h>
#include <string.h>

#include "../topologies/topology.h"
#include "internal.h"
#include "ops.h"

/* Member index -> grid coordinates, in scope s of context c. */
static void member_coords(const blx_ctx *c, const blx_scope *s, int member, int *row, int *col)
{
    int g = s->first + member * s->stride;
    *row = g / c->npcol;
    *col = g % c->npcol;
}

/* A scope of one: nothing to combine, and the locations are our own. */
static void combine_alone(const blx_ctx *c, const blx_reduce *op, int m, int n, int *rA, int *cA, int ldia)
{
    for (int j = 0; op->located && j < n; j++)
        for (int i = 0; i < m; i++) {
            rA[i + (size_t)j * ldia] = c->myrow;
            cA[i + (size_t)j * ldia] = c->mycol;
        }
}

/* On a destination: the result into A, distances back into coordinates. */
static void unpack_result(const blx_ctx *c, const blx_scope *s, const blx_shape *shape, const char *work,
                          const int *loc, void *A, int *rA, int *cA, int ldia, int dest, int all)
{
    blx_unpack(shape, work, A);
    for (int j = 0; loc != NULL && j < shape->n; j++)
        for (int i = 0; i < shape->m; i++) {
            int d = loc[i + (size_t)j * shape->m];
            member_coords(c, s, all ? d : (d + dest) % s->np, &rA[i + (size_t)j * ldia],
                          &cA[i + (size_t)j * ldia]);
        }
}

void blx_combine(const blx_call *call, int kind, int ctxt, const char *scope, const char *top, int m, int n,
                 void *A, int lda, int *rA, int *cA, int ldia, int rdest, int cdest)
{
    blx_ctx *c = blx_ctx_get(ctxt, call->name);
    blx_scope *s = blx_scope_arg(c, call, scope);
    blx_shape shape = blx_shape_arg(c, call, NULL, NULL, m, n, lda);
    /* RDEST or CDEST = -1 leaves the result everywhere (spec 5.2) */
    int all = rdest == -1 || cdest == -1;
    int dest = all ? 0 : blx_member_arg(c, call, s, "RDEST", rdest, "CDEST", cdest);
    blx_reduce op = {(blx_opkind)kind, call->type, blx_shape_count(&shape), kind != BLX_OP_SUM && ldia != -1};
    if (op.located && ldia < m)
        ldia = m; /* as LDA: silently at least M */
    size_t bytes = blx_reduce_bytes(&op);
    blx_route route;
    blx_route_in in = {s->np, bytes, all, !op.located, c->nr_co, c->nb_co, &c->model, &s->trees};
    if (blx_route_combine(&route, top ? *top : '\0', &in) != 0)
        blx_top_error(c, call, top);
    blx_ptr_arg(c, call, "A", A, op.n > 0);
    blx_ptr_arg(c, call, "RA (with LDIA != -1)", rA, op.located && op.n > 0);
    blx_ptr_arg(c, call, "CA (with LDIA != -1)", cA, op.located && op.n > 0);
    int tag = blx_msgid_next_scoped(&c->ids, s->id, dest);
    int tag2 = all ? blx_msgid_next_scoped(&c->ids, s->id, dest) : 0;
    if (s->np == 1) {
        combine_alone(c, &op, m, n, rA, cA, ldia);
        return;
    }

    /* A contiguous A is used as it is: a destination combines in it, another
     * process hands it over read-only (the topology copies it only if it must
     * fold something into it, so leaves copy nothing and other processes' A
     * stays untouched).  Anything else is packed into work space. */
    int mine_out = all || s->me == dest;
    int in_place = !op.located && blx_shape_contiguous(&shape);
    char *work = in_place ? A : blx_scratch(BLX_SCRATCH_DATA, bytes, ctxt, call->name);
    if (!in_place)
        blx_pack(&shape, A, work);
    blx_xfer x = {.ep = blx_scope_ep(c, s, tag, call->name),
                  .trees = &s->trees,
                  .model = &c->model,
                  .root = dest,
                  .buf = work,
                  .bytes = bytes,
                  .merge = blx_merge,
                  .op = &op,
                  .unit = op.located ? 0 : blx_types[op.type].esz,
                  .ordered = c->topsrepeat != 0,
                  .leave_on_all = all,
                  .spread_tag = tag2,
                  .readonly = in_place && !mine_out};
    int *loc = blx_reduce_locs(&op, work);
    int mydist = all ? s->me : blx_xfer_rel(&x);
    for (size_t k = 0; loc != NULL && k < op.n; k++)
        loc[k] = mydist;
    blx_combine_run(&route, &x);
    if (mine_out && !in_place)
        unpack_result(c, s, &shape, work, loc, A, rA, cA, ldia, dest, all);
}
