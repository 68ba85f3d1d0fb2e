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
#include "internal.h"
#include "ops.h"
#include "threads.h"
#include "uop.h"
#include "watch.h"

/* Member index -> grid coordinates, in scope s of context c. */
static void member_coords(const blx_ctx *c, const blx_scope *s, int member, blacs_int *row, blacs_int *col)
{
    int g = s->first + member * s->stride;
    *row = g / c->npcol;
    *col = g % c->npcol;
}

/* A scope of one: nothing to combine, and the locations are our own. */
static void combine_alone(const blx_ctx *c, const blx_reduce *op, int64_t m, int64_t n, blacs_int *rA,
                          blacs_int *cA, int64_t ldia)
{
    for (int64_t j = 0; op->located && j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            rA[i + (size_t)j * ldia] = c->myrow;
            cA[i + (size_t)j * ldia] = c->mycol;
        }
}

/* On a destination: the result into A, distances back into coordinates. */
static void unpack_result(const blx_ctx *c, const blx_scope *s, const blx_shape *shape, const char *work,
                          const int *loc, void *A, blacs_int *rA, blacs_int *cA, int64_t ldia, int dest,
                          int all)
{
    blx_unpack(shape, work, A);
    for (int64_t j = 0; loc != NULL && j < shape->n; j++)
        for (int64_t i = 0; i < shape->m; i++) {
            int d = loc[i + (size_t)j * shape->m];
            member_coords(c, s, all ? d : (d + dest) % s->np, &rA[i + (size_t)j * ldia],
                          &cA[i + (size_t)j * ldia]);
        }
}

/* The arguments of a combine, decoded and checked, and its route. */
typedef struct combine_call {
    blx_ctx *c;
    blx_scope *s;
    blx_shape shape;
    int all, dest; /* leave-on-all; destination member */
    int64_t ldia;  /* LDIA (at least M) */
    blx_reduce op;
    blx_uop_run user;   /* vTUOP2D: the user's functions (user.u == NULL: built-in) */
    size_t bytes, unit; /* unit: bytes a piece is a multiple of (0: never cut) */
    blx_route route;
    char top;
} combine_call;

/* vTUOP2D's functions: C may pass NULL for INIT and POST (nothing to do);
 * Fortran passes all three. */
static void user_fn_args(const blx_ctx *c, const blx_call *call, const blx_uop *u)
{
    int f77 = u->iface == BLX_IFACE_F77;
    const char *missing = (f77 ? u->fn.f.op == NULL : u->fn.c.op == NULL) ? "OP"
                          : f77 && u->fn.f.init == NULL                   ? "INIT"
                          : f77 && u->fn.f.post == NULL                   ? "POST"
                                                                          : NULL;
    if (missing != NULL)
        blx_fatal(c->handle, call->name, "%s is a null pointer", missing);
}

static int has_init(const blx_uop *u)
{
    return u->iface == BLX_IFACE_C ? u->fn.c.init != NULL : u->fn.f.init != NULL;
}

/* The shape of vTUOP2D's UPLO ('G', 'U' or 'L') and DIAG. */
static blx_shape user_shape(const blx_ctx *c, const blx_call *call, const char *uplo, const char *diag,
                            int64_t m, int64_t n, int64_t lda)
{
    char u = blx_upper(uplo);
    if (u != 'G' && u != 'U' && u != 'L')
        blx_fatal(c->handle, call->name, "UPLO = '%c' must be 'G', 'U' or 'L'", u ? u : '0');
    return blx_shape_arg(c, call, u == 'G' ? NULL : uplo, diag, m, n, lda);
}

static combine_call prepare(const blx_call *call, int kind, const blx_uop *user, int ctxt, const char *scope,
                            const char *top, const char *uplo, const char *diag, int64_t m, int64_t n,
                            int64_t lda, int64_t ldia, int rdest, int cdest)
{
    combine_call k;
    k.c = blx_ctx_get(ctxt, call->name);
    k.s = blx_scope_arg(k.c, call, scope);
    k.shape =
        user ? user_shape(k.c, call, uplo, diag, m, n, lda) : blx_shape_arg(k.c, call, NULL, NULL, m, n, lda);
    /* RDEST or CDEST = -1 leaves the result everywhere (spec 5.2) */
    k.all = rdest == -1 || cdest == -1;
    k.dest = k.all ? 0 : blx_member_arg(k.c, call, k.s, "RDEST", rdest, "CDEST", cdest);
    k.op = (blx_reduce){(blx_opkind)kind, call->type, blx_shape_count(&k.shape),
                        kind != BLX_OP_SUM && kind != BLX_OP_USER && ldia != -1};
    k.ldia = k.op.located && ldia < m ? m : ldia; /* as LDA: silently at least M */
    k.bytes = blx_reduce_bytes(&k.op);
    size_t esz = blx_types[call->type].esz;
    size_t column = k.shape.uplo == 'G' && m > 0 ? (size_t)m : 1;
    k.user = (blx_uop_run){user, esz, column};
    k.unit = k.op.located ? 0 : (user ? column : 1) * esz;
    int splittable = k.unit != 0 && (k.bytes == 0 || k.bytes / k.unit >= (size_t)k.s->np);
    blx_route_in in = {k.s->np,    k.bytes,     k.all,       splittable,  k.c->nr_co,
                       k.c->nb_co, &k.c->model, &k.s->trees, &k.s->routes};
    if (blx_route_combine(&k.route, top ? *top : '\0', &in) != 0)
        blx_top_error(k.c, call, top);
    k.top = blx_upper(top);
    return k;
}

