/*
 * topologies/tree.c - building and checking communication trees; see tree.h.
 */
#include "tree.h"

#include <stdlib.h>

void blx_tree_free(blx_tree *t)
{
    if (t == NULL)
        return;
    free(t->parent);
    free(t->step);
    free(t->first);
    free(t->kids);
    free(t->memo);
    free(t);
}

void blx_tree_edge(blx_tree *t, int parent, int child, int step)
{
    /* Recorded in emission order; blx_tree_build sorts them by parent.  A
     * shape that names a node twice or out of range is caught there. */
    if (child <= 0 || child >= t->np || parent < 0 || parent >= t->np || t->parent[child] != -2 ||
        t->nedges >= t->np - 1) {
        t->nedges = t->np; /* poison: the build fails */
        return;
    }
    t->parent[child] = parent;
    t->step[child] = step;
    t->kids[t->nedges++] = child;
}

void blx_tree_chain(blx_tree *t, int from, int first, int len, int dir, int step)
{
    int prev = from, node = first;
    for (int k = 0; k < len; k++) {
        blx_tree_edge(t, prev, node, step + k);
        prev = node;
        node = ((node + dir) % t->np + t->np) % t->np;
    }
}

static blx_tree *tree_alloc(int np)
{
    blx_tree *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->np = np;
    t->parent = malloc((size_t)np * sizeof *t->parent);
    t->step = calloc((size_t)np, sizeof *t->step);
    t->first = calloc((size_t)np + 1, sizeof *t->first);
    t->kids = malloc((size_t)(np > 1 ? np - 1 : 1) * sizeof *t->kids);
    t->memo = calloc(1, sizeof *t->memo);
    if (!t->parent || !t->step || !t->first || !t->kids || !t->memo) {
        blx_tree_free(t);
        return NULL;
    }
    for (int r = 0; r < np; r++)
        t->parent[r] = -2; /* not reached yet */
    t->parent[0] = -1;
    return t;
}

/* A spanning tree: np - 1 edges, every node but the root has a parent that
 * receives strictly earlier (so there is no cycle). */
static int spanning(const blx_tree *t)
{
    int ok = t->nedges == t->np - 1;
    for (int r = 1; ok && r < t->np; r++)
        ok = t->parent[r] >= 0 && t->step[r] > t->step[t->parent[r]];
    return ok;
}

/* Groups the children (recorded in emission order) by parent, keeping each
 * parent's send order; 0, or -1 if out of memory. */
static int group_by_parent(blx_tree *t)
{
    int np = t->np;
    int *order = malloc((size_t)(np > 1 ? np - 1 : 1) * sizeof *order),
        *fill = calloc((size_t)np, sizeof *fill);
    if (order == NULL || fill == NULL) {
        free(order);
        free(fill);
        return -1;
    }
    for (int e = 0; e < np - 1; e++)
        t->first[t->parent[t->kids[e]] + 1]++;
    for (int r = 0; r < np; r++)
        t->first[r + 1] += t->first[r];
    for (int e = 0; e < np - 1; e++) {
        int c = t->kids[e], p = t->parent[c];
        order[t->first[p] + fill[p]++] = c;
    }
    free(fill);
    free(t->kids);
    t->kids = order;
    return 0;
}

blx_tree *blx_tree_build(int np, blx_tree_shape shape, char key, int param)
{
    blx_tree *t = tree_alloc(np);
    if (t == NULL)
        return NULL;
    shape(t, key, param);
    if (!spanning(t) || group_by_parent(t) != 0) {
        blx_tree_free(t);
        return NULL;
    }
    for (int r = 0; r < np; r++)
        t->nsteps = t->step[r] > t->nsteps ? t->step[r] : t->nsteps;
    return t;
}

const blx_tree *blx_tree_cached(blx_tree_cache *c, int np, blx_tree_shape shape, char key, int param)
{
    struct blx_tree_slot *victim = &c->slot[0];
    for (int i = 0; i < BLX_TREE_CACHE; i++) {
        struct blx_tree_slot *s = &c->slot[i];
        if (s->tree && s->tree->np == np && s->shape == shape && s->key == key && s->param == param) {
            s->used = ++c->clock;
            return s->tree;
        }
        if (s->used < victim->used)
            victim = s;
    }
    blx_tree *t = blx_tree_build(np, shape, key, param);
    if (t == NULL)
        return NULL;
    blx_tree_free(victim->tree);
    *victim = (struct blx_tree_slot){shape, key, param, t, ++c->clock};
    return t;
}

void blx_tree_cache_free(blx_tree_cache *c)
{
    for (int i = 0; i < BLX_TREE_CACHE; i++)
        blx_tree_free(c->slot[i].tree);
    *c = (blx_tree_cache){0};
}
