/*
 * test/unit/test_nodes.c - a lettered TOP's shape on a scope over nodes:
 * the bits that cross nodes (blx_nodes.cross), the hypercube's dimensions
 * in their order (topologies/hypercube.c), and the registry handing them
 * to 'H' broadcasts only.
 *
 *   cross:      by node, the bits of a node's size and above; round robin,
 *               the bits below the number of nodes; uneven nodes, the bits
 *               whose pairs are mostly apart (counted by hand below)
 *   hypercube:  for every power of two up to 64 and every set of crossing
 *               bits, a spanning tree of hypercube edges (parent XOR child
 *               a power of two), LAWN 73's steps (2^(i-1) sends in step i,
 *               the source sends log2 np), the crossing dimensions first,
 *               then the others, each lowest first; with none, or with the
 *               low ones crossing, the tree of LAWN 73 (0 sends to 1 first)
 *   the point:  64 processes on 4 nodes of 16, placed by node: in no step
 *               does a node's card carry more than one message, where the
 *               tree without the nodes' order makes 16 cross at once
 */
#include <stdlib.h>
#include <string.h>

#include "../../topologies/topology.h"
#include "check.h"

static blx_nodes *nodes_of(int np, const int *id)
{
    int rank[64];
    for (int k = 0; k < np; k++)
        rank[k] = k;
    blx_model m = blx_model_default();
    return blx_nodes_build(np, id, rank, &m, &m);
}

static void check_cross(void)
{
    int id[64];
    for (int k = 0; k < 64; k++)
        id[k] = k / 16;
    blx_nodes *n = nodes_of(64, id);
    CHECK(n && n->cross == (16 | 32), "64 by node, 16 a node: crossing bits %#x, expected 0x30",
          n ? n->cross : -1);
    blx_nodes_free(n);
    for (int k = 0; k < 64; k++)
        id[k] = k % 4;
    n = nodes_of(64, id);
    CHECK(n && n->cross == (1 | 2), "64 round robin on 4 nodes: crossing bits %#x, expected 0x3",
          n ? n->cross : -1);
    blx_nodes_free(n);
    /* nodes 0 0 0 1 1 2: bit 1 parts 2|3, 3|2, 4|5, 5|4 of its 6 pairs; bit 2
     * parts 1|3 and 3|1 of 4 (not most); bit 4 parts all 4 */
    int uneven[6] = {7, 7, 7, 3, 3, 9};
    n = nodes_of(6, uneven);
    CHECK(n && n->cross == (1 | 4), "nodes 0 0 0 1 1 2: crossing bits %#x, expected 0x5", n ? n->cross : -1);
    blx_nodes_free(n);
    int one[8] = {0};
    n = nodes_of(8, one);
    CHECK(n && n->cross == 0, "one node: crossing bits %#x", n ? n->cross : -1);
    blx_nodes_free(n);
}

/* The dimension tree node r received on (its parent's XOR), or 0. */
static int dim_of(const blx_tree *t, int r) { return r == 0 ? 0 : r ^ t->parent[r]; }

static void check_hypercube(int np, int cross)
{
    blx_tree *t = blx_tree_build(np, blx_alg_hypercube.tree, 'H', cross);
    if (!t) {
        CHECK(0, "hypercube np=%d cross %#x: not a spanning tree", np, cross);
        return;
    }
    int lg = 0, want[32], d = 0;
    while ((1 << lg) < np)
        lg++;
    for (int b = 1; b < np; b <<= 1)
        if (cross & b)
            want[d++] = b;
    for (int b = 1; b < np; b <<= 1)
        if (!(cross & b))
            want[d++] = b;
    CHECK(t->nsteps == lg && blx_tree_nkids(t, 0) == lg, "H np=%d cross %#x: %d steps, source sends %d", np,
          cross, t->nsteps, blx_tree_nkids(t, 0));
    int sends[32] = {0};
    for (int r = 1; r < np; r++) {
        int b = dim_of(t, r);
        CHECK(b > 0 && (b & (b - 1)) == 0, "H np=%d cross %#x: %d -> %d is not a hypercube edge", np, cross,
              t->parent[r], r);
        CHECK(t->step[r] >= 1 && t->step[r] <= lg && want[t->step[r] - 1] == b,
              "H np=%d cross %#x: %d got it along dimension %d at step %d", np, cross, r, b, t->step[r]);
        if (t->step[r] >= 1 && t->step[r] <= lg)
            sends[t->step[r]]++;
    }
    for (int s = 1; s <= lg; s++)
        CHECK(sends[s] == 1 << (s - 1), "H np=%d cross %#x: %d sends in step %d", np, cross, sends[s], s);
    if (np > 1)
        CHECK(blx_tree_kids(t, 0)[0] == want[0], "H np=%d cross %#x: the source sends along %d first", np,
              cross, blx_tree_kids(t, 0)[0]);
    if (np > 1 && (cross & (cross + 1)) == 0) /* no crossing bit above one that does not cross */
        CHECK(blx_tree_kids(t, 0)[0] == 1 && t->parent[np - 1] == np / 2 - 1,
              "H np=%d cross %#x: not LAWN 73's tree", np, cross);
    blx_tree_free(t);
}

