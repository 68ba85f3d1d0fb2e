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
 *   halving:    recursive halving's dimensions (rabenseifner.c), the bits
 *               inside a node first, numbered from the operation's root;
 *               the card sends 1/16 of what it sends farthest first
 *   ring plan:  a lettered ring 'I' or 'D' of 1 MiB on 8 members goes
 *               whole on one node (or nodes unknown), in pieces over two
 *               nodes and where the default chose the ring (ring.c); a
 *               lettered split ring 'S' whole where two of its members
 *               share a node (over two nodes of 4, on one, nodes unknown),
 *               in pieces over 8 nodes of one member, 1 MiB or 64 KiB
 *               (split_ring.c); whole under a network link's window, 1 KiB
 *               to both of the source's children at once, 1 MiB to one
 *               after the other
 *   fold:       a non-power-of-two scope's fold (exchange.c): without
 *               nodes the last members onto the first; over nodes into a member
 *               of its own node wherever one is left (33 nodes of 2 by
 *               node: 65 -> 64, 63 -> 62, the halving's first level still
 *               on the nodes); for any nodes and root a plan whose places
 *               are a permutation, the root at place 0, pairs both ways
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

/* Bytes a node's card sends in recursive halving of n bytes on the nodes n,
 * dimensions in the order dim: at level k every member whose partner is on
 * another node sends n / 2^(k+1).  The most of any node. */
static double halving_card(const blx_nodes *n, int p, const int *dim, double bytes)
{
    double most = 0;
    for (int j = 0; j < n->nn; j++) {
        double sent = 0;
        for (int k = 0, half = 2; (1 << k) < p; k++, half *= 2)
            for (int m = 0; m < p; m++)
                sent += n->node[m] == j && n->node[m ^ dim[k]] != j ? bytes / half : 0;
        most = sent > most ? sent : most;
    }
    return most;
}

/* Recursive halving's dimensions (rabenseifner.c): every mask once; with no
 * nodes, or round robin (the high bits share a node), from the highest as
 * before; by node, the bits inside a node first; from another root, the
 * bits of the members numbered from it.  The point: 64 by node, 16 a node,
 * a node's card sends 3/4 of the vector, farthest first 12 times it. */
