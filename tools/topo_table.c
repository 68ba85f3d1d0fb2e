/*
 * tools/topo_table.c - prints each topology's broadcast schedule for given
 * scope sizes: steps, the source's sends, and sends per step, measured on
 * the trees the library builds (the LAWN 73 Table 9 quantities).
 *
 *   build/tools/topo_table 8 13
 *   build/tools/topo_table --letters     every TOP letter, the default ' ' first
 *   build/tools/topo_table --default     the default's choice by scope and message size,
 *                                        under BLACS_MODEL if set (else this machine's model)
 *   build/tools/topo_table --explain OP BYTES NP [...]  why the default chooses what it
 *                                        chooses: every candidate and its modelled time
 *                                        (tools/explain.c)
 *   build/tools/topo_table --forcings OP every BLACS_ALGORITHM item for OP (bcast, reduce,
 *                                        allreduce): each row that provides it, with each
 *                                        number it takes (the sweeps force them in turn)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../topologies/topology.h"
#include "explain.h"

static void row(const char *label, int np, char top, int nr, int nb)
{
    blx_route r;
    blx_model m = blx_model_default();
    blx_tree_cache trees = {0};
    blx_route_in in = {np, 1024, 0, 0, nr, nb, &m, &trees, NULL, NULL, NULL, 0, NULL, 0, NULL};
    int rc = blx_route_bcast(&r, top, &in);
    blx_tree_cache_free(&trees);
    if (rc != 0)
        return;
    blx_tree *t = blx_tree_build(np, r.shape, r.key, r.param);
    if (t == NULL)
        return;
    printf("| %-22s | %3d | %-16s | %5d | %12d | ", label, np, r.alg->title, t->nsteps, blx_tree_nkids(t, 0));
    for (int s = 1; s <= t->nsteps; s++) {
        int n = 0;
        for (int v = 1; v < np; v++)
            n += t->step[v] == s;
        printf("%s%d", s > 1 ? " " : "", n);
    }
    printf(" |\n");
    blx_tree_free(t);
}

/* The flags of every descriptor, as words. */
static void flags_table(void)
{
    static const struct {
        unsigned bit;
        const char *word;
    } names[] = {{BLX_ALG_PIPELINES, "pipelines"},
                 {BLX_ALG_USES_RINGS, "rings from BLACS_SET 11/13"},
                 {BLX_ALG_USES_BRANCHES, "branches from 12/14"},
                 {BLX_ALG_POWER_OF_TWO, "power-of-two broadcast"},
                 {BLX_ALG_LEAVE_ON_ALL_ONLY, "combine leave-on-all only"},
                 {BLX_ALG_REPEATABLE, "repeatable combine"},
                 {BLX_ALG_COHERENT, "coherent"},
                 {BLX_ALG_GATHERS, "leave-on-all: gathers, then broadcasts"},
                 {BLX_ALG_CUTS, "cuts the vector (no locations)"},
                 {BLX_ALG_LEVELS, "scopes over several nodes only (BLACS_NODES to try it on one)"},
                 {BLX_ALG_MPI, "MPI's own collective: sums of MPI's types; weighed from a tuning file"},
                 {BLX_ALG_NODE_ORDER, "broadcast: dimensions between nodes first"},
                 {BLX_ALG_SLICES, "sum to all in node slices"},
                 {BLX_ALG_RADIX, "a radix after ':' (2, 4 or 8)"}};
    printf("| keys | algorithm | name | flags |\n|---|---|---|---|\n");
    for (int t = 0; t < BLX_NALGORITHMS; t++) {
        const blx_algorithm *a = blx_algorithms[t];
        printf("| %s | %s | %s |", a->keys[0] ? a->keys : "(default only)", a->title, a->name);
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (a->flags & names[k].bit)
                printf(" %s;", names[k].word);
        printf("\n");
    }
    printf("\n");
}

/* A route in words: trees with their radix. */
static const char *route_name(const blx_route *r, char *buf, size_t len)
{
    if (r->alg == &blx_alg_general_tree)
        snprintf(buf, len, r->param == 1 ? "binomial tree" : "tree of radix %d", r->param + 1);
    else
        snprintf(buf, len, "%s", r->alg->title);
    return buf;
}