/* Messages through the busiest card in the busiest step: a node's card
 * carries every edge of the step that leaves its node. */
static int card_load(const blx_tree *t, const int *node)
{
    int most = 0;
    for (int s = 1; s <= t->nsteps; s++) {
        int out[64] = {0};
        for (int r = 1; r < t->np; r++)
            if (t->step[r] == s && node[t->parent[r]] != node[r] && ++out[node[t->parent[r]]] > most)
                most = out[node[t->parent[r]]];
    }
    return most;
}

static void check_card_load(void)
{
    int id[64];
    for (int k = 0; k < 64; k++)
        id[k] = k / 16;
    blx_nodes *n = nodes_of(64, id);
    if (!n)
        return;
    blx_tree *lawn = blx_tree_build(64, blx_alg_hypercube.tree, 'H', 0),
             *ours = blx_tree_build(64, blx_alg_hypercube.tree, 'H', n->cross);
    CHECK(lawn && card_load(lawn, n->node) == 16,
          "64 by node, LAWN 73's order: %d messages on one card at once",
          lawn ? card_load(lawn, n->node) : -1);
    CHECK(ours && card_load(ours, n->node) == 1,
          "64 by node, the nodes' order: %d messages on one card at once",
          ours ? card_load(ours, n->node) : -1);
    blx_tree_free(lawn);
    blx_tree_free(ours);
    blx_nodes_free(n);
}

/* 'H' broadcasts take the scope's crossing bits as their number; its
 * combines, and a scope on one node or without nodes, take 0. */
static void check_route(void)
{
    int id[8] = {0, 0, 0, 0, 1, 1, 1, 1}, same[8] = {0};
    blx_nodes *two = nodes_of(8, id), *one = nodes_of(8, same);
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route_in in = {
        .np = 8, .bytes = 1 << 20, .leave_on_all = 1, .splittable = 1, .model = &m, .trees = &trees};
    blx_route r;
    const blx_nodes *cases[3] = {two, one, NULL};
    int want[3] = {4, 0, 0};
    for (int i = 0; i < 3; i++) {
        in.nodes = cases[i];
        CHECK(blx_route_bcast(&r, 'H', &in) == 0 && r.alg == &blx_alg_hypercube && r.param == want[i],
              "broadcast 'H', case %d: %s, number %d, expected %d", i, r.alg->name, r.param, want[i]);
        CHECK(blx_route_combine(&r, 'H', &in) == 0 && r.alg == &blx_alg_hypercube && r.param == 0,
              "combine 'H', case %d: number %d", i, r.param);
    }
    in.np = 6; /* not a power of two: the 1-tree, whatever the nodes */
    in.nodes = NULL;
    CHECK(blx_route_bcast(&r, 'H', &in) == 0 && r.alg == &blx_alg_general_tree && r.param == 1,
          "broadcast 'H' on 6: %s, number %d", r.alg->name, r.param);
    blx_tree_cache_free(&trees);
    blx_nodes_free(two);
    blx_nodes_free(one);
}

int main(void)
{
    check_cross();
    for (int np = 1; np <= 64; np *= 2)
        for (int cross = 0; cross < np; cross++)
            check_hypercube(np, cross);
    check_card_load();
    check_route();
    printf("test_nodes: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
