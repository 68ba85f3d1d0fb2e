/*
 * base/heap.c - the process's heap policy; see heap.h.
 */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

#include "env.h"

/* Under SimGrid's SMPI (smpicc force-includes smpi_helpers.h) the
 * simulated processes share one real heap, and <malloc.h> clashes with
 * its malloc macros: nothing is set there. */
#if defined(__GLIBC__) && !defined(SMPI_HELPERS_H)
#define BLX_HEAP_GLIBC 1
#include <malloc.h>
#endif

/* Whether the user has set malloc's parameters: glibc reads MALLOC_*_
 * and GLIBC_TUNABLES when the program starts, and we leave them be. */
static int user_set(void)
{
    static const char *const vars[] = {"MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_",
                                       "MALLOC_MMAP_MAX_", NULL};
    for (int i = 0; vars[i] != NULL; i++)
        if (getenv(vars[i]) != NULL)
            return 1;
    const char *t = getenv("GLIBC_TUNABLES");
    return t != NULL && strstr(t, "glibc.malloc.") != NULL;
}

static blx_heap_policy apply(void)
{
    static const char *const words[] = {"keep", "system", NULL};
    if (blx_env_word("BLACS_MALLOC", 0, words) == 1)
        return BLX_HEAP_SYSTEM;
    if (user_set())
        return BLX_HEAP_USER;
#if defined(BLX_HEAP_GLIBC)
    if (mallopt(M_MMAP_THRESHOLD, BLX_HEAP_MMAP_THRESHOLD) == 1 &&
        mallopt(M_TRIM_THRESHOLD, BLX_HEAP_TRIM_THRESHOLD) == 1)
        return BLX_HEAP_KEPT;
#endif
    return BLX_HEAP_NONE;
}

blx_heap_policy blx_heap_setup(void)
{
    static int done;
    static blx_heap_policy policy;
    if (!done) {
        policy = apply();
        done = 1;
    }
    return policy;
}
