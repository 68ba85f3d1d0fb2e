/*
 * tools/ucx_idle.c - lets oversubscribed MPICH processes give up the CPU
 * while they wait (preloaded by tools/launcher.sh under MPI=mpich).
 *
 * MPICH 4.0's ch4 device waits by polling, without ever yielding: with more
 * processes than cores (8 on the 2 cores of a CI machine) a process waiting
 * for a message keeps its core until the scheduler's time slice ends, so
 * every message costs ~20 ms.  A ring of 4 processes on 2 cores passes
 * 6,000 messages in 39 s (Open MPI, which yields when oversubscribed: 0.07 s),
 * and the test suite would take hours.  Every turn of MPICH's progress loop
 * polls the network module, UCX's ucp_worker_progress (Debian's MPICH is
 * ch4:ucx); this wrapper counts the turns in which nothing happened and,
 * after a few in a row, sleeps for a moment (nanosleep: sched_yield is not
 * enough under CFS, 8 ms per message).  Nothing changes but timing; with an
 * MPICH that does not use UCX it is never called.
 *
 *   UCX_IDLE_SPINS  idle polls before a sleep (default 10)
 *   UCX_IDLE_NS     nanoseconds asked for (default 1000; the kernel's timer
 *                   slack makes it ~50 us)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

typedef struct ucp_worker *ucp_worker_h;
unsigned ucp_worker_progress(ucp_worker_h worker);

unsigned ucp_worker_progress(ucp_worker_h worker)
{
    static unsigned (*real)(ucp_worker_h);
    static unsigned spins = 10, idle;
    static long ns = 1000;
    if (!real) {
        real = (unsigned (*)(ucp_worker_h))dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (!real)
            abort();
        const char *s = getenv("UCX_IDLE_SPINS"), *n = getenv("UCX_IDLE_NS");
        spins = s ? (unsigned)atoi(s) : spins;
        ns = n ? atol(n) : ns;
    }
    unsigned done = real(worker);
    if (done)
        idle = 0;
    else if (++idle >= spins) {
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        idle = 0;
    }
    return done;
}
