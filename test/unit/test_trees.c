/*
 * test/unit/test_trees.c - the broadcast and combine trees of every topology
 * (topologies/), without MPI, for np = 1..64 and every root.
 *
 * Every tree must be a spanning tree (each member receives exactly once, from
 * a member that received earlier), for every root once rotated to absolute
 * member numbers.  Its schedule must match LAWN 73 section 4.3 and Table 9:
 *   rings I, D:          np - 1 steps, one send per step, source sends 1
 *   split ring S:        ceil((np-1)/2) steps, source sends 2
 *   multiring M (N_r):   ceil((np-1)/N_r) steps, N_r sends in step 1, source sends N_r
 *   fully connected F:   1 step, source sends np - 1
 *   hypercube H:         log2 np steps, 2^(i-1) sends in step i, source sends log2 np
 *   general tree (N_b):  H_t = ceil(log_{N_b+1} np) steps, source sends
 *                        N_b (H_t - 1) + N_is, N_is = ceil(np / (N_b+1)^(H_t-1)) - 1;
 *                        N_b = 1 (the 1-tree): 2^(i-1) sends in step i
 * Combine trees, for every N_r of M and N_b of T (the other letters ignore
 * the number): rings (I, D, S, M) end at the destination and flow in the
 * letter's (N_r's) direction; trees have the broadcast's shape.  The registry: fallbacks, clamping, unknown letters, the default.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../topologies/topology.h"
#include "check.h"

static int ceil_log(int base, int n) /* smallest h with base^h >= n */
{
    int h = 0;
    long long p = 1;
    while (p < n) {
        p *= base;
        h++;
    }
    return h;
}

static int source_sends(const blx_tree *t) { return blx_tree_nkids(t, 0); }

static int sends_in_step(const blx_tree *t, int step)
{
    int n = 0;
    for (int r = 1; r < t->np; r++)
        n += t->step[r] == step;
    return n;
}

/* Spanning tree, for every root, seen the way the walker sees it. */
static void check_spanning(const blx_tree *t, const char *what)
{
    int np = t->np;
    int *got = calloc((size_t)np, sizeof *got);
    for (int root = 0; root < np; root++) {
        memset(got, 0, (size_t)np * sizeof *got);
        for (int me = 0; me < np; me++) {
            int rel = (me - root + np) % np;
            const int *k = blx_tree_kids(t, rel);
            for (int i = 0; i < blx_tree_nkids(t, rel); i++) {
                int child = (k[i] + root) % np;
                got[child]++;
                CHECK(t->parent[k[i]] == rel, "%s np=%d: child %d does not name its parent", what, np, k[i]);
                CHECK(t->step[k[i]] > t->step[rel], "%s np=%d: %d receives before its parent", what, np,
                      k[i]);
            }
        }
        for (int m = 0; m < np; m++)
            CHECK(got[m] == (m != root), "%s np=%d root=%d: member %d receives %d times", what, np, root, m,
                  got[m]);
    }
    free(got);
}

static blx_tree *tree_of(blx_tree_shape shape, int np, char key, int param, const char *what)
{
    blx_tree *t = blx_tree_build(np, shape, key, param);
    CHECK(t != NULL, "%s np=%d: tree not built", what, np);
    if (t != NULL)
        check_spanning(t, what);
    return t;
}

static void check_bcast_schedules(int np)
{
    int others = np - 1;
    for (const char *k = "ID"; *k; k++) {
        blx_tree *t = tree_of(blx_alg_ring.tree, np, *k, 0, "ring");
        if (!t)
            continue;
        CHECK(t->nsteps == others && source_sends(t) == (np > 1), "ring %c np=%d: %d steps, %d source sends",
              *k, np, t->nsteps, source_sends(t));
        for (int s = 1; s <= t->nsteps; s++)
            CHECK(sends_in_step(t, s) == 1, "ring np=%d step %d", np, s);
        if (np > 2)
            CHECK(blx_tree_kids(t, 0)[0] == (*k == 'I' ? 1 : np - 1), "ring %c goes the wrong way", *k);
        blx_tree_free(t);
    }
    blx_tree *t = tree_of(blx_alg_split_ring.tree, np, 'S', 0, "split ring");
    if (t) {
        CHECK(t->nsteps == (others + 1) / 2, "split ring np=%d: %d steps", np, t->nsteps);
        CHECK(source_sends(t) == (others < 2 ? others : 2), "split ring np=%d: %d source sends", np,
              source_sends(t));
        if (np > 1)
            CHECK(blx_tree_kids(t, 0)[0] == 1, "split ring: increasing direction first");
        blx_tree_free(t);
    }
    for (int nr = -others; nr <= others; nr++) {
        if (nr == 0)
            continue;
        int R = abs(nr);
        t = tree_of(blx_alg_multiring.tree, np, 'M', nr, "multiring");
        if (!t)
            continue;
        CHECK(t->nsteps == (others + R - 1) / R, "multiring np=%d N_r=%d: %d steps", np, nr, t->nsteps);
        CHECK(source_sends(t) == R && sends_in_step(t, 1) == R, "multiring np=%d N_r=%d: source %d", np, nr,
              source_sends(t));
        CHECK(blx_tree_kids(t, 0)[0] == (nr > 0 ? 1 : np - 1), "multiring np=%d N_r=%d: nearest ring first",
              np, nr);
        blx_tree_free(t);
    }
    t = tree_of(blx_alg_fully_connected.tree, np, 'F', 0, "fully connected");
    if (t) {
        CHECK(t->nsteps == (np > 1) && source_sends(t) == others, "F np=%d", np);
        blx_tree_free(t);
    }
    if ((np & (np - 1)) == 0) {
        t = tree_of(blx_alg_hypercube.tree, np, 'H', 0, "hypercube");
        if (t) {
            int lg = ceil_log(2, np);
            CHECK(t->nsteps == lg && source_sends(t) == lg, "H np=%d: %d steps %d sends", np, t->nsteps,
                  source_sends(t));
            for (int s = 1; s <= lg; s++)
                CHECK(sends_in_step(t, s) == 1 << (s - 1), "H np=%d: %d sends in step %d", np,
                      sends_in_step(t, s), s);
            if (np > 1)
                CHECK(blx_tree_kids(t, 0)[0] == 1, "H: nearest node first");
            blx_tree_free(t);
        }
    }
    for (int nb = 1; nb <= 12; nb++) {
        t = tree_of(blx_alg_general_tree.tree, np, nb <= 9 ? (char)('0' + nb) : 'T', nb, "general tree");
        if (!t)
            continue;
        int ht = ceil_log(nb + 1, np);
        long long pw = 1;
        for (int i = 0; i + 1 < ht; i++)
            pw *= nb + 1;
        int nis = ht ? (int)((np + pw - 1) / pw) - 1 : 0;
        CHECK(t->nsteps == ht, "tree N_b=%d np=%d: %d steps, H_t=%d", nb, np, t->nsteps, ht);
        CHECK(source_sends(t) == (ht ? nb * (ht - 1) + nis : 0),
              "tree N_b=%d np=%d: %d source sends, expected %d", nb, np, source_sends(t),
              nb * (ht - 1) + nis);
        if (nb == 1 && (np & (np - 1)) == 0)
            for (int s = 1; s <= ht; s++)
                CHECK(sends_in_step(t, s) == 1 << (s - 1), "1-tree np=%d step %d: %d sends", np, s,
                      sends_in_step(t, s));
        if (nb == 1 && np > 2)
            CHECK(blx_tree_kids(t, 0)[0] == 1 << (ht - 1), "1-tree np=%d: farthest node first", np);
        blx_tree_free(t);
    }
}

