/*
 * topologies/registry.c - the table of algorithms, TOP letter -> algorithm,
 * and the documented fallbacks.
 *
 * Fallbacks (every member computes them identically):
 *   broadcast 'H' on a scope whose size is not a power of two -> 1-tree;
 *   combine 'H' when the result goes to one process -> 1-tree (bidirectional
 *   exchange leaves the result everywhere; it handles any size itself);
 *   '1'..'9' and 'T' are one algorithm; N_b >= np - 1 is the same tree as
 *   N_b = np - 1 (the root reaches everybody in one level);
 *   'M' clamps |N_r| to np - 1.
 * Broadcasts 'H' take the scope's crossing bits as their number (BLX_ALG_NODE_ORDER,
 * nodes.h): on a scope over nodes, the dimensions between nodes go first.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

#define BLX_ALG_ROW(name) &blx_alg_##name,
const blx_algorithm *const blx_algorithms[BLX_NALGORITHMS] = {BLX_ALGORITHMS(BLX_ALG_ROW)};
#undef BLX_ALG_ROW

int blx_algorithm_index(const blx_algorithm *a)
{
    for (int i = 0; i < BLX_NALGORITHMS; i++)
        if (blx_algorithms[i] == a)
            return i;
    return -1;
}

static char upper(char c) { return (char)toupper((unsigned char)c); }

const blx_algorithm *blx_algorithm_find(char top)
{
    char key = upper(top);
    for (int i = 0; key != '\0' && i < BLX_NALGORITHMS; i++)
        if (strchr(blx_algorithms[i]->keys, key) != NULL)
            return blx_algorithms[i];
    return NULL;
}

static int by_char(const void *a, const void *b) { return *(const char *)a - *(const char *)b; }

const char *blx_algorithm_letters(void)
{
    static char letters[64];
    if (letters[0] == '\0') {
        size_t n = 1;
        for (int i = 0; i < BLX_NALGORITHMS; i++)
            for (const char *k = blx_algorithms[i]->keys; *k && n + 1 < sizeof letters; k++)
                letters[n++] = *k;
        qsort(letters + 1, n - 1, 1, by_char);
        letters[0] = ' ';
        letters[n] = '\0';
    }
    return letters;
}

static int clamp(long long v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : (int)v); }

int blx_route_letter(blx_route *r, char top, const blx_route_in *in, blx_coll op)
{
    char key = upper(top);
    const blx_algorithm *a = blx_algorithm_find(key);
    if (a == NULL)
        return -1;
    int np = in->np, most = np > 1 ? np - 1 : 1, combine = op != BLX_BCAST;
    int needs_fallback = combine ? (a->flags & BLX_ALG_LEAVE_ON_ALL_ONLY) && op != BLX_ALLREDUCE
                                 : (a->flags & BLX_ALG_POWER_OF_TWO) && !blx_is_pof2(np);
    if (needs_fallback) {
        a = &blx_alg_general_tree;
        key = '1';
    }
    *r =
        (blx_route){a, combine ? a->combine_tree : a->tree, combine ? a->combine_tree2 : a->tree2, key, 0, 0};
    if (a->flags & BLX_ALG_USES_BRANCHES) {
        r->param = clamp(key == 'T' ? in->branches : key - '0', 1, most);
        r->key = 'T'; /* '3' and 'T' with N_b = 3 share one cached tree */
    } else if (a->flags & BLX_ALG_USES_RINGS) {
        r->param = in->rings < 0 ? -clamp(-(long long)in->rings, 1, most) : clamp(in->rings, 1, most);
    } else if ((a->flags & BLX_ALG_NODE_ORDER) && !combine && in->nodes != NULL && in->nodes->nn > 1) {
        r->param = in->nodes->cross;
    }
    return 0;
}
