/*
 * topologies/mpi.c - MPI's own collectives: the operation handed whole to
 * MPI_Bcast, MPI_Reduce or MPI_Allreduce on the scope's own communicator.
 * No TOP letter: the default ' ' runs it where a tuning file measured it
 * faster than its own best (model.h: blx_mpi_costs), and BLACS_ALGORITHM
 * can force it ("allreduce=mpi").
 *
 * Why: on some machines MPI reaches hardware that point-to-point messages
 * cannot (single-copy shared memory, network offload, collectives in the
 * switches), and its tuned algorithms may beat ours there.  Nothing in the
 * alpha-beta model predicts that, so its cost is not modelled but measured
 * (blacs-tune): its time over the default's best, for a few shapes of
 * scope and message sizes, and the default's best times that ratio is its
 * modelled time.
 *
 *   cost: ratio(shape, n) x the default's best at that size (measured);
 *         a member that gets the result first copies its contribution
 *
 * Where it can run (blx_route_in.mpi, blacs/): a broadcast always (MPI_BYTE);
 * a combine only where MPI has the operation built in: a sum of blacs_int,
 * float or double elements (complex ones as pairs of reals, which MPI_SUM
 * adds component by component as ours does), no user operation, no
 * absolute maximum or minimum (MPI's MAX is not BLACS's |x| with the
 * signed value and the location).  A part of a scope (two levels) has no
 * communicator of its own and never runs it.
 *
 * What MPI promises, and what the library adds:
 * - coherence: MPI requires every member of MPI_Allreduce to receive
 *   identical results (MPI-1.1 section 4.9.5 on); at BLACS_DEBUG=3 every
 *   combine to all is checked for it anyway (blacs/combine.c);
 * - repeatability: MPI only recommends that a reduction of the same
 *   arguments in the same order give the same result ("advice to
 *   implementors", MPI_REDUCE); so with BLACS_SET 15 (repeatable combines)
 *   the default never weighs it;
 * - sizes: MPI makes members passing different counts erroneous and
 *   checks nothing, where our own algorithms find it at the receive; at
 *   BLACS_DEBUG=3 the agreement check before every collective names it.
 */
#include <math.h>
#include <string.h>

#include "topology.h"

static void bcast(const blx_xfer *x) { blx_mpi_bcast(&x->ep, x->buf, x->in.bytes, x->root); }

/* A member that gets the result sends a copy of its contribution (never
 * MPI_IN_PLACE: buffers/bytes.h); the others send theirs as it is (a
 * read-only one too: it is only read). */
static void combine(const blx_xfer *x)
{
    int root = x->in.leave_on_all ? -1 : x->root;
    const char *in = x->buf;
    if (root < 0 || x->ep.me == root) {
        char *copy = blx_scratch(BLX_SCRATCH_TMP, x->in.bytes, x->ep.ctxt, x->ep.routine);
        memcpy(copy, x->buf, x->in.bytes);
        in = copy;
    }
    blx_mpi_reduce(&x->ep, in, x->buf, x->in.bytes, x->mtype, x->mop, root);
}

static int applies(const blx_route_in *in, blx_coll op)
{
    (void)op;
    return in == NULL || in->mpi;
}

/* The measured ratio times ours, the default's best (header): not
 * weighed where nothing was measured; never chosen with nothing to weigh
 * it against (no row before it: it is the table's last). */
static double price(const blx_route *r, const blx_route_in *in, blx_coll op, double ours, blx_part_cost part)
{
    (void)r, (void)part;
    double ratio = blx_mpi_ratio(in->mpi_costs, op, in->np, in->nodes != NULL ? in->nodes->nn : 1, in->bytes);
    return ours < 0 ? BLX_NEVER : ratio > 0 ? ours * ratio : BLX_UNPRICED;
}

/* The measured ratio (model.h). */
double blx_mpi_ratio(const blx_mpi_costs *t, int op, int np, int nn, size_t bytes)
{
    const blx_mpi_shape *best = NULL;
    double far = 0;
    for (int i = 0; t != NULL && i < t->n; i++) {
        const blx_mpi_shape *s = &t->shape[i];
        if (s->op != op || (s->nn == 1) != (nn == 1))
            continue;
        double d = fabs(log2((double)np / s->np)) +
                   fabs(log2((double)(np + nn - 1) / nn / ((double)(s->np + s->nn - 1) / s->nn)));
        if (best == NULL || d < far)
            best = s, far = d;
    }
    if (best == NULL)
        return -1;
    double x = log2(bytes > 0 ? (double)bytes : 1);
    int j = 0;
    while (j < best->k && log2(best->bytes[j]) < x)
        j++;
    if (j == 0 || j == best->k)
        return best->ratio[j == 0 ? 0 : best->k - 1];
    double x0 = log2(best->bytes[j - 1]), x1 = log2(best->bytes[j]);
    return best->ratio[j - 1] + (best->ratio[j] - best->ratio[j - 1]) * (x - x0) / (x1 - x0);
}

const blx_algorithm blx_alg_mpi = {
    .name = "mpi",
    .keys = "",
    .title = "MPI's own collective",
    .description =
        "MPI_Bcast, MPI_Reduce or MPI_Allreduce (sums of MPI's types) on the scope's communicator, "
        "where a tuning file measured it faster",
    .bcast = bcast,
    .combine = combine,
    .applies = applies,
    .price = price,
    .flags = BLX_ALG_MPI | BLX_ALG_COHERENT,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE, [BLX_REDUCE] = BLX_WEIGH_ONCE, [BLX_ALLREDUCE] = BLX_WEIGH_ONCE},
};