static void check_halving(void)
{
    int dim[32], id[64];
    CHECK(blx_halving_order(NULL, 0, 8, NULL, dim) == 3 && dim[0] == 4 && dim[1] == 2 && dim[2] == 1,
          "halving, no nodes: %d %d %d, expected 4 2 1, all three alike", dim[0], dim[1], dim[2]);
    for (int k = 0; k < 64; k++)
        id[k] = k / 16;
    blx_nodes *n = nodes_of(64, id);
    int bynode[6] = {8, 4, 2, 1, 32, 16}, lawn[6] = {32, 16, 8, 4, 2, 1};
    int near = blx_halving_order(n, 0, 64, NULL, dim);
    CHECK(n && memcmp(dim, bynode, sizeof bynode) == 0 && near == 4,
          "halving, 64 by node: %d %d %d %d %d %d, %d on the node", dim[0], dim[1], dim[2], dim[3], dim[4],
          dim[5], near);
    CHECK(n && halving_card(n, 64, dim, 1.0) == 0.75 && halving_card(n, 64, lawn, 1.0) == 12.0,
          "halving, 64 by node: a card sends %g of the vector, farthest first %g",
          halving_card(n, 64, dim, 1.0), halving_card(n, 64, lawn, 1.0));
    blx_nodes_free(n);
    for (int k = 0; k < 64; k++)
        id[k] = k % 4;
    n = nodes_of(64, id);
    blx_halving_order(n, 0, 64, NULL, dim);
    CHECK(n && memcmp(dim, lawn, sizeof lawn) == 0, "halving, 64 round robin on 4: %d %d %d %d %d %d", dim[0],
          dim[1], dim[2], dim[3], dim[4], dim[5]);
    blx_nodes_free(n);
    /* 8 on two nodes of 4 by node, from member 2: members 2 3 4 5 6 7 0 1,
     * so only bit 1 keeps pairs on a node; from member 0, bits 1 and 2 */
    int two[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    n = nodes_of(8, two);
    near = blx_halving_order(n, 2, 8, NULL, dim);
    CHECK(n && dim[0] == 1 && dim[1] == 4 && dim[2] == 2 && near == 1,
          "halving, 8 on 2 nodes from 2: %d %d %d, expected 1 4 2", dim[0], dim[1], dim[2]);
    blx_halving_order(n, 0, 8, NULL, dim);
    CHECK(n && dim[0] == 2 && dim[1] == 1 && dim[2] == 4,
          "halving, 8 on 2 nodes from 0: %d %d %d, expected 2 1 4", dim[0], dim[1], dim[2]);
    blx_halving_order(n, 0, 4, NULL, dim); /* the first 4 (a non-power-of-two scope's halving) share a node */
    CHECK(n && dim[0] == 2 && dim[1] == 1, "halving, 4 of 8 from 0: %d %d, expected 2 1", dim[0], dim[1]);
    blx_nodes_free(n);
    for (int np = 2; np <= 64; np *= 2) /* any nodes: a permutation of the masks */
        for (int seed = 0; seed < 20; seed++) {
            for (int k = 0; k < np; k++)
                id[k] = (k * 7 + seed * (k / 3)) % (seed % 5 + 1);
            n = nodes_of(np, id);
            if (!n)
                continue;
            blx_halving_order(n, seed % np, np, NULL, dim);
            int all = 0, ok = 1;
            for (int k = 0; (1 << k) < np; k++) {
                ok &= dim[k] > 0 && (dim[k] & (dim[k] - 1)) == 0 && dim[k] < np && !(all & dim[k]);
                all |= dim[k];
            }
            CHECK(ok && all == np - 1, "halving, np %d seed %d: not every mask once", np, seed);
            blx_nodes_free(n);
        }
}

/* A fold's plan (f) is whole: places a permutation of the members, the
 * root's place 0, every place from p folding into one below p that knows
 * it; returns how many fold into a member of another node. */
static int fold_apart(const blx_nodes *n, int root, int np, const blx_fold *f)
{
    int ok = f->p <= np && 2 * f->p > np && f->rel[0] == 0, apart = 0;
    for (int v = 0; v < np; v++) {
        int w = f->pair[v];
        ok &= f->rel[v] >= 0 && f->rel[v] < np && f->place[f->rel[v]] == v;
        ok &= v < f->p ? w < 0 || (w >= f->p && f->pair[w] == v) : w >= 0 && w < f->p && f->pair[w] == v;
        if (v >= f->p && ok)
            apart += n->node[(f->rel[v] + root) % np] != n->node[(f->rel[w] + root) % np];
    }
    return ok ? apart : -1;
}

static void check_fold(void)
{
    blx_fold f;
    CHECK(blx_fold_plan(&f, NULL, 0, 6) == 0, "fold of 6: out of memory");
    CHECK(f.p == 4 && f.rel[4] == 4 && f.rel[5] == 5 && f.pair[4] == 1 && f.pair[5] == 0 && f.pair[0] == 5 &&
              f.pair[1] == 4 && f.pair[2] == -1 && f.pair[3] == -1,
          "fold of 6, no nodes: pairs %d %d, expected 5 -> 0, 4 -> 1", f.pair[5], f.pair[4]);
    blx_fold_free(&f);
    int id[66];
    for (int k = 0; k < 66; k++)
        id[k] = k / 2;
    blx_nodes *n = nodes_of(66, id);
    CHECK(n && blx_fold_plan(&f, n, 0, 66) == 0, "fold of 33 nodes of 2: no plan");
    if (n) {
        CHECK(f.rel[62] == 62 && f.rel[63] == 64 && f.rel[64] == 63 && f.rel[65] == 65 && f.pair[64] == 62 &&
                  f.pair[65] == 63 && fold_apart(n, 0, 66, &f) == 0,
              "fold of 33 nodes of 2: places 62-65 hold %d %d %d %d, expected 62 64 63 65", f.rel[62],
              f.rel[63], f.rel[64], f.rel[65]);
        int dim[32], near = blx_halving_order(n, 0, 64, f.rel, dim);
        CHECK(near == 1 && dim[0] == 1, "fold of 33 nodes of 2: halving from %d, %d on the nodes", dim[0],
              near);
        blx_fold_free(&f);
        blx_nodes_free(n);
    }
    for (int np = 3; np <= 64; np++) /* any nodes, any root; one a node: no partner, the plain fold */
        for (int seed = 0; seed < 6; seed++) {
            for (int k = 0; k < np; k++)
                id[k] = seed == 5 ? k : (k * 7 + seed * (k / 3)) % (seed + 2);
            n = nodes_of(np, id);
            if (!n || blx_fold_plan(&f, n, seed % np, np) != 0)
                continue;
            int apart = fold_apart(n, seed % np, np, &f);
            CHECK(apart >= 0 && (seed < 5 || apart == np - f.p),
                  "fold of %d, seed %d: plan broken (%d apart)", np, seed, apart);
            blx_fold_free(&f);
            blx_nodes_free(n);
        }
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

/* A lettered ring's plan (ring.c): whole on one node, or where the nodes
 * are not known, or up to 64 KiB; pieces for 1 MiB across nodes, and for
 * the default's own choice. */
static void check_ring_plan(void)
{
    int id[8] = {0, 0, 0, 0, 1, 1, 1, 1}, same[8] = {0};
    blx_nodes *two = nodes_of(8, id), *one = nodes_of(8, same);
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    const blx_nodes *cases[3] = {two, one, NULL};
    for (const char *top = "ID"; *top; top++)
        for (int i = 0; i < 12; i++) {
            /* (i % 6 >= 3: a message of 64 KiB, whole for a lettered ring wherever it goes) */
            blx_xfer x = {
                .in = {.np = 8, .bytes = i % 6 < 3 ? 1 << 20 : 1 << 16, .model = &m, .trees = &trees}};
            x.in.nodes = cases[i % 3];
            x.lettered = i < 6;
            x.ep.np = 8;
            blx_route r;
            CHECK(blx_route_letter(&r, *top, &x.in, BLX_BCAST) == 0 && r.alg == &blx_alg_ring, "'%c': %s",
                  *top, r.alg->name);
            x.tree = blx_tree_cached(&trees, 8, r.shape, r.key, r.param);
            blx_plan p = r.alg->plan(&x);
            int whole = p.piece > x.in.bytes, want = x.lettered && (i % 3 != 0 || i % 6 >= 3);
            CHECK(whole == want, "ring '%c', %s, %zu bytes, nodes case %d: %s, expected %s", *top,
                  x.lettered ? "lettered" : "the default's", x.in.bytes, i % 3, whole ? "whole" : "pieces",
                  want ? "whole" : "pieces");
        }
    blx_tree_cache_free(&trees);
    blx_nodes_free(two);
    blx_nodes_free(one);
}

/* A lettered split ring's plan (split_ring.c): whole where members share a
 * node, or the nodes are not known; pieces where every member has a node
 * to itself, whatever the size, and for the default's own choice. */
static void check_split_ring_plan(void)
{
    int id[8] = {0, 0, 0, 0, 1, 1, 1, 1}, same[8] = {0}, apart[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    blx_nodes *two = nodes_of(8, id), *one = nodes_of(8, same), *eight = nodes_of(8, apart);
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    const blx_nodes *cases[4] = {two, one, NULL, eight};
    for (int i = 0; i < 16; i++) {
        blx_xfer x = {.in = {.np = 8, .bytes = i % 8 < 4 ? 1 << 20 : 1 << 16, .model = &m, .trees = &trees}};
        x.in.nodes = cases[i % 4];
        x.lettered = i < 8;
        x.ep.np = 8;
        blx_route r;
        CHECK(blx_route_letter(&r, 'S', &x.in, BLX_BCAST) == 0 && r.alg == &blx_alg_split_ring, "'S': %s",
              r.alg->name);
        x.tree = blx_tree_cached(&trees, 8, r.shape, r.key, r.param);
        blx_plan p = r.alg->plan(&x);
        int whole = p.piece > x.in.bytes, want = x.lettered && i % 4 != 3;
        CHECK(whole == want, "split ring, %s, %zu bytes, nodes case %d: %s, expected %s",
              x.lettered ? "lettered" : "the default's", x.in.bytes, i % 4, whole ? "whole" : "pieces",
              want ? "whole" : "pieces");
    }
    /* Whole, the source sends to its two children the model's window at once, or more
       where a message this short leaves a latency of the link idle: a network link's
       (window 1) sends a short one to both at once, a long one to one after the other. */
    m.window = 1;
    for (size_t bytes = 1024; bytes <= 1 << 20; bytes <<= 10) {
        blx_xfer x = {.in = {.np = 8, .bytes = bytes, .model = &m, .trees = &trees, .nodes = one},
                      .lettered = 1};
        x.ep.np = 8;
        blx_route r;
        blx_route_letter(&r, 'S', &x.in, BLX_BCAST);
        x.tree = blx_tree_cached(&trees, 8, r.shape, r.key, r.param);
        blx_plan p = r.alg->plan(&x);
        int want = bytes < 4096 ? blx_model_window(&m, (double)bytes) : 1;
        CHECK(p.piece > bytes && p.window == want && (bytes > 4096 || want >= 2),
              "split ring whole, %zu bytes, a network link's window: piece %zu window %d, expected whole, %d",
              bytes, p.piece, p.window, want);
    }
    blx_tree_cache_free(&trees);
    blx_nodes_free(two);
    blx_nodes_free(one);
    blx_nodes_free(eight);
}

int main(void)
{
    check_cross();
    for (int np = 1; np <= 64; np *= 2)
        for (int cross = 0; cross < np; cross++)
            check_hypercube(np, cross);
    check_card_load();
    check_route();
    check_ring_plan();
    check_split_ring_plan();
    check_halving();
    check_fold();
    printf("test_nodes: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
