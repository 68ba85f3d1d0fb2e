/*
 * topologies/halving.h - the geometry of recursive halving (rabenseifner.c):
 * which span of the vector a place keeps at each cut, which places pair in
 * a level of g cuts at once, and how many cuts a level takes.  Index
 * arithmetic only: no messages.
 */
#ifndef BLX_HALVING_H
#define BLX_HALVING_H

#include <stddef.h>

typedef struct {
    size_t lo, hi; /* in units */
} span;

#define RADIX_MAX 8

/* The first g cuts of span s, as member me takes them: at each (mask
 * dim[j]) the member without the mask bit keeps the lower half. */
static inline span cut(span s, int me, const int *dim, int g)
{
    for (int j = 0; j < g; j++) {
        size_t mid = s.lo + (s.hi - s.lo) / 2;
        if (me & dim[j])
            s.lo = mid;
        else
            s.hi = mid;
    }
    return s;
}

/* The pieces of recursive halving: fills levels[] with the span before
 * each cut; returns the member's final span. */
static inline span halving(int me, int nlev, const int *dim, size_t n, span *levels)
{
    span s = {0, n};
    for (int k = 0; k < nlev; k++) {
        levels[k] = s;
        s = cut(s, me, dim + k, 1);
    }
    return s;
}

/* A level's cuts where r dimensions are left and a level may take gmax:
 * as few levels as gmax allows, as even as they can be (4 left at radix
 * 8: 2 and 2, not 3 and 1: the same latencies, fewer messages at once). */
static inline int balanced(int r, int gmax)
{
    int levels = (r + gmax - 1) / gmax;
    return (r + levels - 1) / levels;
}

/* log2 of a radix (0 and 2: 1; at most RADIX_MAX). */
static inline int radix_bits(int radix)
{
    int g = 1;
    while ((2 << g) <= radix && (2 << g) <= RADIX_MAX)
        g++;
    return g;
}

/* The member that differs from me in the group's dimensions by the bits of v. */
static inline int partner_of(int me, const int *dim, int g, int v)
{
    for (int j = 0; j < g; j++)
        me ^= (v >> j & 1) ? dim[j] : 0;
    return me;
}

#endif
