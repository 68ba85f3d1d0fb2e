/*
 * bench/patterns.c - the data the kernels move and how they are checked:
 * patterns unique to the owner, index and salt, the global matrix of the
 * matrix kernels, and the counting of wrong values (VERIFY FAILED); and
 * bench_die, which every file uses to stop the run.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"

/* Prints "blacsbench: ..." and stops every process. */
void bench_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "blacsbench: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* ---------------------------------------------------------------------------
 * Data patterns and checks
 * ------------------------------------------------------------------------ */
/* The vectors the kernels move come from mmap, whatever their size: a
 * library may set malloc's thresholds (this one does: BLACS_MALLOC), and
 * where malloc then puts a benchmark's buffers (the heap or a mapping of
 * their own) changes how fast MPI moves them on some machines (up to 18% at
 * 4 MiB on the development machine; doc/performance-history.md).  Taken so, every
 * library under test moves the same kind of memory.  The mapping's length
 * sits in the cache line before the vector. */
#define DALLOC_HEAD 64

double *bench_dalloc(size_t n)
{
    size_t len = DALLOC_HEAD + (n ? n : 1) * sizeof(double);
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        bench_die("out of memory (%zu doubles)", n);
    memcpy(m, &len, sizeof len);
    return (double *)(m + DALLOC_HEAD);
}

void bench_dfree(double *p)
{
    if (p == NULL)
        return;
    char *m = (char *)p - DALLOC_HEAD;
    size_t len;
    memcpy(&len, m, sizeof len);
    munmap(m, len);
}

/* Element i of the vector that process `owner` sends: an integer below
 * 2^53 (so sums over processes are exact in any order), different for every
 * owner, index and salt, never negative. */
double bench_pat(int owner, size_t i, unsigned salt)
{
    uint32_t h = (uint32_t)i * 2654435761u + salt * 40503u;
    return (double)owner * 4294967296.0 + (double)h;
}

/* Element (i, j) of the global matrix of the matrix kernels. */
double bench_gmat(long i, long j) { return (double)i * 2097152.0 + (double)j; }

void bench_fill_pat(double *v, size_t n, int owner, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        v[i] = bench_pat(owner, i, salt);
}

void bench_fill_val(double *v, size_t n, double x)
{
    for (size_t i = 0; i < n; i++)
        v[i] = x;
}

/* Block (pr, pc) of the global matrix, nl x nl, column-major with leading dimension ld. */
void bench_fill_block(double *a, int ld, int nl, int pr, int pc)
{
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            a[i + (size_t)jj * ld] = bench_gmat((long)pr * nl + i, (long)pc * nl + jj);
}

const char *bench_impl_of(const job *j) { return j->mpi ? "mpi" : j->b->cfg.impl; }

char bench_top_char(const job *j) { return j->top == ' ' ? '_' : j->top ? j->top : '-'; }

/* Counts one failed check, reporting the first few on this process. */
long bench_report_bad(job *j, const char *fmt, ...)
{
    if (j->printed++ < 3) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "blacsbench: VERIFY FAILED on rank %d: %s %s impl=%s top=%c %zu bytes: ", j->g->me,
                j->series, j->op, bench_impl_of(j), bench_top_char(j), j->bytes);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        fflush(stderr);
    }
    return 1;
}

/* Counts one wrong value. */
long bench_mismatch(job *j, const char *what, long idx, double got, double want)
{
    return got == want ? 0 : bench_report_bad(j, "%s[%ld] = %.17g, expected %.17g", what, idx, got, want);
}

long bench_check_pat(job *j, const char *what, const double *v, size_t n, int owner)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += bench_mismatch(j, what, (long)i, v[i], bench_pat(owner, i, j->salt));
    return bad;
}

/* Block (pr, pc) expected in a (column-major, ld) */
long bench_check_block(job *j, const char *what, const double *a, int ld, int nl, int pr, int pc)
{
    long bad = 0;
    for (int jj = 0; jj < nl; jj++)
        for (int i = 0; i < nl; i++)
            bad += bench_mismatch(j, what, i + (long)jj * ld, a[i + (size_t)jj * ld],
                                  bench_gmat((long)pr * nl + i, (long)pc * nl + jj));
    return bad;
}

/* --inject-fault: rank 0 corrupts one value it sends in the verification run. */
void bench_inject(job *j, double *p)
{
    if (j->verifying && j->b->cfg.inject && j->g->me == 0 && p)
        *p += 1.0;
}
