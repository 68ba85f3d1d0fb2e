/*
 * blacs/combine.c - combines: vGSUM2D, vGAMX2D, vGAMN2D (spec section 5),
 * and the user-defined trapezoidal combine vTUOP2D (LAWN 73 section 7.1.3),
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
 *
 * vTUOP2D packs its general or trapezoidal matrix the same way, runs the
 * user's INIT on every member's packed contribution, combines with the
 * user's OP instead of a built-in operation (uop.h), and runs POST on the
 * result where it is left.  Long vectors are cut into pieces (pipelined
 * trees, the reduce-scatter of Rabenseifner's algorithm), and the user's
 * OP must see whole records: so pieces of a general matrix are whole
 * columns (a record such as the (scale, sumsq) pair of a norm lies down a
 * column), and the default TOP uses a splitting algorithm only when there
 * are at least as many columns as members; pieces of a trapezoid, whose
 * columns differ in length, are whole elements.
 */
#include <stdlib.h>
#include <string.h>

#include "../topologies/topology.h"
#include "agree.h"
#include "call.h"
#include "uop.h"

/* Member index -> grid coordinates, in scope s of context c. */
static void member_coords(const blx_ctx *c, const blx_scope *s, int member, blacs_int *row, blacs_int *col)
{
    int g = s->first + member * s->stride;
    *row = g / c->npcol;
    *col = g % c->npcol;
}

/* What a combine adds to its call: the operation, the user's functions,
 * the operation's record (topology.h: in.bytes of buffer, in.unit the
 * bytes a piece is a multiple of, 0: never cut), the route. */
typedef struct combine_plan {
    blx_reduce op;
    int64_t ldia;       /* LDIA (at least M) */
    blx_uop_run user;   /* vTUOP2D: the user's functions (user.u == NULL: built-in) */
    MPI_Datatype mtype; /* the combine as MPI's built-in sum (MPI_DATATYPE_NULL: none) */
    blx_route_in in;
    blx_route route;
} combine_plan;

/* The combine as MPI's built-in reduction: a sum of MPI's elements, a
 * complex one as two reals (MPI_SUM adds them component by component, as
 * ours does); MPI_DATATYPE_NULL where there is none (absolute maxima and
 * minima, the user's operations). */
static MPI_Datatype mpi_type(const blx_call *k)
{
    if (k->op != BLX_OP_SUM)
        return MPI_DATATYPE_NULL;
    switch (k->type) {
    case BLX_T_I: return sizeof(blacs_int) == sizeof(int64_t) ? MPI_INT64_T : MPI_INT;
    case BLX_T_S:
    case BLX_T_C: return MPI_FLOAT;
    default: return MPI_DOUBLE;
    }
}

/* A scope of one: nothing to combine, and the locations are our own. */
static void combine_alone(const blx_call *k, const combine_plan *p)
{
    for (int64_t j = 0; p->op.located && j < k->n; j++)
        for (int64_t i = 0; i < k->m; i++) {
            k->rA[i + (size_t)j * p->ldia] = k->c->myrow;
            k->cA[i + (size_t)j * p->ldia] = k->c->mycol;
        }
}

/* On a destination: the result into A, distances back into coordinates. */
static void unpack_result(const blx_call *k, const combine_plan *p, const char *work, const int *loc)
{
    const blx_shape *shape = &k->shape;
    int all = k->peer < 0;
    blx_unpack(shape, work, k->A);
    for (int64_t j = 0; loc != NULL && j < shape->n; j++)
        for (int64_t i = 0; i < shape->m; i++) {
            int d = loc[i + (size_t)j * shape->m];
            member_coords(k->c, k->s, all ? d : (d + k->peer) % k->s->np, &k->rA[i + (size_t)j * p->ldia],
                          &k->cA[i + (size_t)j * p->ldia]);
        }
}

/* vTUOP2D's functions: C may pass NULL for INIT and POST (nothing to do);
 * Fortran passes all three. */
static void user_fn_args(const blx_call *k)
{
    const blx_uop *u = k->user;
    int f77 = u->iface == BLX_IFACE_F77;
    const char *missing = (f77 ? u->fn.f.op == NULL : u->fn.c.op == NULL) ? "OP"
                          : f77 && u->fn.f.init == NULL                   ? "INIT"
                          : f77 && u->fn.f.post == NULL                   ? "POST"
                                                                          : NULL;
    if (missing != NULL)
        blx_fatal(k->c->handle, k->name, "%s is a null pointer", missing);
}

static int has_init(const blx_uop *u)
{
    return u->iface == BLX_IFACE_C ? u->fn.c.init != NULL : u->fn.f.init != NULL;
}

/* A repeatable combine (BLACS_SET 15) of the default TOP chooses and plans
 * with the scope's models nothing measured (machine.c): a grid's probe
 * never changes its algorithm, and so its order of folding. */
static int fixed(const blx_call *k)
{
    return k->c->topsrepeat && k->s->fixed_nodes != NULL && (k->top == NULL || *k->top == ' ');
}

