/*
 * topologies/nodes.c - a scope's nodes; see nodes.h.
 */
#include "nodes.h"

#include <stdlib.h>

/* A member and its node's name; a node's members, from its first. */
typedef struct {
    int id, k;
} member;
typedef struct {
    int first, at, size; /* first member; where its members stand in the sorted members */
} group;

static int by_node(const void *a, const void *b)
{
    const member *x = a, *y = b;
    return x->id != y->id ? (x->id < y->id ? -1 : 1) : x->k - y->k;
}

static int by_first(const void *a, const void *b)
{
    return ((const group *)a)->first - ((const group *)b)->first;
}

/* Fills n's tables from the members sorted by node (m) and their nodes (g,
 * sorted by first member). */
static void fill(blx_nodes *n, const member *m, const group *g, const int *rank)
{
    int at = 0;
    for (int j = 0; j < n->nn; j++) {
        n->start[j] = at;
        for (int i = g[j].at; i < g[j].at + g[j].size; i++) {
            int k = m[i].k;
            n->node[k] = j;
            n->pos[k] = at;
            n->rank[at] = rank[k];
            n->order[at++] = k;
        }
        n->most = g[j].size > n->most ? g[j].size : n->most;
    }
    n->start[n->nn] = n->np;
}

/* The crossing bits from member root of the first limit places (at[k]:
 * the member numbered from root at place k; NULL: k), counting the pairs of
 * every step-th place. */
static int crossing(const blx_nodes *n, int root, int limit, int step, const int *at)
{
    int cross = 0;
    for (int b = 1; b > 0 && b < limit; b <<= 1) {
        int pairs = 0, apart = 0;
        for (int k = 0; k < limit; k += step)
            if ((k ^ b) < limit) {
                int i = at != NULL ? at[k] : k, j = at != NULL ? at[k ^ b] : k ^ b;
                pairs++;
                apart += n->node[(i + root) % n->np] != n->node[(j + root) % n->np];
            }
        if (2 * apart > pairs)
            cross |= b;
    }
    return cross;
}

int blx_nodes_cross_from(const blx_nodes *n, int root, int limit, const int *at)
{
    /* at most 128 pairs a bit: every long combine by halving asks */
    int step = limit > 128 ? limit / 128 : 1;
    return root == 0 && limit == n->np && at == NULL ? n->cross : crossing(n, root, limit, step, at);
}

blx_nodes *blx_nodes_build(int np, const int *node_id, const int *rank, const blx_model *on,
                           const blx_model *off)
{
    blx_nodes *n = calloc(1, sizeof *n);
    int *mem = n != NULL ? malloc((size_t)(6 * np + 1) * sizeof *mem) : NULL;
    member *m = malloc((size_t)np * sizeof *m);
    group *g = malloc((size_t)np * sizeof *g);
    if (mem == NULL || m == NULL || g == NULL) {
        free(n), free(mem), free(m), free(g);
        return NULL;
    }
    int *start = mem + 3 * np, *after = start + np + 1; /* start has nn + 1 <= np + 1 entries */
    *n = (blx_nodes){np, 0, 0, mem, mem + np, mem + 2 * np, start, after, after + np, 0, *on, *off, *off};
    for (int k = 0; k < np; k++)
        m[k] = (member){node_id[k], k};
    qsort(m, (size_t)np, sizeof *m, by_node);
    for (int i = 0; i < np; i++) {
        if (i == 0 || m[i].id != m[i - 1].id)
            g[n->nn++] = (group){m[i].k, i, 0};
        g[n->nn - 1].size++;
    }
    qsort(g, (size_t)n->nn, sizeof *g, by_first); /* number the nodes by their first member */
    fill(n, m, g, rank);
    n->cross = crossing(n, 0, n->np, 1, NULL);
    n->sliced = n->off;
    n->sliced.beta *= n->most;
    free(m);
    free(g);
    return n;
}

void blx_nodes_free(blx_nodes *n)
{
    if (n != NULL)
        free(n->node);
    free(n);
}
