/*
 * base/debug.c - the debug and timing levels; see debug.h.
 */
#include "debug.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "env.h"
#include "report.h"

static blx_debug settings;
static int have;
static _Thread_local double waited;

/* BLACS_STATS: 1, yes, true or on prints; 0, no, false, off or empty keeps
 * none; a file's path (with a '/', or ending in .csv) writes CSV there;
 * anything else is an error naming the variable. */
static void stats_setting(const char *s)
{
    int on = s == NULL ? 0 : blx_parse_switch(s);
    if (on >= 0) {
        settings.stats = on;
        return;
    }
    size_t n = strlen(s);
    if (strchr(s, '/') == NULL && (n < 4 || strcasecmp(s + n - 4, ".csv") != 0))
        blx_fatal(
            -1, "BLACS_STATS",
            "'%s' is neither a switch (1, yes, true, on; 0, no, false, off) nor a file's path (with a '/' or "
            "ending in .csv, e.g. ./stats.csv)",
            s);
    settings.stats = 1;
    settings.stats_file = s;
}

const blx_debug *blx_debug_get(void)
{
    if (!have) {
        static const char *const actions[] = {"abort", "wait", NULL};
        settings.level = blx_env_int("BLACS_DEBUG", 1, 0, 3);
        settings.hang_timeout = blx_env_seconds("BLACS_HANG_TIMEOUT", 60.0);
        /* level 1 waits on after a report: a long wait may be the program's own */
        int action = blx_env_word("BLACS_HANG_ACTION", -1, actions);
        settings.hang_wait = action == 1 || (action < 0 && settings.level < 2);
        settings.hang_wait_asked = action == 1;
        settings.polls = settings.level >= 2 && settings.hang_timeout > 0;
        settings.watchdog = settings.level == 1 && settings.hang_timeout > 0;
        stats_setting(getenv("BLACS_STATS"));
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

/* One thread at a time is inside the BLACS (blacs/threads.h), so one wait
 * at a time is marked: 'count' is that thread's, 'seq' is read by the
 * watchdog. */
static unsigned long count;
static _Atomic unsigned long seq;

void blx_wait_mark(void)
{
    if (++count == 0)
        count = 1;
    atomic_store_explicit(&seq, count, memory_order_release);
}

void blx_wait_unmark(void) { atomic_store_explicit(&seq, 0, memory_order_release); }

unsigned long blx_wait_seq(void) { return atomic_load_explicit(&seq, memory_order_acquire); }
