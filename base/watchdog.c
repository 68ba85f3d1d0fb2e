/*
 * base/watchdog.c - level 1's watchdog thread; see watchdog.h.
 */
#include "watchdog.h"

#include "debug.h"
#include "report.h"

#if !defined(SMPI_HELPERS_H)
#include <pthread.h>
#include <time.h>

static void (*reporter)(unsigned long seq, double seconds);

static void *watchdog(void *arg)
{
    (void)arg;
    double timeout = blx_debug_get()->hang_timeout, tick = timeout / 8;
    tick = tick < 0.01 ? 0.01 : tick > 1.0 ? 1.0 : tick;
    struct timespec pause = {(time_t)tick, (long)((tick - (double)(time_t)tick) * 1e9)};
    unsigned long last = 0;
    double lasting = 0;
    int reports = 0;
    for (;;) {
        nanosleep(&pause, NULL);
        unsigned long s = blx_wait_seq();
        if (s == 0 || s != last) { /* none, or another wait than at the last look */
            last = s, lasting = 0, reports = 0;
            continue;
        }
        lasting += tick;
        if (lasting >= timeout * (reports + 1)) {
            reports++;
            reporter(s, lasting);
        }
    }
    return NULL;
}

static void start(void)
{
    pthread_attr_t a;
    pthread_t t;
    int rc = pthread_attr_init(&a);
    if (rc == 0) {
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&a, 64 * 1024);
        rc = pthread_create(&t, &a, watchdog, NULL);
        pthread_attr_destroy(&a);
    }
    if (rc != 0)
        blx_warn(
            -1, "BLACS_GRIDINIT",
            "no watchdog thread (error %d): long waits will not be reported (BLACS_DEBUG=2 reports them)",
            rc);
}
#endif

void blx_watchdog_start(void (*report)(unsigned long seq, double seconds))
{
#if !defined(SMPI_HELPERS_H)
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    reporter = report;
    pthread_once(&once, start);
#else
    (void)report;
#endif
}
