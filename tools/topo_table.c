/*
 * tools/topo_table.c - prints each topology's broadcast schedule for given
 * scope sizes: steps, the source's sends, and sends per step, measured on
 * the trees the library builds (the LAWN 73 Table 9 quantities).
 *
 *   build/tools/topo_table 8 13
 */
#include <stdio.h>
#include <stdlib.h>

#include "../topologies/topology.h"

static void row(const char *label, int np, char top, int nr, int nb)
{
    blx_route r;
    if (blx_route_bcast(&r, top, np, 1024, nr, nb) != 0)
        return;
    blx_tree *t = blx_tree_build(np, r.shape, r.key, r.param);
    if (t == NULL)
        return;
    printf("| %-22s | %3d | %-16s | %5d | %12d | ", label, np, r.topo->name, t->nsteps,
           blx_tree_nkids(t, 0));
    for (int s = 1; s <= t->nsteps; s++) {
        int n = 0;
        for (int v = 1; v < np; v++)
            n += t->step[v] == s;
        printf("%s%d", s > 1 ? " " : "", n);
    }
    printf(" |\n");
    blx_tree_free(t);
}

int main(int argc, char **argv)
{
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