/* The default's algorithm for every (scope size, size) of a table. */
static void default_table(void)
{
    blx_model m = blx_model_default();
    const char *text = getenv("BLACS_MODEL");
    if (text != NULL && blx_model_parse(text, &m) != 0) {
        fprintf(stderr, "topo_table: BLACS_MODEL='%s' is not a model\n", text);
        exit(1);
    }
    static const int nps[] = {2, 3, 4, 8, 16, 64, 256, 1024};
    static const size_t sizes[] = {8, 1 << 10, 8 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20};
    static const char *const names[] = {"8 B", "1 KiB", "8 KiB", "64 KiB", "256 KiB", "1 MiB", "8 MiB"};
    printf("model: alpha=%g beta=%g gamma=%g overhead=%g window=%d overlap=%d\n\n", m.alpha, m.beta, m.gamma,
           m.overhead, m.window, m.overlap);
    static const char *const titles[BLX_NCOLL] = {"broadcast", "combine, leave-on-one",
                                                  "combine, leave-on-all"};
    for (int op = BLX_BCAST; op < BLX_NCOLL; op++) {
        printf("| %s | np |", titles[op]);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
            printf(" %s |", names[z]);
        printf("\n|---|---|");
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
            printf("---|");
        printf("\n");
        for (size_t k = 0; k < sizeof nps / sizeof nps[0]; k++) {
            blx_tree_cache trees = {0};
            printf("| | %d |", nps[k]);
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                blx_route r;
                blx_route_in in = {
                    nps[k], sizes[z], op == BLX_ALLREDUCE, 1, 1, 1, &m, &trees, NULL, NULL, NULL, 0, NULL,
                    0,      NULL};
                if (op == BLX_BCAST)
                    blx_route_bcast(&r, ' ', &in);
                else
                    blx_route_combine(&r, ' ', &in);
                char name[64];
                printf(" %s |", route_name(&r, name, sizeof name));
            }
            printf("\n");
            blx_tree_cache_free(&trees);
        }
        printf("\n");
    }
}

/* The items BLACS_ALGORITHM takes for op, as its own parser judges them. */
static void forcings(const char *op)
{
    const int nums[] = {0, 1, 2, 3, 4, 8};
    for (int i = 0; i < BLX_NALGORITHMS; i++)
        for (size_t j = 0; j < sizeof nums / sizeof nums[0]; j++) {
            char item[64], why[160];
            snprintf(item, sizeof item, nums[j] ? "%s=%s:%d" : "%s=%s", op, blx_algorithms[i]->name, nums[j]);
            blx_forced f = blx_forced_none();
            if (blx_forced_parse(item, &f, why, sizeof why) == 0)
                printf("%s\n", item);
        }
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--forcings") == 0) {
        forcings(argv[2]);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--default") == 0) {
        default_table();
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--explain") == 0)
        return blx_tool_explain(argc - 2, argv + 2);
    if (argc == 2 && strcmp(argv[1], "--letters") == 0) {
        printf("%s\n", blx_algorithm_letters());
        return 0;
    }
    flags_table();
    printf("| TOP                    |  np | tree             | steps | source sends | sends per step |\n");
    printf("|---|---|---|---|---|---|\n");
    for (int a = 1; a < argc; a++) {
        int np = atoi(argv[a]);
        row("I (increasing ring)", np, 'I', 1, 1);
        row("D (decreasing ring)", np, 'D', 1, 1);
        row("S (split ring)", np, 'S', 1, 1);
        row("M, N_r = 3", np, 'M', 3, 1);
        row("M, N_r = -2", np, 'M', -2, 1);
        row("F (fully connected)", np, 'F', 1, 1);
        row("H (hypercube)", np, 'H', 1, 1);
        for (char d = '1'; d <= '9'; d++) {
            char label[32];
            snprintf(label, sizeof label, "%c (tree, N_b = %c)", d, d);
            row(label, np, d, 1, 1);
        }
        row("T, N_b = 4", np, 'T', 1, 4);
        row("' ' (default, 1 KiB)", np, ' ', 1, 1);
    }
    return 0;
}