/* Combine trees walk rings into the destination (node 0): every node hands
 * its partial result to its neighbour one step further along the flow, and
 * the last node of each ring to the destination. */
static void check_ring_flow(const blx_tree *t, char key, int param, const int *dir, int nrings)
{
    int np = t->np, ends = 0;
    for (int r = 1; r < np; r++) {
        int next = ((r + dir[r]) % np + np) % np;
        ends += t->parent[r] == 0;
        CHECK(t->parent[r] == next || t->parent[r] == 0,
              "%c(%d) combine np=%d: %d sends to %d, not to %d or the destination", key, param, np, r,
              t->parent[r], next);
    }
    CHECK(ends == nrings && blx_tree_nkids(t, 0) == nrings,
          "%c(%d) combine np=%d: %d rings end at the destination, want %d", key, param, np, ends, nrings);
}

/* The longest root-to-leaf path of t, in edges. */
static int depth_of(const blx_tree *t)
{
    int depth = 0;
    for (int r = 0; r < t->np; r++) {
        int d = 0;
        for (int u = r; t->parent[u] >= 0; u = t->parent[u])
            d++;
        depth = d > depth ? d : depth;
    }
    return depth;
}

static void check_combine_trees(int np)
{
    int others = np - 1, *dir = malloc((size_t)np * sizeof *dir);
    for (int b = 0; b < BLX_NALGORITHMS; b++) {
        const blx_algorithm *tp = blx_algorithms[b];
        if (tp->combine_tree == NULL)
            continue;
        for (const char *k = tp->keys; *k; k++) {
            /* the parameter the letter reads: N_r for M, N_b for T; the
             * others (digits: their own N_b) must ignore it */
            int lo = *k == 'M' && others ? -others : 1, hi = (*k == 'M' || *k == 'T') ? others : 3;
            if (hi < lo)
                hi = lo;
            for (int param = lo; param <= hi; param++) {
                if (param == 0)
                    continue;
                blx_tree *t = tree_of(tp->combine_tree, np, *k, param, tp->name);
                if (t == NULL)
                    continue;
                if (*k == 'I' || *k == 'D') { /* 'I': d+1 -> d+2 -> ... -> d-1 -> d */
                    for (int r = 0; r < np; r++)
                        dir[r] = *k == 'I' ? 1 : -1;
                    check_ring_flow(t, *k, param, dir, others > 0);
                    CHECK(depth_of(t) == others, "%c combine np=%d: depth %d", *k, np, depth_of(t));
                } else if (*k == 'S') { /* two halves, each ending at d */
                    int right = (others + 1) / 2;
                    for (int r = 0; r < np; r++)
                        dir[r] = r <= right ? -1 : 1;
                    check_ring_flow(t, *k, param, dir, others < 2 ? others : 2);
                    CHECK(depth_of(t) == right, "S combine np=%d: depth %d, want %d", np, depth_of(t), right);
                } else if (*k == 'M') { /* |N_r| rings flowing in N_r's direction */
                    int rings = abs(param) < others ? abs(param) : others;
                    for (int r = 0; r < np; r++)
                        dir[r] = param > 0 ? 1 : -1;
                    check_ring_flow(t, *k, param, dir, rings);
                    CHECK(depth_of(t) == (rings ? (others + rings - 1) / rings : 0),
                          "M(%d) combine np=%d: depth %d", param, np, depth_of(t));
                } else if (*k == 'T' || (*k >= '1' && *k <= '9')) {
                    int nb = *k == 'T' ? param : *k - '0';
                    int ht = ceil_log(nb + 1, np);
                    long long pw = 1;
                    for (int i = 0; i + 1 < ht; i++)
                        pw *= nb + 1;
                    int nis = ht ? (int)((np + pw - 1) / pw) - 1 : 0;
                    CHECK(t->nsteps == ht && blx_tree_nkids(t, 0) == (ht ? nb * (ht - 1) + nis : 0),
                          "%c(%d) combine np=%d: %d steps, %d children of the destination (N_b = %d)", *k,
                          param, np, t->nsteps, blx_tree_nkids(t, 0), nb);
                } else if (*k == 'F') {
                    CHECK(blx_tree_nkids(t, 0) == others,
                          "F(%d) combine np=%d: %d children of the destination", param, np,
                          blx_tree_nkids(t, 0));
                }
                blx_tree_free(t);
            }
        }
    }
    free(dir);
}

/* The default's choice under a model (BLACS_MODEL's syntax). */
static const blx_algorithm *model_choice(const char *model, int op, int np, size_t bytes)
{
    blx_model m = blx_model_default();
    CHECK(blx_model_parse(model, &m) == 0, "model '%s' refused", model);
    blx_tree_cache trees = {0};
    blx_route r;
    /* doubles: the vector may be cut where every member gets one */
    blx_route_in in = {np,   bytes, op == 2, bytes / 8 >= (size_t)np, 1, 1, &m, &trees, NULL, NULL, NULL, 0,
                       NULL, 0,     NULL};
    if (op == 0)
        blx_route_bcast(&r, ' ', &in);
    else
        blx_route_combine(&r, ' ', &in);
    blx_tree_cache_free(&trees);
    return r.alg;
}

/* The default's choice on a network (the simulated cluster of `make sim`). */
static const blx_algorithm *network_choice(int op, int np, size_t bytes)
{
    return model_choice("alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1", op, np, bytes);
}

/* Rabenseifner's radix (rabenseifner.c): on a network, where the
 * latencies of a level's messages overlap and cost no overhead, the fewest
 * levels (radix 8 on 64: 2 a direction); where they do not overlap (more
 * processes than processors), radix 2. */
static void check_radix(void)
{
    static const struct {
        const char *model;
        int np, radix;
    } rows[] = {{"alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1", 64, 8},
                {"alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1", 16, 4},
                {"alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=0", 64, 2}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        blx_model m = blx_model_default();
        CHECK(blx_model_parse(rows[i].model, &m) == 0, "model refused");
        blx_tree_cache trees = {0};
        blx_route r;
        blx_route_in in = {rows[i].np, 1 << 20, 1, 1, 1, 1, &m, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL};
        blx_route_combine(&r, ' ', &in);
        blx_tree_cache_free(&trees);
        CHECK(r.alg == &blx_alg_rabenseifner && r.param == rows[i].radix,
              "%s, %d processes, 1 MiB to all: %s of %d, rabenseifner of radix %d expected", rows[i].model,
              rows[i].np, r.alg->name, r.param, rows[i].radix);
    }
}

/* Where each algorithm wins on a network, by the cost model (doc/guide.md's
 * table): 0 broadcast, 1 leave-on-one, 2 leave-on-all. */
