/*
 * blacs/threads.c - one thread at a time inside the BLACS (threads.h).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/report.h"
#include "threads.h"

static _Atomic(uintptr_t) owner;         /* the thread inside, by its token's address; 0: none */
static _Atomic(const char *) owner_call; /* the routine it entered */
static _Thread_local char token;
static _Thread_local int depth;

void blx_thread_enter(int ctxt, const char *routine)
{
    if (depth++ > 0)
        return;
    uintptr_t none = 0;
    if (!atomic_compare_exchange_strong(&owner, &none, (uintptr_t)&token)) {
        const char *other = atomic_load(&owner_call);
        blx_fatal(ctxt, routine,
                  "called while another thread of this process is inside %s: the BLACS take one thread "
                  "at a time per process (README, \"Threads\"); serialize the calls, e.g. with a mutex",
                  other != NULL ? other : "the BLACS");
    }
    atomic_store(&owner_call, routine);
}

void blx_thread_leave(void)
{
    if (--depth > 0)
        return;
    atomic_store(&owner_call, (const char *)NULL);
    atomic_store(&owner, (uintptr_t)0);
}
