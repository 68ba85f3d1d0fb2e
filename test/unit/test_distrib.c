/*
 * test/unit/test_distrib.c - the block-cyclic maps of examples/distrib.c
 * against brute-force enumeration: deal the blocks out one by one and
 * compare owner, local index, inverse and local sizes for every global index,
 * for m up to 60, block sizes 1..8, 1..6 processes and every first process.
 */
#include <stdlib.h>

#include "../../examples/distrib.h"
#include "check.h"

int main(void)
{
    for (int m = 0; m <= 60; m++)
        for (int nb = 1; nb <= 8; nb++)
            for (int np = 1; np <= 6; np++)
                for (int src = 0; src < np; src++) {
                    int count[6] = {0};
                    for (int g = 0; g < m; g++) {
                        int p = (src + g / nb) % np; /* the deal, block by block */
                        int l = count[p]++;
                        CHECK(bc_g2p(g, nb, src, np) == p, "g2p m=%d nb=%d np=%d src=%d g=%d", m, nb, np, src,
                              g);
                        CHECK(bc_g2l(g, nb, np) == l, "g2l m=%d nb=%d np=%d g=%d: %d, want %d", m, nb, np, g,
                              bc_g2l(g, nb, np), l);
                        CHECK(bc_l2g(l, nb, p, src, np) == g, "l2g nb=%d np=%d src=%d p=%d l=%d", nb, np, src,
                              p, l);
                        CHECK(bc_first_local(g, nb, p, src, np) == l, "first_local g=%d", g);
                    }
                    int total = 0;
                    for (int p = 0; p < np; p++) {
                        CHECK(bc_numroc(m, nb, p, src, np) == count[p],
                              "numroc m=%d nb=%d p=%d src=%d np=%d: %d, want %d", m, nb, p, src, np,
                              bc_numroc(m, nb, p, src, np), count[p]);
                        total += bc_numroc(m, nb, p, src, np);
                    }
                    CHECK(total == m, "numroc m=%d nb=%d src=%d over %d processes adds up to %d", m, nb, src,
                          np, total);
                }
    printf("test_distrib: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
