/*
 * msgid/msgid.c - message IDs from counters (LAWN 73 section 6.1); see msgid.h.
 */
#include "msgid.h"

#include <stdlib.h>
#include <string.h>

/* A kind of traffic gets 'total' IDs for 'members' sources or roots: its own
 * subrange each if there is room, else one subrange they share. */
static void split(long long total, long long members, int *span, int *stride)
{
    long long each = total / members;
    if (each >= 1) {
        *span = (int)each;
        *stride = (int)each;
    } else {
        *span = (int)total;
        *stride = 0;
    }
}

int blx_idlayout_init(blx_idlayout *L, int lo, int hi, int nprow, int npcol)
{
    if (nprow < 1 || npcol < 1 || lo < 0 || hi < lo)
        return -1;
    long long total = (long long)hi - lo + 1;
    if (total < BLX_MSGID_MIN_RANGE)
        return -1;

    long long ng = (long long)nprow * npcol;
    long long p2p_total = total / 2;
    long long per_scope = (total - p2p_total) / 3;
    const long long members[BLX_NSCOPE] = {npcol, nprow, ng};

    memset(L, 0, sizeof *L);
    L->p2p_base = lo;
    split(p2p_total, ng, &L->p2p_span, &L->p2p_stride);
    for (int s = 0; s < BLX_NSCOPE; s++) {
        L->scope_base[s] = (int)(lo + p2p_total + s * per_scope);
        split(per_scope, members[s], &L->scope_span[s], &L->scope_stride[s]);
    }
    return 0;
}

int blx_msgid_p2p(const blx_idlayout *L, int src_vpid, unsigned count)
{
    return L->p2p_base + src_vpid * L->p2p_stride + (int)(count % (unsigned)L->p2p_span);
}

int blx_msgid_scoped(const blx_idlayout *L, int scope, int root, unsigned count)
{
    return L->scope_base[scope] + root * L->scope_stride[scope] +
           (int)(count % (unsigned)L->scope_span[scope]);
}

int blx_msgids_init(blx_msgids *M, int lo, int hi, int nprow, int npcol)
{
    memset(M, 0, sizeof *M);
    if (blx_idlayout_init(&M->layout, lo, hi, nprow, npcol) != 0)
        return -1;
    M->ng = nprow * npcol;
    M->scope_size[BLX_SCOPE_ROW] = npcol;
    M->scope_size[BLX_SCOPE_COL] = nprow;
    M->scope_size[BLX_SCOPE_ALL] = M->ng;

    /* One allocation for every counter vector. */
    size_t n = 2 * (size_t)M->ng;
    for (int s = 0; s < BLX_NSCOPE; s++)
        n += (size_t)M->scope_size[s];
    unsigned *all = calloc(n, sizeof *all);
    if (all == NULL)
        return -2;
    M->snd = all;
    M->rcv = all + M->ng;
    unsigned *p = all + 2 * (size_t)M->ng;
    for (int s = 0; s < BLX_NSCOPE; s++) {
        M->scoped[s] = p;
        p += M->scope_size[s];
    }
    return 0;
}

void blx_msgids_free(blx_msgids *M)
{
    free(M->snd);
    memset(M, 0, sizeof *M);
}

int blx_msgid_next_send(blx_msgids *M, int src_vpid, int dest_vpid)
{
    return blx_msgid_p2p(&M->layout, src_vpid, M->snd[dest_vpid]++);
}

int blx_msgid_next_recv(blx_msgids *M, int src_vpid)
{
    return blx_msgid_p2p(&M->layout, src_vpid, M->rcv[src_vpid]++);
}

int blx_msgid_peek_recv(const blx_msgids *M, int src_vpid)
{
    return blx_msgid_p2p(&M->layout, src_vpid, M->rcv[src_vpid]);
}

int blx_msgid_next_scoped(blx_msgids *M, int scope, int root)
{
    return blx_msgid_scoped(&M->layout, scope, root, M->scoped[scope][root]++);
}
