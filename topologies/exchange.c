/*
 * topologies/exchange.c - what the exchange-based combines (hypercube.c's
 * bidirectional exchange, rabenseifner.c) share: the fold of a
 * non-power-of-two scope onto a power of two, and a combine's own copy of a
 * read-only contribution.
 *
 * With p the largest power of two <= np, member p + i (relative to the
 * root) gives its vector to member i, which folds it into its own and takes
 * part in the exchange for both; for leave-on-all, member i hands the
 * result back afterwards.  np = 6 (p = 4):
 *
 *   fold in:   4 -> 0, 5 -> 1      (alpha + n beta + n gamma)
 *   exchange among 0..3
 *   fold out:  0 -> 4, 1 -> 5      (alpha + n beta, leave-on-all)
 */
#include <string.h>

#include "topology.h"

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->in.bytes, x->ep.ctxt, x->ep.routine);
    memcpy(w, x->buf, x->in.bytes);
    x->buf = w;
    x->readonly = 0;
}

int blx_fold_in(const blx_xfer *x, char *tmp, int *pp)
{
    const blx_ep *e = &x->ep;
    int me = blx_xfer_rel(x), p = blx_pof2_floor(e->np, NULL);
    *pp = p;
    if (me >= p) { /* give my vector away; for leave-on-all, wait for the answer */
        blx_send(e, x->buf, x->in.bytes, blx_xfer_member(x, me - p));
        if (x->in.leave_on_all)
            blx_recv(e, x->buf, x->in.bytes, blx_xfer_member(x, me - p));
        return 0;
    }
    if (me < e->np - p) {
        blx_recv(e, tmp, x->in.bytes, blx_xfer_member(x, me + p));
        x->merge(x->op, x->buf, tmp, x->in.bytes, 0);
    }
    return 1;
}

void blx_fold_out(const blx_xfer *x, int p)
{
    int me = blx_xfer_rel(x);
    if (x->in.leave_on_all && me < x->ep.np - p)
        blx_send(&x->ep, x->buf, x->in.bytes, blx_xfer_member(x, me + p));
}
