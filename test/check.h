/*
 * test/check.h - the assertion used by every test.
 *
 * CHECK(cond, fmt, ...) records a failure with its location and message and
 * goes on, so one run reports every broken case; check_failures() tells how
 * many there were.  Output is limited so a systematic bug does not flood.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_failed __attribute__((unused));
static const char *check_who __attribute__((unused)) = "";

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void
check_report(const char *file, int line, const char *cond, const char *fmt, ...)
{
    if (++check_failed > 20)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%sFAIL %s:%d: %s: ", check_who, file, line, cond);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
}

#define CHECK(cond, ...) ((cond) ? (void)0 : check_report(__FILE__, __LINE__, #cond, __VA_ARGS__))

static inline int check_failures(void) { return check_failed; }

#endif