static void check_network_choices(void)
{
    static const struct {
        int op, np;
        size_t bytes;
        const blx_algorithm *want;
    } rows[] = {
        {0, 256, 8, &blx_alg_fully_connected},         /* no overhead: 255 sends at once, 1 alpha */
        {0, 256, 64 << 10, &blx_alg_scatter_doubling}, /* 2 log2 p alpha + 2 n beta */
        {0, 16, 64 << 10, &blx_alg_scatter_doubling},  /* two trees 21.7 us simulated, 20.3 */
        {0, 64, 256 << 10, &blx_alg_two_tree},         /* 58.8 us simulated, scatter 63.6 */
        {0, 4, 8 << 20, &blx_alg_ring},                /* a short pipelined chain */
        {0, 256, 8 << 20, &blx_alg_two_tree},          /* n beta + fill */
        {0, 1024, 1 << 20, &blx_alg_two_tree},
        {0, 6, 1 << 20, &blx_alg_ring},        /* staggered: 115 us simulated, two trees 148 */
        {1, 16, 1 << 20, &blx_alg_ring},       /* pipelined chain fan-in */
        {1, 1024, 8 << 20, &blx_alg_two_tree}, /* the chain is too long */
        {1, 64, 1 << 20, &blx_alg_two_tree},   /* 160 us simulated, reduce-scatter + gather 214 */
        {2, 256, 8, &blx_alg_hypercube},
        {2, 256, 1 << 20, &blx_alg_rabenseifner},
        {2, 6, 1 << 20, &blx_alg_ring_allreduce},  /* no fold of whole vectors onto 4 */
        {1, 16, 64 << 10, &blx_alg_rabenseifner},  /* the gather's receives overlap */
        {1, 64, 256 << 10, &blx_alg_rabenseifner}, /* radix 8: 54.7 us simulated, two trees 55.7 */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const blx_algorithm *t = network_choice(rows[i].op, rows[i].np, rows[i].bytes);
        CHECK(t == rows[i].want, "network, op %d, %d processes, %zu bytes: %s chosen, %s expected",
              rows[i].op, rows[i].np, rows[i].bytes, t->name, rows[i].want->name);
    }
    /* the network's default model charges a sender its overhead a message
     * (BLX_MODEL_NET_OVERHEAD): a few messages beat many at short sizes,
     * where with no overhead a level's messages in flight cost one alpha */
    char with_o[160];
    snprintf(with_o, sizeof with_o, "alpha=%g,beta=%g,gamma=0,overhead=%g,window=1,overlap=1", 1e-6, 1e-10,
             BLX_MODEL_NET_OVERHEAD);
    CHECK(BLX_MODEL_NET_OVERHEAD > 0 && blx_model_network(&(blx_model){0}).overhead == BLX_MODEL_NET_OVERHEAD,
          "the network's default model charges no overhead a message");
    CHECK(network_choice(2, 8, 2048) == &blx_alg_rabenseifner &&
              model_choice(with_o, 2, 8, 2048) == &blx_alg_hypercube,
          "a 2 KiB sum to all on 8: radix-8 reduce-scatter without overhead, the hypercube with it");
    /* where receives do not overlap (more processes than processors), the
     * gather pays p - 1 latencies and a fan-in wins */
    CHECK(model_choice("alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=0", 1, 1024, 1 << 20) !=
              &blx_alg_rabenseifner,
          "overlap=0: reduce-scatter + gather still chosen for a 1 MiB sum to one of 1024");
    /* nor do a fan-in's: a sum of 8 B to one of 4 takes the binomial tree
     * (two latencies), not the flat one (three in turn) */
    blx_model ov = blx_model_for_node(4, 2);
    blx_tree_cache ovt = {0};
    blx_route fan;
    blx_route_in fin = {4, 8, 0, 1, 1, 1, &ov, &ovt, NULL, NULL, NULL, 0, NULL, 0, NULL};
    blx_route_combine(&fan, ' ', &fin);
    blx_tree_cache_free(&ovt);
    CHECK(fan.alg == &blx_alg_general_tree && fan.param == 1,
          "4 processes on 2 processors: a sum of 8 B to one takes %s (param %d), not the binomial tree",
          fan.alg->name, fan.param);
    blx_model o = blx_model_default();
    CHECK(o.overlap == 1 && blx_model_for_node(4, 2).overlap == 0 && blx_model_for_node(2, 2).overlap == 1,
          "overlap: %d by default, %d on 4 processes over 2 processors, %d on 2", o.overlap,
          blx_model_for_node(4, 2).overlap, blx_model_for_node(2, 2).overlap);
    CHECK(blx_model_parse("overlap=2", &o) == -1 && blx_model_parse("overlap=0.5", &o) == -1 &&
              blx_model_parse("overlap=0", &o) == 0 && o.overlap == 0,
          "overlap takes 0 or 1");
    /* short messages: a flat tree's 63 sends all in flight (as the reference
     * posts them), not paced in windows; long ones one at a time */
    blx_model net = blx_model_default();
    CHECK(blx_model_parse("alpha=1e-6,beta=1e-10,gamma=0,window=1", &net) == 0, "network model refused");
    CHECK(blx_model_window(&net, 8) >= 64 && blx_model_window(&net, 1 << 20) == 1,
          "network windows: %d for 8 B, %d for 1 MiB", blx_model_window(&net, 8),
          blx_model_window(&net, 1 << 20));
    blx_model m = blx_model_default(), keep = m;
    CHECK(blx_model_parse("alpha=1e-6,beta=x", &m) == -1 && m.alpha == keep.alpha,
          "bad BLACS_MODEL accepted");
    CHECK(blx_model_parse("window=0", &m) == -1 && blx_model_parse("speed=1", &m) == -1,
          "bad model names accepted");
}

/* A tuning file (blacs-tune's): lines of BLACS_MODEL's syntax, comments,
 * blank lines and blanks beside '=' and ','; the first bad line's number,
 * and nothing changed, on anything else; whether it sets the network. */
