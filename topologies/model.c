/*
 * topologies/model.c - the cost model; see model.h.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../buffers/bytes.h"

/* Pieces smaller than this cost more in per-message work than they gain in
 * overlap on any machine we know of. */
#define PIECE_MIN ((size_t)8 << 10)

blx_model blx_model_default(void)
{
    /* shared memory on a small node: about a microsecond a message, a few
     * GB/s a copy, and every receiver copying at once */
    blx_model m = {1e-6, 2.5e-10, 2.5e-10, 4};
    return m;
}

int blx_model_parse(const char *text, blx_model *m)
{
    blx_model v = *m;
    const char *p = text;
    while (*p) {
        char name[16];
        size_t len = strcspn(p, "=");
        if (len == 0 || len >= sizeof name || p[len] != '=')
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        char *end;
        double x = strtod(p + len + 1, &end);
        if (end == p + len + 1 || (*end != ',' && *end != '\0') || !(x >= 0) || !isfinite(x))
            return -1;
        if (strcmp(name, "alpha") == 0)
            v.alpha = x;
        else if (strcmp(name, "beta") == 0)
            v.beta = x;
        else if (strcmp(name, "gamma") == 0)
            v.gamma = x;
        else if (strcmp(name, "window") == 0 && x >= 1 && x <= 64 && x == floor(x))
            v.window = (int)x;
        else
            return -1;
        p = *end == ',' ? end + 1 : end;
    }
    *m = v;
    return 0;
}

void blx_model_tree_steps(const blx_model *m, const blx_tree *t, int *L, int *D)
{
    blx_tree *memo = (blx_tree *)t; /* a cache inside the (cached) tree */
    if (memo->memo_window != m->window) {
        int w = m->window, last = 0, most = 0, head = 0, tail = 1;
        int *at = calloc((size_t)t->np, sizeof *at), *queue = malloc((size_t)t->np * sizeof *queue);
        if (at == NULL || queue == NULL) { /* cannot measure: as if one send at a time */
            free(at);
            free(queue);
            *L = t->nsteps;
            *D = t->np - 1;
            return;
        }
        queue[0] = 0; /* breadth first, so a node's time is known before its children's */
        while (head < tail) {
            int r = queue[head++], nk = blx_tree_nkids(t, r);
            const int *kids = blx_tree_kids(t, r);
            for (int j = 0; j < nk; j++) {
                at[kids[j]] = at[r] + j / w + 1;
                last = at[kids[j]] > last ? at[kids[j]] : last;
                queue[tail++] = kids[j];
            }
            most = (nk + w - 1) / w > most ? (nk + w - 1) / w : most;
        }
        free(at);
        free(queue);
        memo->memo_L = last;
        memo->memo_D = most;
        memo->memo_window = m->window;
    }
    *L = memo->memo_L;
    *D = memo->memo_D;
}

blx_plan blx_model_plan(const blx_model *m, int L, int D, size_t n, size_t unit)
{
    blx_plan plan = {n + 1, m->window}; /* whole */
    if (n < 2 * PIECE_MIN || L <= D || D < 1 || m->alpha <= 0 || m->beta <= 0)
        return plan; /* short, or every piece waits for the bottleneck: nothing to gain */
    /* s* = n / k* = sqrt(n D alpha / ((L - D) beta)): non-decreasing in n,
     * as blx_cut_make asks */
    double s = sqrt((double)n * D * m->alpha / ((L - D) * m->beta));
    if (s < (double)PIECE_MIN)
        s = (double)PIECE_MIN;
    if (s < (double)n)
        plan.piece = (size_t)s / unit * unit;
    return plan;
}

double blx_model_time(const blx_model *m, int L, int D, size_t n)
{
    blx_plan plan = blx_model_plan(m, L, D, n, 1);
    double s = plan.piece > n ? (double)n : (double)plan.piece, k = s > 0 ? ceil((double)n / s) : 1;
    return (L + (k - 1) * D) * (m->alpha + s * m->beta);
}

blx_plan blx_model_tree_plan(const blx_model *m, const blx_tree *t, size_t n, size_t unit)
{
    int L, D;
    if (t->np < 3)
        return (blx_plan){n + 1, m->window};
    blx_model_tree_steps(m, t, &L, &D);
    return blx_model_plan(m, L, D, n, unit);
}

double blx_model_tree_time(const blx_model *m, const blx_tree *t, size_t n)
{
    int L, D;
    blx_model_tree_steps(m, t, &L, &D);
    return blx_model_time(m, L, D, n);
}
