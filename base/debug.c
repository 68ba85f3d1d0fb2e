/*
 * base/debug.c - the debug and timing levels; see debug.h.
 */
#include "debug.h"

#include <stdlib.h>
#include <string.h>

#include "env.h"

static blx_debug settings;
static int have;
static _Thread_local double waited;

const blx_debug *blx_debug_get(void)
{
    if (!have) {
        static const char *const actions[] = {"abort", "wait", NULL};
        settings.level = blx_env_int("BLACS_DEBUG", 1, 0, 3);
        settings.hang_timeout = blx_env_seconds("BLACS_HANG_TIMEOUT", 60.0);
        settings.hang_wait = blx_env_word("BLACS_HANG_ACTION", 0, actions) == 1;
        const char *s = getenv("BLACS_STATS");
        settings.stats = s != NULL && strcmp(s, "") != 0 && strcmp(s, "0") != 0;
        settings.stats_file = settings.stats && strcmp(s, "1") != 0 ? s : NULL;
        have = 1;
    }
    return &settings;
}

double blx_debug_take_waited(void)
{
    double w = waited;
    waited = 0;
    return w;
}

void blx_debug_add_waited(double seconds) { waited += seconds; }
