/*
 * sim/repeat.c - do repeatable sums repeat whatever a grid measured?
 * (make sim-check, sim/repeat.sh)
 *
 * A grid across nodes with neither BLACS_MODEL nor a tuning file measures
 * the network when it is created (blacs/machine.c), and the default TOP
 * chooses its algorithms with what it found.  A floating-point sum folded
 * in another order gives other bits, so BLACS_SET 15 (repeatable combines)
 * must keep the measurement out of the choice.  Run on two platforms that
 * differ only in their speeds, the same grid gives each a different
 * measurement; sim/repeat.sh compares this program's lines across them.
 *
 * On a 1 x p grid, scope All, for every TOP of --tops and every count of
 * --counts: DGSUM2D leaving the result on all, then on {0,0}, of doubles
 * whose magnitudes span 60 binary orders (so that the bits of a sum depend
 * on its order), the same values on every platform.  Rank 0 prints a line
 * per call:
 *
 *   top=_ n=8192 dest=all algs=reduce_scatter_4 bits=0123456789abcdef
 *
 * algs: the library's algorithms that ran in the call (their run counters,
 * topologies/topology.h); bits: a hash (FNV-1a) of the result's bytes.
 *
 *   smpirun -np 32 -platform P -hostfile H build/sim/repeat \
 *       --tops _IH --counts 1,512,65536 --repeatable 1
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../blacs/blacs.h"
#include "../topologies/topology.h"

/* Process r's element i: u * 2^e with u in [-1, 1) and e in [-30, 30),
 * both from a hash of (r, i). */
static double value(int r, long i)
{
    uint64_t h = (uint64_t)r * 0x9E3779B97F4A7C15u ^ (uint64_t)i * 0xC2B2AE3D27D4EB4Fu;
    h ^= h >> 31, h *= 0xBF58476D1CE4E5B9u, h ^= h >> 29;
    double u = (double)(h >> 11) / 9007199254740992.0 * 2 - 1;
    return ldexp(u, (int)(h % 60) - 30);
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}

static unsigned long runs[BLX_NALGORITHMS];

/* The algorithms whose counters moved since the last call, as "a,b". */
static void moved(char *out, size_t len)
{
    out[0] = '\0';
    for (int a = 0; a < BLX_NALGORITHMS; a++) {
        unsigned long now = blx_algorithm_runs(blx_algorithms[a]);
        if (now != runs[a] && strlen(out) + strlen(blx_algorithms[a]->name) + 2 < len)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "",
                     blx_algorithms[a]->name);
        runs[a] = now;
    }
}

int main(int argc, char **argv)
{
    const char *tops = "_", *counts = "1";
    int repeatable = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--tops") == 0)
            tops = argv[i + 1];
        else if (strcmp(argv[i], "--counts") == 0)
            counts = argv[i + 1];
        else if (strcmp(argv[i], "--repeatable") == 0)
            repeatable = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "repeat: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_set(ctxt, 15, &repeatable);
    moved((char[2]){0}, 2);
    for (const char *t = tops; *t; t++) {
        char top[2] = {*t == '_' ? ' ' : *t, '\0'};
        for (const char *c = counts; *c; c += strcspn(c, ","), c += *c == ',') {
            long n = atol(c);
            double *a = malloc((size_t)n * sizeof *a);
            for (int dest = -1; dest <= 0; dest++) {
                for (long i = 0; i < n; i++)
                    a[i] = value(me, i);
                Cdgsum2d(ctxt, "All", top, (int)n, 1, a, (int)n, dest, dest);
                char algs[256];
                moved(algs, sizeof algs);
                if (me == 0)
                    printf("top=%c n=%ld dest=%s algs=%s bits=%016llx\n", *t, n, dest < 0 ? "all" : "0", algs,
                           (unsigned long long)fnv(a, (size_t)n * sizeof *a));
            }
            free(a);
        }
    }
    Cblacs_gridexit(ctxt);
    if (me == 0)
        fprintf(stderr, "repeat: done\n");
    Cblacs_exit(0);
    return 0;
}
