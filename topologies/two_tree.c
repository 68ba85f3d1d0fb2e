/*
 * topologies/two_tree.c - long-message broadcast and combine to one along
 * two binary trees (Sanders, Speck and Traff's two-tree broadcast and
 * reduction; the "double binary tree" of NCCL).  No TOP letter: the default
 * ' ' picks it for long messages on larger scopes.
 *
 * A pipelined binary tree moves every byte twice out of each inner node, so
 * it runs at half the link speed.  Two trees fix that: the message is cut
 * into pieces, even pieces go down tree A and odd pieces down tree B, and a
 * process that forwards in one tree is a leaf of the other.  So every
 * process sends about n bytes in all (twice n/2) and receives n, the source
 * sends each piece once, and the time approaches n beta plus a pipeline fill
 * of about 2 log2(p) steps.
 *
 * The trees span the p - 1 processes other than the source, labelled
 * 0 .. m-1 (label = position after the source - 1).  Tree A is an in-order
 * binary tree rooted at label 0: a label i > 0 whose lowest set bit is b has
 * children i - b/2 and i + b/2 (the latter lowered while past m - 1) and
 * parent (i - b) | 2b, or i - b if that is past m - 1; label 0 has one child,
 * the largest power of two below m.  Odd labels are its leaves.  Tree B is
 * tree A mirrored (label i -> m - 1 - i) when m is even, shifted (i -> i + 1
 * mod m) when m is odd, which makes A's leaves B's inner nodes.  The source
 * sends piece 2j to A's root and piece 2j + 1 to B's.  m = 7 (p = 8):
 *
 *   A:  src -> 0 -> 4 -> {2 -> {1, 3}, 6 -> {5}}          (labels)
 *   B:  src -> 1 -> 5 -> {3 -> {2, 4}, 0 -> {6}}          (A shifted by one)
 *
 *   cost: with L the steps of tree A before its first piece reaches its last
 *   leaf (two per level: a node sends to one child, then the other) and
 *   D = 1 (every process spends one step per piece: two sends per piece of
 *   its own tree, which gets every other piece), the pipelined tree of
 *   model.h: T(k) = (L + k - 1)(alpha + n beta / k), about
 *   n beta + 2 log2(p) alpha + 2 sqrt(2 log2(p) alpha n beta)
 *   against 2 n beta + ... for one binary tree and log2(p) n beta for the
 *   binomial tree.  On a network link a node's pair of sends costs more
 *   (two_tree_link_steps below), which the default weighs.
 * Any p works; for p <= 2 the trees are a single edge.
 *
 * The combine to one walks the same trees the other way, rooted at the
 * destination (tree_combine.c's fan-in): piece 2j climbs tree A and piece
 * 2j + 1 tree B, each inner node folding its two children's piece into its
 * own before sending it up, and the destination folds the two roots'.  A
 * process receives n bytes (two children's halves in its inner tree) and
 * sends n (its inner tree's half, and its own half as a leaf of the other),
 * as in the broadcast, and folds what it receives.
 *   cost: the broadcast's, with beta + gamma for beta
 */
#include <stdlib.h>

#include "topology.h"

/* Parent of label i in tree A over m labels (-1 for the root, label 0). */
static int parent_a(int i, int m)
{
    if (i == 0)
        return -1;
    int b = i & -i, up = (i ^ b) | (b << 1);
    return up < m ? up : i ^ b;
}

/* Tree A's label i as a label of tree B. */
static int a_to_b(int i, int m) { return m % 2 == 0 ? m - 1 - i : (i + 1) % m; }

/* Tree A's children of every label, largest subtree first: kids[2 i], kids[2 i + 1] (-1: none). */
static void children_a(int m, int *kids, int *size)
{
    for (int i = 0; i < m; i++) {
        size[i] = 1;
        kids[2 * i] = kids[2 * i + 1] = -1;
    }
    /* a child's lowest set bit is below its parent's: sum sizes bit by bit */
    for (int bit = 1; bit <= m; bit <<= 1)
        for (int i = bit; i < m; i += 2 * bit)
            size[parent_a(i, m)] += size[i];
    for (int i = 1; i < m; i++) {
        int *k = &kids[2 * parent_a(i, m)];
        if (k[0] < 0)
            k[0] = i;
        else if (size[i] > size[k[0]]) {
            k[1] = k[0];
            k[0] = i;
        } else {
            k[1] = i;
        }
    }
}

/* Tree A (mirror 0) or B (mirror 1) in relative numbering (source = node
 * 0, label i = node i + 1), breadth first from the source. */
