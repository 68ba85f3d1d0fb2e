/*
 * tools/explain.c - topo_table --explain: why the default TOP ' ' chooses
 * what it chooses, for a scope, a placement, a model, an operation and a
 * size, from the library's own weighing (topologies/default.c tells every
 * candidate it weighs, with its modelled time, to blx_route_in.explain).
 *
 *   topo_table --explain OP BYTES NP [--nodes N[:cyclic]] [--file PATH]
 *                        [--model TEXT] [--depth D]
 *
 * OP: bcast, reduce (leave-on-one) or allreduce (leave-on-all), of BYTES of
 * doubles; NP: the scope's members, grid processes 0 .. NP-1; --nodes: as
 * BLACS_NODES places them (N nodes, blocks of ceil(NP/N) consecutive
 * processes, or dealt out round robin); --file: a tuning file
 * (blacs-tune's); --model: BLACS_MODEL's syntax over the compiled-in
 * models (or the file's): what BLACS_MODEL gives, or what a grid across
 * nodes would measure (net.alpha, net.beta, gamma, node.alpha, node.beta).
 * The models are set up as blacs/machine.c does, but for what only a
 * running grid knows: nothing is measured here, and more processes than
 * processors (blx_model_crowd) is not assumed.
 *
 * Prints every candidate with its modelled time, '*' on the cheapest of
 * each choice (the first on a tie, as the library takes), and under each
 * candidate, to depth D (default 2), the choices its cost made (its levels,
 * the broadcast that spreads a gathered result); then the choice, and for a
 * tree its plan (pieces and sends in flight).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../topologies/nodes.h"
#include "../topologies/topology.h"
#include "explain.h"

static const char *const op_names[BLX_NCOLL] = {"bcast", "reduce", "allreduce"};

/* One candidate as weighed, with the choices its cost made (kids). */
typedef struct entry {
    int depth, op, np;
    size_t bytes;
    blx_route r;
    double cost;
    int *kids, nkids;
} entry;

typedef struct {
    blx_explain x;
    entry *e;
    int n, cap;
    int *pending[64]; /* per depth: the entries since the last one a level up */
    int npending[64], cap_pending[64];
} trace;

static void *grow(void *p, int *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 64;
    p = realloc(p, (size_t)*cap * size);
    if (p == NULL) {
        fprintf(stderr, "topo_table: out of memory\n");
        exit(1);
    }
    return p;
}

static void weighed(blx_explain *x, blx_coll op, const blx_route_in *in, const blx_route *r, double cost)
{
    trace *t = (trace *)x;
    int d = x->depth < 62 ? x->depth : 62;
    if (t->n == t->cap)
        t->e = grow(t->e, &t->cap, sizeof *t->e);
    entry *e = &t->e[t->n];
    *e = (entry){d, op, in->np, in->bytes, *r, cost, t->pending[d + 1], t->npending[d + 1]};
    t->pending[d + 1] = NULL, t->npending[d + 1] = t->cap_pending[d + 1] = 0;
    if (t->npending[d] == t->cap_pending[d])
        t->pending[d] = grow(t->pending[d], &t->cap_pending[d], sizeof(int));
    t->pending[d][t->npending[d]++] = t->n++;
}

/* A route as BLACS_ALGORITHM names it, and in words. */
static void route_words(const blx_route *r, char *buf, size_t len)
{
    if (r->alg == &blx_alg_general_tree && r->param == 1)
        snprintf(buf, len, "general_tree:1 (binomial tree)");
    else if (r->alg == &blx_alg_general_tree)
        snprintf(buf, len, "general_tree:%d (tree of radix %d)", r->param, r->param + 1);
    else if (r->alg->flags & BLX_ALG_RADIX)
        snprintf(buf, len, "%s:%d (%s, radix %d)", r->alg->name, r->param, r->alg->title, r->param);
    else
        snprintf(buf, len, "%s (%s)", r->alg->name, r->alg->title);
}

/* A list of entries, by runs of one choice (the same depth, op, scope and
 * size), the cheapest of each run starred, each entry's kids under it. */
static void print_list(const trace *t, const int *list, int n, int max_depth)
{
    for (int i = 0; i < n;) {
        const entry *a = &t->e[list[i]];
        int j = i, best = i;
        while (j < n && t->e[list[j]].op == a->op && t->e[list[j]].np == a->np &&
               t->e[list[j]].bytes == a->bytes) {
            if (t->e[list[j]].cost < t->e[list[best]].cost)
                best = j;
            j++;
        }
        int ind = 2 * a->depth, kids = 1;
        for (int k = i; k < j; k++) {
            const entry *e = &t->e[list[k]];
            char w[128];
            route_words(&e->r, w, sizeof w);
            if (kids) /* the choice's heading, again after a candidate's own choices */
                printf("%*s%s of %zu B on %d members%s:\n", ind - 2, "", op_names[a->op], a->bytes, a->np,
                       k > i ? " (continued)" : "");
            printf("%*s%c %-*s %12.2f us\n", ind, "", k == best ? '*' : ' ', 64 - ind, w, e->cost * 1e6);
            kids = e->depth < max_depth && e->nkids > 0;
            if (kids)
                print_list(t, e->kids, e->nkids, max_depth);
        }
        i = j;
    }
}

