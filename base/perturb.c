/*
 * base/perturb.c - the testing aid's draws; see perturb.h.
 */
#include "perturb.h"

#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

int blx_perturb_mode = 1;
static unsigned long long seed;
static long max_us = 200;
static _Thread_local uint64_t state;

/* BLACS_PERTURB, read once; an unreadable value is an error naming it. */
static void read_setting(void)
{
    const char *s = getenv("BLACS_PERTURB");
    blx_perturb_mode = 0;
    if (s == NULL || *s == '\0' || strcmp(s, "0") == 0)
        return;
    char *end;
    seed = strtoull(s, &end, 10);
    if (end != s && *end == ':') {
        const char *m = end + 1;
        max_us = strtol(m, &end, 10);
        if (end == m || max_us < 0)
            end = (char *)m, seed = 0;
    }
    if (seed == 0 || *end != '\0')
        blx_fatal(-1, "BLACS_PERTURB",
                  "'%s' is not SEED or SEED:MAX_US (whole numbers, SEED from 1; 0 or unset: off)", s);
    blx_perturb_mode = 2;
}

/* splitmix64: a good generator from any seed, one state word. */
static uint64_t draw(void)
{
    if (state == 0) {
        int rank = 0, up = 0;
        MPI_Initialized(&up);
        if (up)
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        state = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)rank * 0xbf58476d1ce4e5b9ULL + 1;
    }
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

void blx_perturb_step(void)
{
    if (blx_perturb_mode == 1)
        read_setting();
    if (blx_perturb_mode == 0)
        return;
    uint64_t r = draw();
    unsigned pick = (unsigned)(r % 100);
    r >>= 8;
    if (pick < 50)
        return;
    if (pick < 75) {
        sched_yield();
    } else if (pick < 95) { /* busy: the process is slow, it does not give way */
        double until = now_us() + (double)(r % 21);
        while (now_us() < until)
            ;
    } else if (max_us > 0) {
        long us = (long)(r % (uint64_t)(max_us + 1));
        struct timespec t = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&t, NULL);
    }
}
