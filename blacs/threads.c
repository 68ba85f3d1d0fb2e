/*
 * blacs/threads.c - one thread at a time inside the BLACS (threads.h).
 *
 * The owner is the thread inside, named by the address of its own
 * thread-local token.  Entering takes ownership with one compare-and-swap
 * (acquire: what the previous owner did inside is visible); leaving gives it
 * back with a release store, which on x86 is an ordinary store.  The nesting
 * depth is a plain variable: only the owner touches it, and the owner's
 * acquire and release order it like the rest of the library's state.  A
 * thread that finds itself the owner is nested (no other thread can have
 * made it the owner).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/report.h"
#include "threads.h"

static _Atomic(uintptr_t) owner;         /* the thread inside, by its token's address; 0: none */
static _Atomic(const char *) owner_call; /* the routine it entered (for the error text) */
static _Thread_local char token;
static int depth; /* the owner's nested calls */

void blx_thread_enter(int ctxt, const char *routine)
{
    uintptr_t me = (uintptr_t)&token, none = 0;
    if (atomic_load_explicit(&owner, memory_order_relaxed) == me) {
        depth++;
        return;
    }
    if (!atomic_compare_exchange_strong_explicit(&owner, &none, me, memory_order_acquire,
                                                 memory_order_relaxed)) {
        const char *other = atomic_load_explicit(&owner_call, memory_order_relaxed);
        blx_fatal(ctxt, routine,
                  "called while another thread of this process is inside %s: the BLACS take one thread "
                  "at a time per process (doc/guide.md, \"Threads\"); serialize the calls, e.g. with a mutex",
                  other != NULL ? other : "the BLACS");
    }
    depth = 1;
    atomic_store_explicit(&owner_call, routine, memory_order_relaxed);
}

void blx_thread_leave(void)
{
    if (--depth > 0)
        return;
    atomic_store_explicit(&owner_call, (const char *)NULL, memory_order_relaxed);
    atomic_store_explicit(&owner, (uintptr_t)0, memory_order_release);
}