static void check_model_file(void)
{
    blx_model on = blx_model_default(), off = blx_model_network(&on), on0 = on, off0 = off;
    int net = -1;
    const char *good = "# written by blacs-tune\n"
                       "gamma=3.3e-11\n"
                       "\n"
                       "node.alpha = 8.3e-07 , node.beta=2.2e-10   # on the node\r\n"
                       "\tnode.window=4\n"
                       "net.alpha=2.4e-06\n"
                       "net.beta=7.5e-11";
    CHECK(blx_model_parse_file(good, &on, &off, &net, NULL) == 0, "a tuning file refused");
    CHECK(on.alpha == 8.3e-07 && on.beta == 2.2e-10 && on.window == 4 && on.gamma == 3.3e-11 &&
              on.overhead == on0.overhead && off.alpha == 2.4e-06 && off.beta == 7.5e-11 &&
              off.gamma == 3.3e-11 && off.window == off0.window && net == 1,
          "tuning file read as node alpha %g beta %g window %d gamma %g, net alpha %g beta %g gamma %g (net "
          "%d)",
          on.alpha, on.beta, on.window, on.gamma, off.alpha, off.beta, off.gamma, net);
    on = on0, off = off0;
    CHECK(blx_model_parse_file("node.alpha=1e-6\n# net.alpha=1\n", &on, &off, &net, NULL) == 0 && net == 0 &&
              off.alpha == off0.alpha,
          "a file of node values only sets the network (net %d, net alpha %g)", net, off.alpha);
    CHECK(blx_model_parse_file("", &on, &off, &net, NULL) == 0 && net == 0, "an empty tuning file refused");
    struct {
        const char *text;
        int line;
    } bad[] = {
        {"alpha=1e-6\nbeta=1 0\n", 2},                  /* a blank inside a number */
        {"# ok\n\nnode.speed=2\n", 3},                  /* no such name */
        {"alpha==1e-6\n", 1},                           /* two signs */
        {"net.window=0\n", 1},                          /* out of range */
        {"alpha=-1\n", 1},                              /* negative */
        {"alpha\n", 1},                                 /* no value */
        {"gamma=1e-11\nnode.alpha=1e-6 beta=2e-10", 2}, /* a blank between pairs */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        on = on0, off = off0, net = -1;
        int line = blx_model_parse_file(bad[i].text, &on, &off, &net, NULL);
        CHECK(line == bad[i].line && memcmp(&on, &on0, sizeof on) == 0 &&
                  memcmp(&off, &off0, sizeof off) == 0,
              "tuning file '%s': bad line %d, expected %d (or the models changed)", bad[i].text, line,
              bad[i].line);
    }
    /* a tuning file's node model on more processes than processors: the
     * waits still count, and a larger value from the file stays */
    blx_model c = on0;
    c.alpha = 5e-4;
    c.gamma = 1e-11;
    blx_model_crowd(&c, 4, 2);
    CHECK(c.alpha == 5e-4 && c.gamma == BLX_MODEL_OVERSUBSCRIBED_GAMMA && c.overlap == 0,
          "crowded tuned model: alpha %g gamma %g overlap %d", c.alpha, c.gamma, c.overlap);
}

/* MPI's collectives in a tuning file (model.h): the lines read into
 * shapes, bad ones refused with their line number and nothing changed; the
 * nearest shape's ratio, interpolated on a log scale; and the default's
 * choice: MPI's collective where its ratio is below 1 and it can run, else
 * ours (not where MPI has no such reduction, nor where no file measured it). */
static void check_mpi_costs(void)
{
    blx_model on = blx_model_default(), off = blx_model_network(&on), on0 = on, off0 = off;
    blx_mpi_costs t = {0}, t0;
    int net = -1;
    const char *good = "node.alpha=1e-6\n"
                       "mpi.allreduce.16x1 = 8:2, 4096:1.5, 1048576:0.5   # on one node\n"
                       "mpi.allreduce.64x4=8:1.2,1048576:0.8\n"
                       "mpi.bcast.64x4=8:0.9\n";
    CHECK(blx_model_parse_file(good, &on, &off, &net, &t) == 0 && t.n == 3 && on.alpha == 1e-6 && net == 0,
          "a tuning file with MPI's costs refused (%d shapes, net %d)", t.n, net);
    CHECK(t.shape[0].op == BLX_ALLREDUCE && t.shape[0].np == 16 && t.shape[0].nn == 1 && t.shape[0].k == 3 &&
              t.shape[0].bytes[2] == 1048576 && t.shape[0].ratio[1] == 1.5 && t.shape[2].op == BLX_BCAST,
          "MPI's costs read wrong");
    double r16 = blx_mpi_ratio(&t, BLX_ALLREDUCE, 16, 1, 65536),
           r8 = blx_mpi_ratio(&t, BLX_ALLREDUCE, 8, 1, 4),
           rnet = blx_mpi_ratio(&t, BLX_ALLREDUCE, 256, 16, 1 << 24);
    CHECK(fabs(r16 - 1.0) < 1e-12 && r8 == 2 && rnet == 0.8 &&
              blx_mpi_ratio(&t, BLX_REDUCE, 16, 1, 8) == -1 && blx_mpi_ratio(&t, BLX_BCAST, 4, 1, 8) == -1 &&
              blx_mpi_ratio(NULL, BLX_BCAST, 4, 1, 8) == -1,
          "MPI's ratios: 16 on 1 at 64 KiB %g (1), 8 on 1 at 4 B %g (2), 256 on 16 at 16 MiB %g (0.8)", r16,
          r8, rnet);
    struct {
        const char *text;
        int line;
    } bad[] = {
        {"alpha=1e-6\nmpi.allreduce.16x1=8:2,4:1\n", 2}, /* sizes not increasing */
        {"mpi.gsum.16x1=8:2\n", 1},                      /* no such operation */
        {"mpi.bcast.16=8:2\n", 1},                       /* no nodes */
        {"mpi.bcast.4x8=8:2\n", 1},                      /* more nodes than members */
        {"mpi.bcast.16x1=8:0\n", 1},                     /* no ratio */
        {"mpi.bcast.16x1=8:1,\n", 1},                    /* a comma too many */
        {"mpi.bcast.16x1=8\n", 1},                       /* a size alone */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        on = on0, off = off0, t0 = t;
        int line = blx_model_parse_file(bad[i].text, &on, &off, &net, &t);
        CHECK(line == bad[i].line && memcmp(&on, &on0, sizeof on) == 0 && memcmp(&t, &t0, sizeof t) == 0,
              "tuning file '%s': bad line %d, expected %d (or something changed)", bad[i].text, line,
              bad[i].line);
    }
    /* the default's choice on 16 members of one node */
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route r;
    blx_route_in in = {16, 1 << 20, 1, 1, 1, 1, &m, &trees, NULL, NULL, NULL, 1, &t, 0, NULL};
    blx_route_combine(&r, ' ', &in);
    CHECK(r.alg == &blx_alg_mpi, "1 MiB to all on 16, MPI measured 0.5 x ours: %s chosen", r.alg->name);
    in.bytes = 4096;
    blx_route_combine(&r, ' ', &in);
    CHECK(r.alg != &blx_alg_mpi, "4 KiB to all on 16, MPI measured 1.5 x ours: MPI chosen");
    in.bytes = 1 << 20;
    in.mpi = 0; /* absolute maxima: MPI has none */
    blx_route_combine(&r, ' ', &in);
    CHECK(r.alg != &blx_alg_mpi, "MPI chosen for a combine it cannot run");
    in.mpi = 1, in.mpi_costs = NULL; /* nothing measured */
    blx_route_combine(&r, ' ', &in);
    CHECK(r.alg != &blx_alg_mpi, "MPI chosen with nothing measured");
    in.mpi_costs = &t, in.leave_on_all = 0; /* no shape measured for a combine to one */
    blx_route_combine(&r, ' ', &in);
    CHECK(r.alg != &blx_alg_mpi, "MPI chosen for a combine to one that no shape measured");
    blx_tree_cache_free(&trees);
}

/* The one table of algorithms (topology.h) and what is derived from it:
 * every row's name is the one its BLX_ALGORITHMS entry gives, its letters
 * answer to it and are in the registry's string once, its row and run
 * counter are found, and it is reachable (a letter, or a candidate of the
 * default); BLACS_ALGORITHM forces each candidate by name where it can run. */