/* Level 3: the members of the scope agree on the combine first. */
static void agree(const blx_call *call, const combine_call *k)
{
    const blx_shape *t = &k->shape;
    int trapezoid = t->uplo != 'G';
    blx_agreement a = {2 + (int)k->op.kind,
                       (long long)k->op.n,
                       t->uplo,
                       trapezoid ? (t->unit ? 'U' : 'N') : 0,
                       trapezoid ? t->m : 0,
                       trapezoid ? t->n : 0,
                       k->top,
                       k->all,
                       k->all ? -1 : k->dest,
                       k->op.located,
                       k->top == 'M' ? k->c->nr_co : 0,
                       k->top == 'T' ? k->c->nb_co : 0,
                       k->c->topsrepeat != 0};
    blx_agree_collective(k->c, k->s, call, &a);
}

static blx_doing *record(const blx_call *call, const combine_call *k, int tag)
{
    int g = k->s->first + k->dest * k->s->stride;
    blx_doing *d = blx_doing_matrix(call, k->c->handle, 'c', &k->shape, k->all ? -1 : g / k->c->npcol,
                                    k->all ? -1 : g % k->c->npcol);
    if (d != NULL) {
        d->op = "+><u"[k->op.kind];
        d->scope = "RCA"[k->s->id];
        d->top = k->top;
        d->tag = tag;
    }
    return d;
}

static void combine(const blx_call *call, int kind, const blx_uop *user, int ctxt, const char *scope,
                    const char *top, const char *uplo, const char *diag, int64_t m, int64_t n, void *A,
                    int64_t lda, blacs_int *rA, blacs_int *cA, int64_t ldia, int rdest, int cdest)
{
    combine_call k = prepare(call, kind, user, ctxt, scope, top, uplo, diag, m, n, lda, ldia, rdest, cdest);
    blx_ctx *c = k.c;
    blx_scope *s = k.s;
    blx_ptr_arg(c, call, "A", A, k.op.n > 0);
    blx_ptr_arg(c, call, "RA (with LDIA != -1)", rA, k.op.located && k.op.n > 0);
    blx_ptr_arg(c, call, "CA (with LDIA != -1)", cA, k.op.located && k.op.n > 0);
    if (user != NULL)
        user_fn_args(c, call, user);
    if (c->agree[s->id] != MPI_COMM_NULL && s->np > 1)
        agree(call, &k);
    int tag = blx_msgid_next_scoped(&c->ids, s->id, k.dest);
    int tag2 = k.all ? blx_msgid_next_scoped(&c->ids, s->id, k.dest) : 0;
    if (s->np == 1 && user == NULL) {
        combine_alone(c, &k.op, m, n, rA, cA, k.ldia);
        return;
    }
    blx_doing *d = record(call, &k, tag);

    /* A contiguous A is used as it is: a destination combines in it, another
     * process hands it over read-only (the topology copies it only if it must
     * fold something into it, so leaves copy nothing and other processes' A
     * stays untouched).  Anything else is packed into work space, and so is
     * the contribution of a non-destination that the user's INIT changes. */
    int mine_out = k.all || s->me == k.dest;
    int in_place =
        !k.op.located && blx_shape_contiguous(&k.shape) && (user == NULL || !has_init(user) || mine_out);
    char *work = in_place ? A : blx_scratch(BLX_SCRATCH_DATA, k.bytes, ctxt, call->name);
    if (!in_place)
        blx_pack(&k.shape, A, work);
    if (user != NULL)
        blx_uop_apply(&k.user, 0, work, k.op.n);
    blx_xfer x = {.ep = blx_scope_ep(c, s, tag, call->name),
                  .trees = &s->trees,
                  .routes = &s->routes,
                  .model = &c->model,
                  .root = k.dest,
                  .buf = work,
                  .bytes = k.bytes,
                  .merge = user ? blx_uop_merge : blx_merge,
                  .op = user ? (const void *)&k.user : (const void *)&k.op,
                  .unit = k.unit,
                  .ordered = c->topsrepeat != 0,
                  .leave_on_all = k.all,
                  .spread_tag = tag2,
                  .readonly = in_place && !mine_out};
    int *loc = blx_reduce_locs(&k.op, work);
    int mydist = k.all ? s->me : blx_xfer_rel(&x);
    for (size_t i = 0; loc != NULL && i < k.op.n; i++)
        loc[i] = mydist;
    if (s->np > 1)
        blx_combine_run(&k.route, &x);
    if (mine_out && user != NULL)
        blx_uop_apply(&k.user, 1, work, k.op.n);
    if (mine_out && !in_place)
        unpack_result(c, s, &k.shape, work, loc, A, rA, cA, k.ldia, k.dest, k.all);
    blx_doing_done(d, k.bytes, s->np > 1 ? k.route.topo->name : NULL);
}

void blx_combine(const blx_call *call, int kind, int ctxt, const char *scope, const char *top, int64_t m,
                 int64_t n, void *A, int64_t lda, blacs_int *rA, blacs_int *cA, int64_t ldia, int rdest,
                 int cdest)
{
    blx_thread_enter(ctxt, call->name);
    combine(call, kind, NULL, ctxt, scope, top, NULL, NULL, m, n, A, lda, rA, cA, ldia, rdest, cdest);
    blx_thread_leave();
}

void blx_combine_user(const blx_call *call, const blx_uop *user, int ctxt, const char *scope, const char *top,
                      const char *uplo, const char *diag, int64_t m, int64_t n, void *A, int64_t lda,
                      int rdest, int cdest)
{
    blx_thread_enter(ctxt, call->name);
    combine(call, BLX_OP_USER, user, ctxt, scope, top, uplo, diag, m, n, A, lda, NULL, NULL, -1, rdest,
            cdest);
    blx_thread_leave();
}
