/*
 * base/report.c - error and warning reports; see report.h.
 */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

_Thread_local unsigned long blx_mpi_calls;

static blx_report_hook hook;

void blx_report_set_hook(const blx_report_hook *h) { hook = *h; }
void blx_report_set_waiting(void (*waiting)(int ctxt, double seconds)) { hook.waiting = waiting; }

int blx_mpi_up(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    return up && !down;
}

void blx_report_peer(int ctxt, int rank, int *row, int *col)
{
    *row = *col = -1;
    if (hook.peer != NULL)
        hook.peer(ctxt, rank, row, col);
}

void blx_report_waiting(int ctxt, double seconds)
{
    if (hook.waiting != NULL)
        hook.waiting(ctxt, seconds);
}

static void report(const char *kind, const char *file, int line, int ctxt, const char *routine,
                   const char *fmt, va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    int row = -1, col = -1, pnum = -1;
    if (hook.self != NULL)
        hook.self(ctxt, &row, &col);
    if (blx_mpi_up())
        MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    fflush(stdout);
    fprintf(stderr, "BLACS %s '%s%s%s'\nfrom {%d,%d}, pnum=%d, Contxt=%d, on line %d of file '%s'.\n\n", kind,
            routine ? routine : "", routine ? ": " : "", text, row, col, pnum, ctxt, line, file);
    fflush(stderr);
}

void blx_fatal_at(const char *file, int line, int ctxt, const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("ERROR", file, line, ctxt, routine, fmt, ap);
    va_end(ap);
    if (blx_mpi_up())
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void blx_fatal_quiet(int ctxt, const char *routine)
{
    struct timespec pause = {0, 100000000};
    for (int i = 0; i < 50; i++) /* the speaker's MPI_Abort ends this process */
        nanosleep(&pause, NULL);
    blx_fatal(ctxt, routine, "stopping: another process found an error (its report is above)");
}

void blx_warn_at(const char *file, int line, int ctxt, const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("WARNING", file, line, ctxt, routine, fmt, ap);
    va_end(ap);
}

void blx_fatal_mpi(int ctxt, const char *routine, int rc, const char *call)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        len = snprintf(msg, sizeof msg, "MPI error %d", rc);
    blx_fatal(ctxt, routine, "%s failed: %.*s", call, len, msg);
}