static void check_algorithm_table(void)
{
#define NAME_OF(name) #name,
    static const char *const names[] = {BLX_ALGORITHMS(NAME_OF)};
#undef NAME_OF
    CHECK(sizeof names / sizeof names[0] == BLX_NALGORITHMS, "BLX_NALGORITHMS is not the list's length");
    const char *letters = blx_algorithm_letters();
    size_t nletters = 0;
    /* MPI's collective is priced against the best of the rows before it (mpi.c) */
    CHECK(blx_algorithms[BLX_NALGORITHMS - 1] == &blx_alg_mpi,
          "MPI's collective is not the table's last row");
    for (int i = 0; i < BLX_NALGORITHMS; i++) {
        const blx_algorithm *a = blx_algorithms[i];
        CHECK(a != NULL && strcmp(a->name, names[i]) == 0, "row %d: '%s', its list entry '%s'", i,
              a ? a->name : "(null)", names[i]);
        CHECK(blx_algorithm_index(a) == i && blx_algorithm_runs(a) == 0, "%s: row or run counter not found",
              a->name);
        int weighed = 0;
        for (int op = 0; op < BLX_NCOLL; op++)
            weighed |= a->weigh[op] != NULL && a->weigh[op][0] >= 0;
        CHECK(weighed || a->keys[0] != '\0', "%s: neither a TOP letter nor a candidate of the default",
              a->name);
        CHECK(a->title != NULL && a->description != NULL, "%s: no title or description", a->name);
        for (const char *k = a->keys; *k; k++, nletters++)
            CHECK(blx_algorithm_find(*k) == a && strchr(letters, *k) == strrchr(letters, *k) &&
                      strchr(letters, *k) != NULL,
                  "letter '%c' of %s: not its own, or not once in '%s'", *k, a->name, letters);
        for (int op = 0; op < BLX_NCOLL; op++)
            for (const int *p = a->weigh[op]; p != NULL && *p >= 0; p++) {
                CHECK(a->price != NULL || (op == BLX_BCAST ? a->bcast_cost : a->combine_cost) != NULL,
                      "%s: weighed for operation %d without a cost", a->name, op);
                static const char *const ops[] = {"bcast", "reduce", "allreduce"};
                char text[64];
                blx_forced f = blx_forced_none();
                int numbered = (a->flags & (BLX_ALG_USES_BRANCHES | BLX_ALG_USES_RINGS)) && *p > 0;
                snprintf(text, sizeof text, numbered ? "%s=%s:%d" : "%s=%s", ops[op], a->name, *p);
                char why[160] = "";
                CHECK(blx_forced_parse(text, &f, why, sizeof why) == 0 && f.alg[op] == i,
                      "BLACS_ALGORITHM=%s refused: %s", text, why);
                blx_model m = blx_model_default();
                blx_tree_cache trees = {0};
                blx_route r;
                int id[64], rank[64]; /* 4 nodes of 16: two levels can run too */
                for (int k = 0; k < 64; k++)
                    id[k] = k / 16, rank[k] = k;
                blx_nodes *nodes = blx_nodes_build(64, id, rank, &m, &m);
                blx_route_in in = {64,
                                   (size_t)1 << 20,
                                   op == BLX_ALLREDUCE,
                                   1,
                                   1,
                                   1,
                                   &m,
                                   &trees,
                                   NULL,
                                   &f,
                                   nodes,
                                   1,
                                   NULL,
                                   0,
                                   NULL};
                if (op == BLX_BCAST)
                    blx_route_bcast(&r, ' ', &in);
                else
                    blx_route_combine(&r, ' ', &in);
                blx_tree_cache_free(&trees);
                blx_nodes_free(nodes);
                CHECK(r.alg == a && r.param == (numbered ? *p : r.param), "%s on 64: %s ran (param %d)", text,
                      r.alg->name, r.param);
            }
    }
    CHECK(strlen(letters) == nletters + 1 && letters[0] == ' ', "letters '%s' against %zu in the table",
          letters, nletters);
}

/* BLACS_ALGORITHM's parse errors, its "default", and where a forced
 * algorithm cannot run (the default's own choice then). */
static void check_forced(void)
{
    static const char *const bad[] = {"bcast",
                                      "bcst=two_tree",
                                      "bcast=twotree",
                                      "bcast=rabenseifner",
                                      "reduce=hypercube",
                                      "reduce=scatter_ring",
                                      "bcast=two_tree:2",
                                      "bcast=general_tree:0",
                                      "bcast=general_tree:x",
                                      "allreduce=rabenseifner:3",
                                      "allreduce=rabenseifner:16",
                                      "bcast=ring,,",
                                      ",bcast=ring",
                                      "allreduce=default:3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        blx_forced f = blx_forced_none(), keep = f;
        char why[160] = "";
        CHECK(blx_forced_parse(bad[i], &f, why, sizeof why) == -1 && memcmp(&f, &keep, sizeof f) == 0 &&
                  why[0] != '\0',
              "BLACS_ALGORITHM=%s accepted, or *f changed, or no reason", bad[i]);
    }
    blx_forced f = blx_forced_none();
    char why[160];
    CHECK(blx_forced_parse("allreduce=rabenseifner,bcast=scatter_doubling,reduce=general_tree:3", &f, why,
                           sizeof why) == 0 &&
              f.alg[BLX_ALLREDUCE] == blx_algorithm_index(&blx_alg_rabenseifner) &&
              f.alg[BLX_BCAST] == blx_algorithm_index(&blx_alg_scatter_doubling) &&
              f.alg[BLX_REDUCE] == blx_algorithm_index(&blx_alg_general_tree) && f.param[BLX_REDUCE] == 3,
          "a list of three");
    CHECK(blx_forced_parse("reduce=default", &f, why, sizeof why) == 0 && f.alg[BLX_REDUCE] == -1 &&
              f.alg[BLX_BCAST] >= 0,
          "default resets one operation only");
    CHECK(blx_forced_parse("allreduce=rabenseifner:4", &f, why, sizeof why) == 0 &&
              f.param[BLX_ALLREDUCE] == 4,
          "rabenseifner's radix");
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route r, plain;
    /* scatter + recursive doubling needs a power of two: on 6, the default's choice */
    blx_route_in in = {6, 8 << 20, 0, 1, 1, 1, &m, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL}, forced = in;
    forced.forced = &f;
    blx_route_bcast(&r, ' ', &forced);
    blx_route_bcast(&plain, ' ', &in);
    CHECK(r.alg == plain.alg && r.param == plain.param, "scatter_doubling forced on 6: %s, the default %s",
          r.alg->name, plain.alg->name);
    forced.np = in.np = 8;
    blx_route_bcast(&r, ' ', &forced);
    CHECK(r.alg == &blx_alg_scatter_doubling, "scatter_doubling forced on 8: %s", r.alg->name);
    /* rabenseifner cuts the vector: not for combines with locations */
    forced.leave_on_all = in.leave_on_all = 1, forced.splittable = in.splittable = 0;
    blx_route_combine(&r, ' ', &forced);
    blx_route_combine(&plain, ' ', &in);
    CHECK(r.alg == plain.alg && r.alg != &blx_alg_rabenseifner,
          "rabenseifner forced on a located combine: %s", r.alg->name);
    /* an explicit TOP is always honoured */
    blx_route_bcast(&r, 'S', &forced);
    CHECK(r.alg == &blx_alg_split_ring, "TOP 'S' with a forced broadcast: %s", r.alg->name);
    /* a forced broadcast of no cost model (hypercube, split_ring, multiring)
     * spreads a gathered sum to all: weighing that sum priced it by calling
     * its missing model (a crash, found by t_property); it is priced as the
     * default's own best broadcast */
    const char *nomodel[] = {"bcast=hypercube", "bcast=split_ring", "bcast=multiring:2"};
    for (size_t i = 0; i < sizeof nomodel / sizeof nomodel[0]; i++)
        for (size_t bytes = 8; bytes <= (8u << 20); bytes *= 8) {
            blx_forced g = blx_forced_none();
            CHECK(blx_forced_parse(nomodel[i], &g, why, sizeof why) == 0, "%s: %s", nomodel[i], why);
            blx_route_in sum = {8, bytes, 1, 1, 1, 1, &m, &trees, NULL, &g, NULL, 0, NULL, 8, NULL};
            CHECK(blx_route_combine(&r, ' ', &sum) == 0 && r.alg != NULL, "a sum to all under %s",
                  nomodel[i]);
        }
    blx_tree_cache_free(&trees);
}

