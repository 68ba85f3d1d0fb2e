/*
 * base/stack.h - a call leaves nothing of its own on the stack.
 *
 * A caller's uninitialized local variable reads whatever the last call at
 * that depth left there.  Debian 12's ScaLAPACK 2.2.1 has such a variable:
 * P?GERFS passes its local EST, never set, to P?LACON, which compares the
 * estimate with it (Reference-ScaLAPACK issue 121, fixed in 2.2.3 by
 * setting EST to zero).  In xslu, the IGSUM2D that the driver calls just
 * before PSGERFS had left the address of a function of this library (in
 * the transfer record of the combine) exactly where EST then lies: an
 * address that differs from process to process (address-space layout
 * randomization), so the processes of one grid took different branches and
 * called PSGETRS with different TRANS ("parameter number 1 had an illegal
 * value", then a hang).  The reference BLACS leave addresses on the stack
 * too; other ones, elsewhere.
 *
 * So every communication routine zeroes, before it returns, the stack its
 * call used below the entry point's frame: the call record, the frames of
 * this library and the top of MPI's below them.  How deep it went is
 * noted where the library calls MPI (blx_stack_note, the byte layer) and
 * where a call ends (blx_leave).  A caller's uninitialized variable then
 * reads zero, the same on every process, as on a fresh stack.
 *
 * What it costs: about 15 ns a KiB zeroed (the stack is in the cache);
 * a short broadcast uses 3 to 4 KiB of this library's frames.
 */
#ifndef BLX_STACK_H
#define BLX_STACK_H

#include <stddef.h>
#include <string.h>

#include "visibility.h"

/* Bytes below the deepest point noted that are zeroed too: below a call
 * of MPI, the first frames of the MPI routine (where it saves the
 * library's registers); below the start of a routine, the frames of its
 * own that call no MPI (a support routine's; a communication routine's,
 * its checks, the default TOP's choice and a scope of one). */
#define BLX_STACK_MPI 1024
#define BLX_STACK_SUPPORT 512
#define BLX_STACK_COMM 2048

/* The deepest stack address this thread's current call has reached. */
BLX_INTERNAL extern _Thread_local char *blx_stack_low;

/* The stack pointer, or near it (the address of a local elsewhere). */
#if defined(__GNUC__) && defined(__x86_64__)
#define BLX_STACK_HERE(sp) __asm__ volatile("mov %%rsp, %0" : "=r"(sp))
#else
#define BLX_STACK_HERE(sp)         \
    do {                           \
        volatile char blx_here_;   \
        (sp) = (char *)&blx_here_; \
    } while (0)
#endif

/* Notes how deep the stack is here, 'below' bytes more to come (the
 * frames of what is called from here). */
static inline __attribute__((always_inline)) void blx_stack_note_below(int below)
{
    char *sp;
    BLX_STACK_HERE(sp);
    sp -= below;
    if (sp < blx_stack_low)
        blx_stack_low = sp;
}
/* Where MPI is called: its first frames come below. */
static inline __attribute__((always_inline)) void blx_stack_note(void)
{
    blx_stack_note_below(BLX_STACK_MPI);
}

/* Where a routine starts: nothing below it used yet but its own frames,
 * 'own' bytes. */
static inline __attribute__((always_inline)) void blx_stack_begin(int own)
{
    char *sp;
    BLX_STACK_HERE(sp);
    blx_stack_low = sp - own;
}

/* Where a routine ends: zeroes everything below its frame that the call
 * used, in the routine itself: the stack is taken back as an array (the
 * zeroing writes above the stack pointer, as memory checkers want it),
 * and on x86-64 zeroed without a call, which would leave a frame of its
 * own below. */
static inline __attribute__((always_inline)) void blx_stack_end(void)
{
    char *sp;
    BLX_STACK_HERE(sp);
    if (blx_stack_low >= sp)
        return;
    size_t len = (size_t)(sp - blx_stack_low);
    char used[len];
#if defined(__GNUC__) && defined(__x86_64__)
    char *p = used;
    __asm__ volatile("rep stosb" : "+D"(p), "+c"(len) : "a"(0) : "memory");
#else
    memset(used, 0, len);
    __asm__ volatile("" : : "r"(used) : "memory");
#endif
}

/* Zeroes a variable of the routine's own frame that is dead (the zeroing
 * is kept though nothing reads the variable again). */
static inline __attribute__((always_inline)) void blx_stack_forget(void *var, size_t n)
{
    memset(var, 0, n);
    __asm__ volatile("" : : "r"(var) : "memory");
}

#endif
