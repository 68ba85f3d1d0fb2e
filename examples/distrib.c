/*
 * examples/distrib.c - block-cyclic index maps; see distrib.h.
 */
#include "distrib.h"

int bc_numroc(int m, int nb, int p, int src, int nprocs)
{
    int dist = (p - src + nprocs) % nprocs; /* p's position in the deal */
    int nblocks = m / nb;                   /* whole blocks */
    int n = (nblocks / nprocs) * nb;        /* whole rounds */
    int extra = nblocks % nprocs;
    if (dist < extra)
        n += nb; /* one more whole block */
    else if (dist == extra)
        n += m % nb; /* the short last block */
    return n;
}

int bc_g2p(int g, int nb, int src, int nprocs) { return (src + g / nb) % nprocs; }

int bc_g2l(int g, int nb, int nprocs) { return (g / (nb * nprocs)) * nb + g % nb; }

int bc_l2g(int l, int nb, int p, int src, int nprocs)
{
    int dist = (p - src + nprocs) % nprocs;
    return (l / nb) * nb * nprocs + dist * nb + l % nb;
}

int bc_first_local(int g, int nb, int p, int src, int nprocs) { return bc_numroc(g, nb, p, src, nprocs); }