/* Routes under the default model (each call with a fresh tree cache). */
static int route_b(blx_route *r, char top, int np, size_t bytes, int nr, int nb)
{
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route_in in = {np, bytes, 0, 0, nr, nb, &m, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL};
    int rc = blx_route_bcast(r, top, &in);
    blx_tree_cache_free(&trees);
    return rc;
}

static int route_c(blx_route *r, char top, int np, size_t bytes, int all, int split, int nr, int nb)
{
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route_in in = {np, bytes, all, split, nr, nb, &m, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL};
    int rc = blx_route_combine(r, top, &in);
    blx_tree_cache_free(&trees);
    return rc;
}

static void check_registry(void)
{
    blx_route r;
    CHECK(route_b(&r, 'h', 8, 100, 1, 1) == 0 && r.alg == &blx_alg_hypercube, "H on 8");
    CHECK(route_b(&r, 'H', 6, 100, 1, 1) == 0 && r.alg == &blx_alg_general_tree && r.param == 1,
          "H on 6 falls back to the 1-tree");
    CHECK(route_c(&r, 'H', 6, 100, 1, 1, 1, 1) == 0 && r.alg == &blx_alg_hypercube && r.shape == NULL,
          "leave-on-all H is the exchange on any size");
    CHECK(route_c(&r, 'H', 8, 100, 0, 1, 1, 1) == 0 && r.alg == &blx_alg_general_tree && r.param == 1,
          "leave-on-one H falls back to the 1-tree");
    CHECK(route_b(&r, 't', 5, 100, 1, 9) == 0 && r.param == 4, "T clamps N_b to np-1: %d", r.param);
    CHECK(route_b(&r, '3', 9, 100, 1, 7) == 0 && r.param == 3 && r.key == 'T', "digit 3");
    CHECK(route_b(&r, 'm', 4, 100, -9, 1) == 0 && r.param == -3, "M clamps to -(np-1): %d", r.param);
    CHECK(route_c(&r, 'M', 4, 100, 0, 1, 2, 1) == 0 && r.param == 2 &&
              r.shape == blx_alg_multiring.combine_tree,
          "combine M uses NR_CO and the combine tree");
    CHECK(route_b(&r, 'x', 4, 100, 1, 1) == -1, "unknown letter accepted");
    CHECK(route_b(&r, '0', 4, 100, 1, 1) == -1, "0 is not a topology");
    CHECK(route_c(&r, '\0', 4, 100, 0, 1, 1, 1) == -1, "NUL is not a topology");
    CHECK(route_b(&r, ' ', 4, 8, 1, 1) == 0 && r.alg != NULL, "default broadcast");
    CHECK(route_c(&r, ' ', 4, 8, 1, 1, 1, 1) == 0 && r.alg != NULL && r.fixed_order, "default combine");
    /* the default's choices that follow from the model whatever its numbers */
    for (int np = 2; np <= 1024; np *= 4) {
        CHECK(route_b(&r, ' ', np, 8, 1, 1) == 0 && r.alg == &blx_alg_general_tree && r.param >= 1,
              "8 B broadcast on %d: %s, not a tree (binomial or of some radix)", np, r.alg->name);
        CHECK(route_c(&r, ' ', np, 8, 1, 1, 1, 1) == 0 && r.alg == &blx_alg_hypercube,
              "8 B leave-on-all combine on %d: %s, not the exchange", np, r.alg->name);
        CHECK(route_c(&r, ' ', np, 8, 0, 1, 1, 1) == 0 && r.alg == &blx_alg_general_tree,
              "8 B leave-on-one combine on %d: %s, not the binomial fan-in", np, r.alg->name);
        CHECK(route_c(&r, ' ', np, 1 << 20, 1, 0, 1, 1) == 0 && r.alg != &blx_alg_rabenseifner,
              "a combine with locations cannot be cut, yet %s on %d", r.alg->name, np);
    }
    /* one edge (2 processes): nothing to pipeline, the message goes whole
     * along the binomial tree's edge, here and on a network; a sum to one
     * takes the binomial fan-in here (measured against reduce-scatter +
     * gather: doc/guide.md) */
    for (size_t n = 8; n <= (8 << 20); n *= 8) {
        CHECK(route_b(&r, ' ', 2, n, 1, 1) == 0 && r.alg == &blx_alg_general_tree,
              "%zu B broadcast on 2: %s, not the binomial tree", n, r.alg->name);
        CHECK(route_c(&r, ' ', 2, n, 0, 1, 1, 1) == 0 && r.alg == &blx_alg_general_tree,
              "%zu B leave-on-one combine on 2: %s, not the binomial fan-in", n, r.alg->name);
        const blx_algorithm *t = network_choice(0, 2, n);
        CHECK(t == &blx_alg_general_tree, "network, %zu B broadcast on 2: %s, not the binomial tree", n,
              t->name);
    }
    CHECK(route_c(&r, 'I', 4, 64, 0, 1, 1, 1) == 0 && !r.fixed_order, "letters keep arrival order");
    /* LAWN 73's letters, each once: the registry answers to exactly these */
    const char *lawn73 = " IDSMFH123456789T", *letters = blx_algorithm_letters();
    CHECK(strlen(letters) == strlen(lawn73), "registry letters '%s' against LAWN 73's '%s'", letters, lawn73);
    for (const char *l = lawn73; *l; l++)
        CHECK(strchr(letters, *l) != NULL && strchr(letters, *l) == strrchr(letters, *l),
              "letter '%c' appears %s in the registry's '%s'", *l, strchr(letters, *l) ? "twice" : "not",
              letters);
    for (const char *l = letters; *l; l++) {
        CHECK(route_b(&r, *l, 7, 64, 2, 2) == 0, "broadcast letter '%c' refused", *l);
        CHECK(route_c(&r, *l, 7, 64, 0, 1, 2, 2) == 0, "combine letter '%c' refused", *l);
        CHECK(route_c(&r, *l, 7, 64, 1, 1, 2, 2) == 0, "leave-on-all letter '%c' refused", *l);
    }
}