static combine_plan plan_of(const blx_call *k)
{
    combine_plan p;
    p.op = (blx_reduce){k->op, k->type, blx_shape_count(&k->shape),
                        k->op != BLX_OP_SUM && k->op != BLX_OP_USER && k->ldia != -1};
    p.ldia = p.op.located && k->ldia < k->m ? k->m : k->ldia; /* as LDA: silently at least M */
    size_t esz = blx_types[k->type].esz;
    size_t column = k->shape.uplo == 'G' && k->m > 0 ? (size_t)k->m : 1;
    p.user = (blx_uop_run){k->user, esz, column};
    size_t unit = p.op.located ? 0 : (k->user ? column : 1) * esz;
    p.mtype = mpi_type(k);
    /* MPI only recommends repeatable reductions: not weighed where BLACS_SET 15 asks for them */
    p.in = (blx_route_in){.np = k->s->np,
                          .bytes = blx_reduce_bytes(&p.op),
                          .leave_on_all = k->peer < 0,
                          .splittable = unit != 0,
                          .rings = k->c->nr_co,
                          .branches = k->c->nb_co,
                          .model = fixed(k) ? &k->s->fixed_model : blx_plan_model(k),
                          .trees = &k->s->trees,
                          .routes = &k->s->routes,
                          .forced = &k->c->forced,
                          .nodes = fixed(k) ? k->s->fixed_nodes : k->s->nodes,
                          .mpi = p.mtype != MPI_DATATYPE_NULL,
                          .mpi_costs = k->c->topsrepeat ? NULL : k->c->mpi_costs,
                          .unit = unit};
    if (blx_route_combine(&p.route, k->top ? *k->top : '\0', &p.in) != 0)
        blx_top_error(k);
    return p;
}

/* The checks of what the core reads itself. */
static void check_args(const blx_call *k, const combine_plan *p)
{
    blx_ptr_arg(k, "A", k->A, p->op.n > 0);
    blx_ptr_arg(k, "RA (with LDIA != -1)", k->rA, p->op.located && p->op.n > 0);
    blx_ptr_arg(k, "CA (with LDIA != -1)", k->cA, p->op.located && p->op.n > 0);
    if (k->user != NULL)
        user_fn_args(k);
}

/* A contiguous A is used as it is: a destination combines in it, another
 * process hands it over read-only (the algorithm copies it only if it must
 * fold something into it, so leaves copy nothing and other processes' A
 * stays untouched).  Anything else is packed into work space, and so is
 * the contribution of a non-destination that the user's INIT changes. */
static void run(blx_call *k, combine_plan *p, int spread_tag)
{
    blx_ctx *c = k->c;
    blx_scope *s = k->s;
    int mine_out = k->peer < 0 || s->me == k->peer;
    int in_place = !p->op.located && blx_shape_contiguous(&k->shape) &&
                   (k->user == NULL || !has_init(k->user) || mine_out);
    char *work = in_place ? k->A : blx_scratch(BLX_SCRATCH_DATA, p->in.bytes, c->handle, k->name);
    if (!in_place)
        blx_pack(&k->shape, k->A, work);
    if (k->user != NULL)
        blx_uop_apply(&p->user, 0, work, p->op.n);
    blx_xfer x = {.in = p->in,
                  .ep = blx_scope_ep(c, s, k->tag, k->name),
                  .root = k->peer < 0 ? 0 : k->peer,
                  .buf = work,
                  .merge = k->user ? blx_uop_merge : blx_merge,
                  .op = k->user ? (const void *)&p->user : (const void *)&p->op,
                  .ordered = c->topsrepeat != 0,
                  .spread_tag = spread_tag,
                  .readonly = in_place && !mine_out,
                  .mtype = p->mtype,
                  .mop = MPI_SUM};
    int *loc = blx_reduce_locs(&p->op, work);
    int mydist = k->peer < 0 ? s->me : blx_xfer_rel(&x);
    for (size_t i = 0; loc != NULL && i < p->op.n; i++)
        loc[i] = mydist;
    if (s->np > 1)
        blx_combine_run(&p->route, &x);
    if (s->np > 1 && k->peer < 0 && c->agree[s->id] != MPI_COMM_NULL)
        blx_agree_result(k, work, p->in.bytes, p->route.alg->name);
    if (mine_out && k->user != NULL)
        blx_uop_apply(&p->user, 1, work, p->op.n);
    if (mine_out && !in_place)
        unpack_result(k, p, work, loc);
}

void blx_combine(blx_call *k)
{
    blx_enter(k);
    combine_plan p = plan_of(k);
    check_args(k, &p);
    blx_ctx *c = k->c;
    blx_scope *s = k->s;
    if (c->agree[s->id] != MPI_COMM_NULL && s->np > 1)
        blx_agree_collective(k);
    int dest = k->peer < 0 ? 0 : k->peer; /* the message IDs of a leave-on-all combine count at member 0 */
    k->tag = blx_msgid_next_scoped(&c->ids, s->id, dest);
    int spread_tag = k->peer < 0 ? blx_msgid_next_scoped(&c->ids, s->id, dest) : 0;
    if (s->np == 1 && k->user == NULL)
        combine_alone(k, &p);
    else
        run(k, &p, spread_tag);
    blx_leave(k, p.in.bytes, s->np > 1 ? p.route.alg->name : NULL);
}
