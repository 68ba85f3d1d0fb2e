/*
 * examples/distrib.h - the block-cyclic data distribution of ScaLAPACK.
 *
 * M coefficients (rows or columns of a matrix) are cut into blocks of NB
 * and dealt round-robin to P processes, starting with process SRC: global
 * block b lives on process (SRC + b) mod P.  This is the Multicomputer
 * Toolbox's block-scatter distribution (Skjellum and Baldwin, section 4.3,
 * Definition 4.7), extended, as ScaLAPACK does, to a last block shorter than
 * NB and to a first block on any process.
 *
 *   global 0 1 2 3 | 4 5 6 7 | 8 9 10 11 | 12 13      (NB = 4, P = 2, SRC = 0)
 *   owner    p0    |   p1    |    p0     |  p1
 *   local  0 1 2 3 | 0 1 2 3 | 4 5  6  7 |  4  5
 *
 * All indices are 0-based (ScaLAPACK's are 1-based).
 */
#ifndef DISTRIB_H
#define DISTRIB_H

/* How many of the m coefficients process p holds (ScaLAPACK NUMROC). */
int bc_numroc(int m, int nb, int p, int src, int nprocs);
/* Process that holds global coefficient g (INDXG2P). */
int bc_g2p(int g, int nb, int src, int nprocs);
/* Local index of global coefficient g on its process (INDXG2L). */
int bc_g2l(int g, int nb, int nprocs);
/* Global index of local coefficient l of process p (INDXL2G). */
int bc_l2g(int l, int nb, int p, int src, int nprocs);
/* Local coefficients of process p with global index < g: where a loop over
 * global indices >= g starts locally. */
int bc_first_local(int g, int nb, int p, int src, int nprocs);

#endif