/* A scope's remembered choices are the ones the default weighs afresh: every
 * operation and size in turn, round after round, more keys than the cache
 * holds (so that choices are evicted and weighed again), under two models. */
static void check_route_cache(void)
{
    const char *models[] = {"", "alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=1"};
    const size_t sizes[] = {8, 1024, 8192, 65536, 262144, 1 << 20, 8 << 20};
    for (int k = 0; k < 2; k++)
        for (int np = 2; np <= 64; np *= 4) {
            blx_model m = blx_model_default();
            CHECK(blx_model_parse(models[k], &m) == 0, "model '%s'", models[k]);
            blx_tree_cache trees = {0}, fresh_trees = {0};
            blx_route_cache routes = {0};
            for (int round = 0; round < 3; round++)
                for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
                    for (int op = 0; op < 5; op++) {
                        int all = op >= 3, split = op == 2 || op == 4;
                        blx_route_in in = {np,      sizes[z], all,  split, 1,    1, &m,  &trees,
                                           &routes, NULL,     NULL, 0,     NULL, 0, NULL};
                        blx_route_in fresh = {np,   sizes[z], all,  split, 1,    1, &m,  &fresh_trees,
                                              NULL, NULL,     NULL, 0,     NULL, 0, NULL};
                        blx_route a, b;
                        if (op == 0) {
                            blx_route_bcast(&a, ' ', &in);
                            blx_route_bcast(&b, ' ', &fresh);
                        } else {
                            blx_route_combine(&a, ' ', &in);
                            blx_route_combine(&b, ' ', &fresh);
                        }
                        CHECK(a.alg == b.alg && a.shape == b.shape && a.shape2 == b.shape2 &&
                                  a.key == b.key && a.param == b.param && a.fixed_order == b.fixed_order,
                              "np %d, %zu bytes, op %d: the remembered choice %s differs from %s", np,
                              sizes[z], op, a.alg->name, b.alg->name);
                    }
            blx_tree_cache_free(&trees);
            blx_tree_cache_free(&fresh_trees);
        }
    /* the last BLX_ROUTE_CACHE keys asked for are recalled, not weighed
     * again: their slots are marked, and the mark comes back */
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route_cache routes = {0};
    blx_route r;
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < BLX_ROUTE_CACHE; k++) {
            size_t bytes = (size_t)(8 + k % 8) << (k / 8); /* each its own size class */
            blx_route_in in = {16, bytes, 0, 0, 1, 1, &m, &trees, &routes, NULL, NULL, 0, NULL, 0, NULL};
            blx_route_bcast(&r, ' ', &in);
            CHECK(round == 0 || r.param == -7, "%zu bytes weighed again in round 2", bytes);
            CHECK(round == 1 || routes.clock == (unsigned long)k + 1,
                  "%zu bytes: not kept as a class of its own", bytes);
            if (round == 0 && k == BLX_ROUTE_CACHE - 1)
                for (int i = 0; i < BLX_ROUTE_CACHE; i++)
                    routes.slot[i].route.param = -7;
        }
    /* sizes that share their four leading bits share a choice (a panel's
     * columns, a little shorter at each call): 3840 to 4095 bytes recall
     * the slot 3840 filled; 4096 and 3839 are weighed */
    routes = (blx_route_cache){0};
    blx_route_in in = {16, 3840, 1, 1, 1, 1, &m, &trees, &routes, NULL, NULL, 0, NULL, 0, NULL};
    blx_route_combine(&r, ' ', &in);
    CHECK(routes.slot[routes.last].bytes == 3840, "3840 bytes: kept as %zu", routes.slot[routes.last].bytes);
    for (int i = 0; i < BLX_ROUTE_CACHE; i++)
        routes.slot[i].route.param = -7;
    for (in.bytes = 3841; in.bytes < 4096; in.bytes += 17) {
        blx_route_combine(&r, ' ', &in);
        CHECK(r.param == -7, "%zu bytes weighed again, not recalled as 3840", in.bytes);
    }
    const size_t apart[][2] = {{4096, 4096}, {3839, 3584}, {1 << 20, 1 << 20}, {15, 15}, {17, 16}};
    for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++) {
        in.bytes = apart[i][0];
        blx_route_combine(&r, ' ', &in);
        CHECK(r.param != -7 && routes.slot[routes.last].bytes == apart[i][1],
              "%zu bytes: recalled from 3840's slot, or kept as %zu, not %zu", apart[i][0],
              routes.slot[routes.last].bytes, apart[i][1]);
    }
    /* a scope of one moves nothing: no weighing, nothing kept */
    routes = (blx_route_cache){0};
    in.np = 1;
    for (in.bytes = 8; in.bytes < 100000; in.bytes *= 3) {
        blx_route_combine(&r, ' ', &in);
        blx_route_bcast(&r, ' ', &in);
    }
    CHECK(routes.clock == 0, "a scope of one weighed its routes (%lu kept)", routes.clock);
    blx_tree_cache_free(&trees);
}

/* A message sent whole down a k-nomial tree: the sends in flight share the
 * link, so a batch of w arrives together after alpha + w n beta.  Radix 4
 * on 16 (general_tree:3): the root sends to 12, 8, 4 then 3, 2, 1; 4, 8
 * and 12 to their next three.  64 KiB, alpha 2.9 us, beta 2.3e-11 s/B (n
 * beta 1.51 us), no overhead.  One level's three at once: the last leaf in
 * 2 alpha + 6 n beta = 14.84 us.  One at a time: 6 (alpha + n beta) =
 * 26.44 us; two (the latency's window): 4 alpha + 7 n beta = 22.15 us
 * (the alphas of one leaf, the bytes of another); four: 2 alpha + 7 n
 * beta; all six: 2 alpha + 9 n beta (the root's six, then three more). */
static void check_whole_window(void)
{
    blx_model m = blx_model_default();
    CHECK(blx_model_parse("alpha=2.9e-6,beta=2.3e-11,gamma=0,overhead=0,window=1", &m) == 0, "model refused");
    blx_tree *t = blx_tree_build(16, blx_alg_general_tree.tree, '3', 3);
    size_t n = 65536;
    blx_plan plan = blx_model_tree_plan(&m, t, n, 8);
    double time = blx_model_tree_time(&m, t, n), want = 2 * 2.9e-6 + 6 * (double)n * 2.3e-11;
    CHECK(plan.piece > n && plan.window == 3 && fabs(time - want) < 1e-12,
          "radix 4 on 16, 64 KiB whole: window %d (want 3), piece %zu, %.3f us (want %.3f)", plan.window,
          plan.piece, time * 1e6, want * 1e6);
    blx_steps two = blx_model_tree_steps(&m, t, -2), all = blx_model_tree_steps(&m, t, -6);
    CHECK(two.la == 4 && two.lb == 7 && all.la == 2 && all.lb == 9, "whole steps: W 2 (%g, %g), 6 (%g, %g)",
          two.la, two.lb, all.la, all.lb);
    blx_tree_free(t);
}

