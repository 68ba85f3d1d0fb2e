/*
 * base/heap.h - the process's heap policy, set once at start-up.
 *
 * glibc's malloc gives a freed block at the top of the heap back to the
 * system once more than its trim threshold lies free there, and serves
 * blocks from 128 KiB up by mmap; both thresholds start low and rise only
 * as large mmapped blocks are freed.  ScaLAPACK's PBLAS allocate and free
 * their work space around every broadcast they receive: with nothing of
 * the BLACS's own allocated above it (this library sends straight from the
 * matrix where it can; the reference packs into a buffer it keeps), every
 * such free shrinks the heap and the next malloc grows it again, page
 * faults and zeroed pages each time (xdllt, N = 500 on 2 processes: 616
 * brk calls and 10,000 more page faults on one process, 17-22% longer).
 * So at start-up the library sets the two thresholds where glibc's own
 * rule ends up (mallopt(3)): mmap from 32 MiB (its maximum on 64 bits),
 * trim beyond twice that.
 *
 *   cost: up to 64 MiB of free heap a process keeps instead of returning;
 *   blocks of 128 KiB to 32 MiB come from the heap, not from mmap.
 *
 * BLACS_MALLOC=system leaves malloc as it is; so does any setting of the
 * user's own (MALLOC_*_ variables or glibc.malloc tunables), and so does a
 * C library other than glibc, or a build for SimGrid's SMPI.
 */
#ifndef BLX_HEAP_H
#define BLX_HEAP_H

#include "visibility.h"

typedef enum {
    BLX_HEAP_KEPT,   /* the thresholds were set */
    BLX_HEAP_SYSTEM, /* BLACS_MALLOC=system */
    BLX_HEAP_USER,   /* the user set malloc's parameters: left alone */
    BLX_HEAP_NONE    /* not glibc, or mallopt refused: nothing set */
} blx_heap_policy;

/* Applies the policy (once a process; later calls return the first
 * answer). */
BLX_INTERNAL blx_heap_policy blx_heap_setup(void);

/* The thresholds it sets. */
#define BLX_HEAP_MMAP_THRESHOLD (32 << 20)
#define BLX_HEAP_TRIM_THRESHOLD (64 << 20)

#endif
