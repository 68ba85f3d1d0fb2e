/*
 * test/unit/test_heap.c - the heap policy set at start-up (base/heap.h).
 *
 * Each case runs in a child process of its own (the policy is set once a
 * process):
 *   - the default sets glibc's thresholds: a 1 MiB block comes from the
 *     heap, not from mmap, and ScaLAPACK's pattern (work space taken and
 *     freed around every message, nothing allocated above it) neither
 *     shrinks nor grows the heap after the first round;
 *   - BLACS_MALLOC=system changes nothing: the same 1 MiB block is mmapped
 *     and the same pattern moves the heap's top every round, which shows
 *     the checks above can fail;
 *   - a user's own malloc setting (MALLOC_*_ or glibc.malloc tunables) is
 *     left alone, other tunables are not such a setting;
 *   - a BLACS_MALLOC that is neither keep nor system is an error naming it.
 * Under an allocator that is not glibc's (valgrind's, AddressSanitizer's),
 * mallinfo2 reports nothing: there only the policy's answer is checked.
 * No MPI.
 */
#define _DEFAULT_SOURCE /* sbrk */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../base/heap.h"
#include "check.h"

/* Keeps the compiler from eliding a malloc-memset-free sequence. */
static void touch(char *p, size_t n, int v)
{
    memset(p, v, n);
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* Whether malloc is glibc's: its statistics count a small block. */
static int glibc_malloc(void)
{
    char *p = malloc(64);
    touch(p, 64, 0);
    int yes = mallinfo2().uordblks > 0;
    free(p);
    return yes;
}

/* Whether a block of n bytes is mmapped. */
static int mmapped(size_t n)
{
    size_t before = mallinfo2().hblks;
    char *p = malloc(n);
    touch(p, n, 1);
    int yes = mallinfo2().hblks > before;
    free(p);
    return yes;
}

/* PBLAS's pattern: work space taken, used and freed around every message
 * (here three blocks of 150 KiB, 100 times, after one block of 200 KiB
 * freed, which under glibc's own rule raises its thresholds to 200 and
 * 400 KiB); how many times after the first round the frees shrank the
 * heap (and the next round's mallocs grew it again). */
static int heap_moves(void)
{
    char *first = malloc(200 << 10);
    touch(first, 200 << 10, 0);
    free(first);
    int moves = 0;
    for (int i = 0; i < 100; i++) {
        char *w[3];
        for (int k = 0; k < 3; k++) {
            w[k] = malloc(150 << 10);
            touch(w[k], 150 << 10, k);
        }
        void *grown = sbrk(0);
        for (int k = 2; k >= 0; k--)
            free(w[k]);
        moves += i > 0 && sbrk(0) != grown; /* given back, to be taken again next round */
    }
    return moves;
}

/* Runs fn in a child with the environment's NAME=VALUE pairs; returns its
 * exit status, or -1 if it died.  What it writes to stderr goes to err
 * (size n), when given. */
static int in_child(int (*fn)(void), const char *const *env, char *err, size_t n)
{
    int fd[2] = {-1, -1};
    if (err != NULL && pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        check_failed = 0; /* the parent's, copied */
        if (err != NULL)
            dup2(fd[1], 2);
        unsetenv("BLACS_MALLOC");
        for (int i = 0; env[i] != NULL; i += 2)
            setenv(env[i], env[i + 1], 1);
        _exit(fn());
    }
    int st = 0;
    pid_t done = pid < 0 ? -1 : waitpid(pid, &st, 0);
    if (err != NULL) {
        close(fd[1]);
        ssize_t got = read(fd[0], err, n - 1);
        err[got > 0 ? got : 0] = '\0';
        close(fd[0]);
    }
    return done != pid || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* Each child returns the number of its failures (at most 100). */
static int child_result(void) { return check_failures() > 100 ? 100 : check_failures(); }

static int kept(void)
{
    check_who = "default: ";
    blx_heap_policy p = blx_heap_setup();
    if (!glibc_malloc()) {
        CHECK(p == BLX_HEAP_KEPT || p == BLX_HEAP_NONE, "policy %d", (int)p);
        return child_result();
    }
    CHECK(p == BLX_HEAP_KEPT, "policy %d, expected the thresholds set", (int)p);
    CHECK(blx_heap_setup() == p, "a second call answers differently");
    int moves = heap_moves(); /* first, as in the other cases */
    CHECK(moves == 0, "the heap shrank and grew again %d times in 99 rounds of take-and-free", moves);
    CHECK(!mmapped(1 << 20), "a 1 MiB block was mmapped");
    CHECK(mmapped((size_t)BLX_HEAP_MMAP_THRESHOLD + (1 << 20)),
          "a block above the threshold came from the heap");
    return child_result();
}

static int system_policy(void)
{
    check_who = "BLACS_MALLOC=system: ";
    CHECK(blx_heap_setup() == BLX_HEAP_SYSTEM, "policy %d", (int)blx_heap_setup());
    if (glibc_malloc()) { /* the pattern first: freeing the mmapped 1 MiB block raises glibc's thresholds */
        CHECK(heap_moves() > 0, "the heap never moved: the pattern does not show what the policy prevents");
        CHECK(mmapped(1 << 20), "a 1 MiB block came from the heap: glibc's default changed");
    }
    return child_result();
}

static int user_policy(void)
{
    check_who = "the user's setting: ";
    CHECK(blx_heap_setup() == BLX_HEAP_USER, "policy %d", (int)blx_heap_setup());
    if (glibc_malloc())
        CHECK(mmapped(1 << 20), "a 1 MiB block came from the heap: the user's setting overridden");
    return child_result();
}

static int bad_word(void)
{
    blx_heap_setup(); /* must not return */
    return 0;
}

int main(void)
{
    static const char *const none[] = {NULL};
    static const char *const sys[] = {"BLACS_MALLOC", "system", NULL};
    static const char *const keep[] = {"BLACS_MALLOC", "KEEP", NULL};
    static const char *const other_tunable[] = {"GLIBC_TUNABLES", "glibc.pthread.rseq=0", NULL};
    static const char *const user[][3] = {
        {"MALLOC_TRIM_THRESHOLD_", "131072", NULL},
        {"MALLOC_MMAP_THRESHOLD_", "131072", NULL},
        {"MALLOC_TOP_PAD_", "0", NULL},
        {"MALLOC_MMAP_MAX_", "65536", NULL},
        {"GLIBC_TUNABLES", "glibc.pthread.rseq=0:glibc.malloc.trim_threshold=131072", NULL},
    };
    static const char *const bad[] = {"BLACS_MALLOC", "never", NULL};

    CHECK(in_child(kept, none, NULL, 0) == 0, "the default");
    CHECK(in_child(kept, keep, NULL, 0) == 0, "BLACS_MALLOC=KEEP (any case)");
    CHECK(in_child(kept, other_tunable, NULL, 0) == 0, "a tunable of another kind is no malloc setting");
    CHECK(in_child(system_policy, sys, NULL, 0) == 0, "BLACS_MALLOC=system");
    for (size_t i = 0; i < sizeof user / sizeof user[0]; i++)
        CHECK(in_child(user_policy, user[i], NULL, 0) == 0, "%s=%s", user[i][0], user[i][1]);
    char err[1024];
    CHECK(in_child(bad_word, bad, err, sizeof err) == 1,
          "BLACS_MALLOC=never must stop with an error (exit 1)");
    CHECK(strstr(err, "BLACS ERROR") && strstr(err, "BLACS_MALLOC") && strstr(err, "'never'"),
          "the error names the variable and its value: %s", err);

    if (check_failures()) {
        fprintf(stderr, "test_heap: %d failures\n", check_failures());
        return 1;
    }
    printf("test_heap: all passed\n");
    return 0;
}