static void print_model(const char *what, const blx_model *m)
{
    printf("%-28s alpha=%g beta=%g gamma=%g overhead=%g window=%d overlap=%d\n", what, m->alpha, m->beta,
           m->gamma, m->overhead, m->window, m->overlap);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = malloc((64 << 10) + 1);
    size_t n = f != NULL && text != NULL ? fread(text, 1, 64 << 10, f) : 0;
    if (f == NULL || text == NULL || ferror(f)) {
        fprintf(stderr, "topo_table: cannot read '%s'\n", path);
        exit(1);
    }
    fclose(f);
    text[n] = '\0';
    return text;
}

static int usage(void)
{
    fprintf(stderr, "usage: topo_table --explain bcast|reduce|allreduce BYTES NP [--nodes N[:cyclic]] "
                    "[--file PATH] [--model TEXT] [--depth D]\n");
    return 2;
}

/* The models as machine.c sets them up: compiled in, a file, --model. */
static void models(const char *file, const char *text, blx_model m[2], blx_mpi_costs *mpi)
{
    m[0] = blx_model_default();
    m[1] = blx_model_network(&m[0]);
    int net;
    if (file != NULL && blx_model_parse_file(read_text(file), &m[0], &m[1], &net, mpi) != 0) {
        fprintf(stderr, "topo_table: '%s' is not a tuning file\n", file);
        exit(1);
    }
    if (text != NULL && blx_model_parse_levels(text, &m[0], &m[1]) != 0) {
        fprintf(stderr, "topo_table: '%s' is not a model (BLACS_MODEL's syntax)\n", text);
        exit(1);
    }
}

int blx_tool_explain(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    int op = -1, np = atoi(argv[2]), nodes = 1, cyclic = 0, depth = 2;
    long long bytes = atoll(argv[1]);
    const char *file = NULL, *text = NULL;
    for (int i = 0; i < BLX_NCOLL; i++)
        op = strcmp(argv[0], op_names[i]) == 0 ? i : op;
    for (int a = 3; a < argc; a += 2) {
        if (a + 1 >= argc)
            return usage();
        if (strcmp(argv[a], "--nodes") == 0)
            nodes = atoi(argv[a + 1]), cyclic = strstr(argv[a + 1], ":cyclic") != NULL;
        else if (strcmp(argv[a], "--file") == 0)
            file = argv[a + 1];
        else if (strcmp(argv[a], "--model") == 0)
            text = argv[a + 1];
        else if (strcmp(argv[a], "--depth") == 0)
            depth = atoi(argv[a + 1]);
        else
            return usage();
    }
    if (op < 0 || np < 1 || bytes < 0 || nodes < 1 || nodes > np)
        return usage();
    blx_model m[2];
    static blx_mpi_costs mpi;
    models(file, text, m, &mpi);
    int *id = malloc(2 * (size_t)np * sizeof *id), *rank = id + np, block = (np + nodes - 1) / nodes;
    for (int r = 0; id != NULL && r < np; r++)
        id[r] = cyclic ? r % nodes : r / block, rank[r] = r;
    blx_nodes *n = id != NULL ? blx_nodes_build(np, id, rank, &m[0], &m[1]) : NULL;
    if (n == NULL)
        return fprintf(stderr, "topo_table: out of memory\n"), 1;
    blx_model scope = n->nn == 1 ? m[0] : blx_model_across(&m[1], n->most);
    printf("scope: %d members on %d node%s (at most %d a node, %s); %s of %lld B of doubles\n", np, n->nn,
           n->nn > 1 ? "s" : "", n->most, cyclic ? "round robin" : "by node", op_names[op], bytes);
    print_model("model on a node:", &m[0]);
    print_model("between nodes:", &m[1]);
    print_model("the scope's one level:", &scope);
    if (n->nn > 1 && text == NULL && file == NULL)
        printf("(nothing measured here: a grid across nodes measures the network and the node, unless "
               "BLACS_MODEL or a tuning file gives them; pass what it found with --model)\n");
    if (mpi.n > 0)
        printf("MPI's collectives: %d shapes measured (the file's)\n", mpi.n);
    trace t = {{weighed, 0}, NULL, 0, 0, {NULL}, {0}, {0}};
    blx_tree_cache trees = {0};
    blx_route r;
    blx_route_in in = {np,
                       (size_t)bytes,
                       op == BLX_ALLREDUCE,
                       1,
                       1,
                       1,
                       &scope,
                       &trees,
                       NULL,
                       NULL,
                       n,
                       1,
                       mpi.n > 0 ? &mpi : NULL,
                       8,
                       &t.x};
    if (op == BLX_BCAST)
        blx_route_bcast(&r, ' ', &in);
    else
        blx_route_combine(&r, ' ', &in);
    printf("\n");
    print_list(&t, t.pending[1], t.npending[1], depth);
    char w[128];
    route_words(&r, w, sizeof w);
    printf("\nchosen: %s\n", w);
    const blx_tree *tree = r.shape != NULL ? blx_tree_cached(&trees, np, r.shape, r.key, r.param) : NULL;
    if (tree != NULL && bytes > 0) {
        blx_plan p = blx_model_tree_plan(&scope, tree, (size_t)bytes, 8);
        printf("plan: pieces of %zu B, %d sends in flight a node%s\n", p.piece, p.window,
               p.lead ? ", staggered" : "");
    }
    blx_tree_cache_free(&trees);
    blx_nodes_free(n);
    free(id);
    return 0;
}
