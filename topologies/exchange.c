/*
 * topologies/exchange.c - what the exchange-based combines (hypercube.c's
 * bidirectional exchange, rabenseifner.c) share: the fold of a
 * non-power-of-two scope onto a power of two, and a combine's own copy of a
 * read-only contribution.
 *
 * With p the largest power of two <= np, np - p members give their vectors
 * to partners, which fold them into their own and take part in the
 * exchange for both; for leave-on-all, the partners hand the result back
 * afterwards.  With no plan, member p + i (relative to the root) folds into
 * member i.  np = 6 (p = 4):
 *
 *   fold in:   4 -> 0, 5 -> 1      (alpha + n beta + n gamma)
 *   exchange among 0..3
 *   fold out:  0 -> 4, 1 -> 5      (alpha + n beta, leave-on-all)
 *
 * A plan (blx_fold_plan) on a scope over nodes folds a member into one on
 * its own node, from the last members back, as MPICH and Open MPI fold
 * neighbours: over 33 nodes of 2 by node, 65 -> 64 and 63 -> 62 on their
 * nodes, where 64 -> 0 and 65 -> 1 would send two whole vectors through
 * one card and back.  The exchange's places 0..p-1 are the members that
 * stay, in their order, so its first dimensions still pair members of a
 * node (rabenseifner.c).  Members that no node partner is left for fold as
 * without a plan, onto the first that stay.
 */
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* The order of the halving's dimensions, the masks below p (p = 2^nlev):
 * from the highest, as Rabenseifner's; on a scope over nodes, first those
 * whose pairs share a node, then those that cross between nodes, each from
 * the highest (nodes.h).  The first levels move the largest halves, so on
 * the node they stay (on the memory, not the card), and only the last and
 * smallest pieces cross the card: placed by node, the nearest partner
 * first, as MPICH's halving; round robin the farthest first, as before.  The
 * dimensions a member's partners follow are the same for every member, so
 * the pairs match whatever the order.  With a fold's plan, the places'
 * pairs (at: blx_fold.rel). */
int blx_halving_order(const blx_nodes *n, int root, int p, const int *at, int dim[32])
{
    int cross = n != NULL ? blx_nodes_cross_from(n, root, p, at) : 0, k = 0, near = 0;
    for (int crossing = 0; crossing <= 1; crossing++)
        for (int mask = p >> 1; mask >= 1; mask >>= 1)
            if (((cross & mask) != 0) == crossing)
                dim[k++] = mask, near += !crossing;
    return near;
}

void blx_xfer_own(blx_xfer *x)
{
    char *w = blx_scratch(BLX_SCRATCH_DATA, x->in.bytes, x->ep.ctxt, x->ep.routine);
    memcpy(w, x->buf, x->in.bytes);
    x->buf = w;
    x->readonly = 0;
}

int blx_fold_plan(blx_fold *f, const blx_nodes *n, int root, int np)
{
    int p = blx_pof2_floor(np, NULL), found = 0, *mem = calloc(4 * (size_t)np, sizeof *mem);
    if (mem == NULL)
        return -1;
    /* role: 0 stays, 1 folds (into member to[k]), 2 stays and takes a vector;
     * below[k]: the member before k on k's node (last[j]: node j's so far) */
    int *role = mem + 3 * np, *to = mem + np, *below = mem + 2 * np, *last = mem;
    *f = (blx_fold){p, mem, mem + np, mem + 2 * np}; /* rel, place, pair: written last */
    n = blx_nodes_spanned(n, np);
    for (int j = 0; n != NULL && j < n->nn; j++)
        last[j] = -1;
    for (int k = 0; n != NULL && k < np; k++) {
        int j = n->node[(k + root) % np];
        below[k] = last[j], last[j] = k;
    }
    /* from the last member back: a member not yet taken has every member
     * below it on its node free (each taken one went with a higher one) */
    for (int k = np - 1; n != NULL && k > 0 && found < np - p; k--)
        if (role[k] == 0 && below[k] >= 0)
            role[k] = 1, role[below[k]] = 2, to[k] = below[k], found++;
    for (int k = np - 1, low = 0; found < np - p; k--) /* the rest onto the first that stay */
        if (role[k] == 0) {
            while (role[low] != 0)
                low++;
            role[k] = 1, role[low] = 2, to[k] = low, found++;
        }
    for (int k = 0, v = 0; k < np; k++)
        if (role[k] != 1)
            f->rel[v] = k, f->place[k] = v, f->pair[v++] = -1;
    for (int k = 0, v = p; k < np; k++)
        if (role[k] == 1) {
            int w = f->place[to[k]]; /* the partner's place */
            f->rel[v] = k, f->place[k] = v, f->pair[v] = w, f->pair[w] = v++;
        }
    return 0;
}

void blx_fold_free(blx_fold *f) { free(f->rel); }

/* Without a plan: member p + i folds into member i. */
static int pair_of(const blx_fold *f, int np, int p, int v)
{
    return f != NULL ? f->pair[v] : v >= p ? v - p : v < np - p ? v + p : -1;
}

static unsigned long planned;

unsigned long blx_fold_planned(void) { return planned; }

int blx_fold_in(const blx_xfer *x, const blx_fold *f, char *tmp, int *pp)
{
    const blx_ep *e = &x->ep;
    int p = blx_pof2_floor(e->np, NULL), v = blx_fold_place(f, blx_xfer_rel(x)), w = pair_of(f, e->np, p, v);
    *pp = p;
    if (w < 0)
        return 1;
    int peer = blx_xfer_member(x, blx_fold_rel(f, w));
    if (v >= p) { /* give my vector away; for leave-on-all, wait for the answer */
        planned += f != NULL;
        blx_send(e, x->buf, x->in.bytes, peer);
        if (x->in.leave_on_all)
            blx_recv(e, x->buf, x->in.bytes, peer);
        return 0;
    }
    blx_recv(e, tmp, x->in.bytes, peer);
    x->merge(x->op, x->buf, tmp, x->in.bytes, 0);
    return 1;
}

void blx_fold_out(const blx_xfer *x, const blx_fold *f, int p)
{
    int v = blx_fold_place(f, blx_xfer_rel(x)), w = pair_of(f, x->ep.np, p, v);
    if (x->in.leave_on_all && v < p && w >= 0)
        blx_send(&x->ep, x->buf, x->in.bytes, blx_xfer_member(x, blx_fold_rel(f, w)));
}
