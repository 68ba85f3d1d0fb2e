/*
 * blacs/bcast.c - broadcasts: vGEBS2D, vGEBR2D, vTRBS2D, vTRBR2D (spec
 * section 4), globally blocking, along the topology the TOP letter names.
 *
 * The entry point checks the arguments, finds the scope and the route
 * (topologies/registry.c), takes the scope's message ID, and hands the
 * topology a contiguous buffer: the user's matrix itself when it is
 * contiguous (no copy at the source, received in place elsewhere), or a
 * buffer packed once at the source and forwarded packed.  Receivers may use
 * another LDA, and for general matrices another M x N of the same size.
 */
#include "../topologies/topology.h"
#include "internal.h"
#include "threads.h"
#include "watch.h"

/* Everything but the data movement, shared by both sides. */
typedef struct bcast_call {
    blx_ctx *c;
    blx_scope *s;
    blx_shape shape;
    blx_route route;
    char top; /* the TOP letter, upper case */
} bcast_call;

static bcast_call prepare(const blx_call *call, int ctxt, const char *scope, const char *top,
                          const char *uplo, const char *diag, int64_t m, int64_t n, int64_t lda)
{
    bcast_call b;
    b.c = blx_ctx_get(ctxt, call->name);
    b.s = blx_scope_arg(b.c, call, scope);
    b.shape = blx_shape_arg(b.c, call, uplo, diag, m, n, lda);
    blx_route_in in = {
        b.s->np,     blx_shape_bytes(&b.shape), 0, 0, b.c->nr_bs, b.c->nb_bs, &b.c->model, &b.s->trees,
        &b.s->routes};
    if (blx_route_bcast(&b.route, top ? *top : '\0', &in) != 0)
        blx_top_error(b.c, call, top);
    b.top = blx_upper(top);
    return b;
}

/* Level 3: the members of the scope agree on the broadcast first. */
static void agree(const blx_call *call, bcast_call *b, int root)
{
    const blx_shape *s = &b->shape;
    int tr = s->uplo != 'G';
    blx_agreement a = {1,
                       (long long)blx_shape_count(s),
                       s->uplo,
                       tr ? (s->unit ? 'U' : 'N') : 0,
                       tr ? s->m : 0,
                       tr ? s->n : 0,
                       b->top,
                       0,
                       root,
                       0,
                       b->top == 'M' ? b->c->nr_bs : 0,
                       b->top == 'T' ? b->c->nb_bs : 0,
                       0};
    blx_agree_collective(b->c, b->s, call, &a);
}

static void run(const blx_call *call, bcast_call *b, int root, void *A, int is_source)
{
    blx_ptr_arg(b->c, call, "A", A, blx_shape_count(&b->shape) > 0);
    int g = b->s->first + root * b->s->stride;
    blx_doing *d = blx_doing_matrix(call, b->c->handle, is_source ? 'b' : 'B', &b->shape,
                                    is_source ? -1 : g / b->c->npcol, is_source ? -1 : g % b->c->npcol);
    if (b->c->agree[b->s->id] != MPI_COMM_NULL)
        agree(call, b, root);
    int tag = blx_msgid_next_scoped(&b->c->ids, b->s->id, root);
    if (d != NULL) {
        d->scope = "RCA"[b->s->id];
        d->top = b->top;
        d->tag = tag;
    }
    blx_xfer x = {.ep = blx_scope_ep(b->c, b->s, tag, call->name),
                  .trees = &b->s->trees,
                  .routes = &b->s->routes,
                  .model = &b->c->model,
                  .root = root,
                  .bytes = blx_shape_bytes(&b->shape)};
    int packed = !blx_shape_contiguous(&b->shape);
    if (packed) {
        x.buf = blx_scratch(BLX_SCRATCH_DATA, x.bytes, b->c->handle, call->name);
        if (is_source)
            blx_pack(&b->shape, A, x.buf);
    } else {
        x.buf = A;
    }
    blx_bcast_run(&b->route, &x, is_source);
    if (packed && !is_source)
        blx_unpack(&b->shape, x.buf, A);
    blx_doing_done(d, x.bytes, b->route.topo->name);
}

void blx_bcast_send(const blx_call *call, int ctxt, const char *scope, const char *top, const char *uplo,
                    const char *diag, int64_t m, int64_t n, const void *A, int64_t lda)
{
    blx_thread_enter(ctxt, call->name);
    bcast_call b = prepare(call, ctxt, scope, top, uplo, diag, m, n, lda);
    if (b.s->np > 1)
        run(call, &b, b.s->me, (void *)A, 1); /* the source's A is only read */
    blx_thread_leave();
}

void blx_bcast_recv(const blx_call *call, int ctxt, const char *scope, const char *top, const char *uplo,
                    const char *diag, int64_t m, int64_t n, void *A, int64_t lda, int rsrc, int csrc)
{
    blx_thread_enter(ctxt, call->name);
    bcast_call b = prepare(call, ctxt, scope, top, uplo, diag, m, n, lda);
    int root = blx_member_arg(b.c, call, b.s, "RSRC", rsrc, "CSRC", csrc);
    if (root == b.s->me)
        blx_fatal(ctxt, call->name,
                  "the source {%d,%d} is this process: the source of a broadcast calls the "
                  "broadcast/send routine, the others the broadcast/receive",
                  b.c->myrow, b.c->mycol);
    run(call, &b, root, A, 0);
    blx_thread_leave();
}