/* The combines' cost formulas over nodes, against hand-computed values
 * (node alpha 0.1 us, beta 1e-11 s/B; network alpha 2 us, beta 5e-11 s/B;
 * no overhead, gamma 0 or 1e-11).  The ring (ring_allreduce.c): 2 (np - 1)
 * steps of one np-th each, at the slowest hop's price, the network's on a
 * scope over nodes, whatever the placement.  Halving (rabenseifner.c):
 * each level where its pairs are, a card carrying its node's crossings. */
static void check_combine_costs(void)
{
    blx_model on = blx_model_default(), off = on, flat = on;
    CHECK(blx_model_parse("alpha=1e-7,beta=1e-11,gamma=0,overhead=0,window=2,overlap=1", &on) == 0 &&
              blx_model_parse("alpha=2e-6,beta=5e-11,gamma=0,overhead=0,window=1,overlap=1", &off) == 0 &&
              blx_model_parse("alpha=1e-6,beta=1e-10,gamma=1e-11,overhead=0,window=1,overlap=1", &flat) == 0,
          "models refused");
    /* one level: 10 steps of 1 us + 100000 B, the folds of 5 blocks */
    blx_route_in in = {
        .np = 6, .bytes = 600000, .leave_on_all = 1, .splittable = 1, .model = &flat, .unit = 8};
    double t = blx_alg_ring_allreduce.combine_cost(&in, 0, NULL, NULL), want = 10 * 11e-6 + 5 * 1e5 * 1e-11;
    CHECK(fabs(t - want) < 1e-12, "ring of 6, one level: %.4f us, %.4f expected", t * 1e6, want * 1e6);
    /* 3 nodes of 2, by rank and round robin: 10 steps between nodes, 7 us each */
    static const int by_rank[6] = {0, 0, 1, 1, 2, 2}, dealt[6] = {0, 1, 2, 0, 1, 2},
                     rank[6] = {0, 1, 2, 3, 4, 5};
    blx_model across = blx_model_across(&off, 2);
    for (int k = 0; k < 2; k++) {
        blx_nodes *n = blx_nodes_build(6, k ? dealt : by_rank, rank, &on, &off);
        in.nodes = n, in.model = &across;
        t = blx_alg_ring_allreduce.combine_cost(&in, 0, NULL, NULL), want = 10 * 7e-6;
        CHECK(n && fabs(t - want) < 1e-12, "ring of 6 on 3 nodes (%s): %.4f us, %.4f expected",
              k ? "round robin" : "by rank", t * 1e6, want * 1e6);
        blx_nodes_free(n);
    }
    /* halving of 800000 B on 2 nodes of 4, radix 2, both ways: two levels
     * on the nodes (pieces of 400000 and 200000 B), one across, where each
     * card carries 4 pieces of 100000 B; by rank and round robin alike */
    static const int two[8] = {0, 0, 0, 0, 1, 1, 1, 1}, two_dealt[8] = {0, 1, 0, 1, 0, 1, 0, 1},
                     rank8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    across = blx_model_across(&off, 4);
    want = 2 * ((1e-7 + 4e5 * 1e-11) + (1e-7 + 2e5 * 1e-11) + (2e-6 + 4 * 1e5 * 5e-11));
    for (int k = 0; k < 2; k++) {
        blx_nodes *n = blx_nodes_build(8, k ? two_dealt : two, rank8, &on, &off);
        in = (blx_route_in){.np = 8,
                            .bytes = 800000,
                            .leave_on_all = 1,
                            .splittable = 1,
                            .model = &across,
                            .nodes = n,
                            .unit = 8};
        t = blx_alg_rabenseifner.combine_cost(&in, 2, NULL, NULL);
        CHECK(n && fabs(t - want) < 1e-12, "halving of 8 on 2 nodes of 4 (%s): %.4f us, %.4f expected",
              k ? "round robin" : "by rank", t * 1e6, want * 1e6);
        blx_nodes_free(n);
    }
    /* one process a node (a flat cluster, where the node's beta, compiled
     * in, may be the slower): every level across, no card shared */
    static const int flat8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    blx_model slow = on;
    slow.beta = 2.5e-10;
    blx_nodes *n = blx_nodes_build(8, flat8, rank8, &slow, &off);
    in.nodes = n, in.model = &off;
    t = blx_alg_rabenseifner.combine_cost(&in, 2, NULL, NULL);
    want = 2 * (8e5 * 0.875 * 5e-11 + 3 * 2e-6);
    CHECK(n && fabs(t - want) < 1e-12, "halving of 8 on 8 nodes: %.4f us, %.4f expected", t * 1e6,
          want * 1e6);
    blx_nodes_free(n);
    /* 6 on 3 nodes of 2 by rank: 5 folds into 4 and 3 into 2 on their
     * nodes (the node's model, both ways), the places 0 1 2 4; the first
     * halving crosses for one pair (its card carries 400000 B), the second
     * for all (each card 2 pieces of 200000 B) */
    n = blx_nodes_build(6, by_rank, rank, &on, &off);
    in.np = 6, in.nodes = n, in.model = &across;
    t = blx_alg_rabenseifner.combine_cost(&in, 2, NULL, NULL);
    want = 2 * ((2e-6 + 4e5 * 5e-11) + (2e-6 + 2 * 2e5 * 5e-11)) + 2 * (1e-7 + 8e5 * 1e-11);
    CHECK(n && fabs(t - want) < 1e-12, "halving of 6 on 3 nodes of 2: %.4f us, %.4f expected", t * 1e6,
          want * 1e6);
    blx_nodes_free(n);
    in.np = 8, in.nodes = NULL, in.model = &across; /* one level: every halving at the scope's prices */
    t = blx_alg_rabenseifner.combine_cost(&in, 2, NULL, NULL);
    want = 2 * (8e5 * 0.875 * 2e-10 + 3 * 2e-6);
    CHECK(fabs(t - want) < 1e-12, "halving of 8, one level: %.4f us, %.4f expected", t * 1e6, want * 1e6);
}

int main(void)
{
    check_algorithm_table();
    check_forced();
    check_route_cache();
    for (int np = 1; np <= 64; np++) {
        check_bcast_schedules(np);
        check_combine_trees(np);
    }
    check_registry();
    check_network_choices();
    check_radix();
    check_model_file();
    check_mpi_costs();
    check_whole_window();
    check_combine_costs();
    /* the pictures in the topology files */
    blx_tree *t = blx_tree_build(9, blx_alg_general_tree.tree, '2', 2);
    CHECK(t && blx_tree_nkids(t, 0) == 4 && blx_tree_kids(t, 0)[0] == 6 && blx_tree_kids(t, 0)[1] == 3 &&
              blx_tree_kids(t, 0)[2] == 2 && blx_tree_kids(t, 0)[3] == 1,
          "N_b = 2, np = 9 tree differs from general_tree.c's picture");
    blx_tree_free(t);
    t = blx_tree_build(8, blx_alg_multiring.tree, 'M', 3);
    CHECK(t && blx_tree_nkids(t, 0) == 3 && blx_tree_kids(t, 0)[1] == 4 && blx_tree_kids(t, 0)[2] == 6 &&
              t->parent[3] == 2 && t->parent[5] == 4 && t->parent[7] == 6,
          "multiring np = 8, N_r = 3 differs from multiring.c's picture");
    blx_tree_free(t);
    printf("test_trees: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