static void build(blx_tree *t, int mirror)
{
    int m = t->np - 1;
    if (m < 1)
        return;
    int *kids = malloc(2 * (size_t)m * sizeof *kids), *size = malloc((size_t)m * sizeof *size);
    int *queue = malloc((size_t)m * sizeof *queue), *step = malloc((size_t)m * sizeof *step);
    if (!kids || !size || !queue || !step) {
        t->nedges = t->np; /* the build fails: reported as out of memory */
    } else {
        children_a(m, kids, size);
        int head = 0, tail = 0;
        queue[tail++] = 0;
        step[0] = 1;
        blx_tree_edge(t, 0, 1 + (mirror ? a_to_b(0, m) : 0), 1);
        while (head < tail) {
            int a = queue[head++];
            for (int j = 0; j < 2 && kids[2 * a + j] >= 0; j++) {
                int c = kids[2 * a + j];
                step[c] = step[a] + j + 1;
                blx_tree_edge(t, 1 + (mirror ? a_to_b(a, m) : a), 1 + (mirror ? a_to_b(c, m) : c), step[c]);
                queue[tail++] = c;
            }
        }
    }
    free(kids);
    free(size);
    free(queue);
    free(step);
}

static void tree_a(blx_tree *t, char key, int param)
{
    (void)key, (void)param;
    build(t, 0);
}

static void tree_b(blx_tree *t, char key, int param)
{
    (void)key, (void)param;
    build(t, 1);
}

/* Tree A's first-piece steps; per piece, every process sends once (twice
 * for every other piece), as a chain does. */
static blx_steps two_tree_steps(const blx_model *m, const void *tree_a, int W)
{
    blx_steps st = blx_model_tree_steps(m, tree_a, W);
    st.da = 1.0 / W;
    st.db = 1.0 / m->window;
    st.dd = 1;
    return st;
}

/* For p <= 2 the trees are one edge, with nothing to pipeline: the plan
 * and time of any tree there (the message whole), so that the default does
 * not take two trees for a cheaper edge than the binomial tree's. */
static blx_plan two_tree_plan(const blx_xfer *x)
{
    const blx_tree *a = x->tree;
    if (a->np < 3)
        return blx_model_tree_plan(x->in.model, a, x->in.bytes, 1);
    return blx_model_plan(x->in.model, two_tree_steps, a, x->in.bytes, 1);
}

/* On a network link (window 1) the two sends of a piece go out together,
 * synchronous, and share the link: each child has the piece 2 s beta after
 * its parent (not s beta and 2 s beta), so a piece's beta steps on the path
 * are the degrees of the nodes it passes.  The pair finishes together and
 * the next pair is posted then, its latency passing with the link idle: a
 * pair (two pieces, one per tree) costs alpha + 2 s beta, D_alpha = 1/W as
 * the plan has it. */
static blx_steps two_tree_link_steps(const blx_model *m, const void *tree_a, int W)
{
    const blx_tree *t = tree_a;
    blx_steps st = two_tree_steps(m, t, W);
    if (m->window != 1 || W < 2)
        return st;
    double lb = 0;
    for (int v = 1; v < t->np; v++) {
        double path = 0;
        for (int u = v; t->parent[u] >= 0; u = t->parent[u])
            path += blx_tree_nkids(t, t->parent[u]);
        lb = path > lb ? path : lb;
    }
    st.lb = lb;
    return st;
}

/* The time of the plan above, with its pairs (two_tree_link_steps); the
 * plan keeps the pieces of its own steps (doc/performance.md: how close
 * both come to the simulated times). */
static double two_tree_time(const blx_model *m, const blx_tree *a, size_t n)
{
    if (a->np < 3)
        return blx_model_tree_time(m, a, n);
    blx_plan plan = blx_model_plan(m, two_tree_steps, a, n, 1);
    return blx_model_plan_time(m, two_tree_link_steps, a, n, plan);
}

static double two_tree_cost(const blx_route_in *in, int param, const blx_tree *tree, const blx_tree *tree2)
{
    (void)param, (void)tree2;
    return two_tree_time(in->model, tree, in->bytes);
}

/* The fan-in folds every byte it receives; on p <= 2, any fan-in's edge.
 * Where receives do not overlap their latencies (more processes than
 * processors, model.h) it is not weighed: its pieces in flight on two trees
 * gain nothing there. */
static double two_tree_combine_cost(const blx_route_in *in, int param, const blx_tree *tree,
                                    const blx_tree *tree2)
{
    if (!in->model->overlap)
        return 1e300;
    if (tree->np < 3)
        return blx_tree_combine_cost(in, param, tree, tree2);
    blx_model m = *in->model;
    m.beta += m.gamma;
    return two_tree_time(&m, tree, in->bytes);
}

const blx_algorithm blx_alg_two_tree = {
    .name = "two_tree",
    .keys = "",
    .title = "two trees",
    .description = "two binary trees, pieces alternating (chosen by the default TOP for long messages)",
    .tree = tree_a,
    .tree2 = tree_b,
    .bcast = blx_tree_bcast,
    .combine_tree = tree_a,
    .combine_tree2 = tree_b,
    .combine = blx_tree_combine,
    .bcast_cost = two_tree_cost,
    .combine_cost = two_tree_combine_cost,
    .plan = two_tree_plan,
    .flags = BLX_ALG_PIPELINES | BLX_ALG_GATHERS | BLX_ALG_CUTS,
    .weigh = {[BLX_BCAST] = BLX_WEIGH_ONCE, [BLX_REDUCE] = BLX_WEIGH_ONCE},
};
