/*
 * blacs/stats.c - statistics (BLACS_STATS): per routine family, TOP and the
 * algorithm that ran, the calls, the bytes of a call (min, avg, max), the
 * time inside the routines and the part of it spent waiting for messages,
 * and the MPI calls the library made for them (each send, receive, test,
 * wait and probe of the byte layer and the buffer queue: what a call costs
 * beyond its messages' time).
 *
 * Every process keeps its own table (nothing is communicated while the
 * program runs).  BLACS_EXIT prints it (BLACS_STATS=1), each row with the
 * process's number and the whole table in one write, so that the tables of
 * a job never mix line by line; or it appends it as CSV to the file
 * BLACS_STATS names, which process 0 empties when it starts.  A program
 * that ends with MPI_Finalize and never calls BLACS_EXIT gets the same at
 * MPI_Finalize (the delete callback of an attribute on MPI_COMM_SELF, which
 * MPI_Finalize calls first).  Cblacs_stats / BLACS_STATS gathers the tables
 * of a grid on its process {0,0}, which prints them merged, at any time.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "../base/debug.h"
#include "../base/report.h"
#include "stats.h"

#define ROWS 64

typedef struct stat_row {
    char family[24];
    char top;
    char algorithm[48];
    double calls, bytes, bmin, bmax, inside, waiting, mpi;
} stat_row;

static stat_row rows[ROWS];
static int nrows;
static unsigned long mpi_seen; /* blx_mpi_calls at the last call counted */

static const char *family_of(const blx_call *k)
{
    static const char *const kinds[] = {"send", "receive", "broadcast send", "broadcast receive",
                                        NULL,   "barrier"};
    static const char *const ops[] = {"combine sum", "combine amx", "combine amn", "combine user"};
    return k->kind == BLX_COMBINE ? ops[k->op] : kinds[k->kind];
}

static stat_row *row_for(const char *family, char top, const char *algorithm)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].top == top && strcmp(rows[i].family, family) == 0 &&
            strcmp(rows[i].algorithm, algorithm) == 0)
            return &rows[i];
    stat_row *r = &rows[nrows < ROWS ? nrows++ : ROWS - 1]; /* the last row takes any overflow */
    snprintf(r->family, sizeof r->family, "%s", family);
    snprintf(r->algorithm, sizeof r->algorithm, "%s", algorithm);
    r->top = top;
    return r;
}

static void add(stat_row *r, double calls, double bytes, double bmin, double bmax, double inside,
                double waiting, double mpi)
{
    r->bmin = r->calls == 0 || bmin < r->bmin ? bmin : r->bmin;
    r->bmax = bmax > r->bmax ? bmax : r->bmax;
    r->calls += calls;
    r->bytes += bytes;
    r->inside += inside;
    r->waiting += waiting;
    r->mpi += mpi;
}

void blx_stats_count(const blx_call *k, size_t bytes, const char *algorithm)
{
    double inside = MPI_Wtime() - k->since, waiting = blx_debug_take_waited();
    char top = k->s != NULL && k->kind != BLX_BARRIER ? k->letter : 0;
    double mpi = (double)(blx_mpi_calls - mpi_seen);
    mpi_seen = blx_mpi_calls;
    add(row_for(family_of(k), top, algorithm ? algorithm : "-"), 1, (double)bytes, (double)bytes,
        (double)bytes, inside, waiting, mpi);
}

/* The table, as one block of text written at once to fd; each row
 * starts with the process's number (pnum >= 0: one process's table). */
static void print_table(int fd, const stat_row *t, int n, const char *title, int pnum)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return;
    fprintf(f,
            "%s\n%s| routine family | TOP | algorithm | calls | bytes min | bytes avg | bytes max | "
            "inside s | waiting s | MPI calls |\n%s|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
            title, pnum >= 0 ? "| process " : "", pnum >= 0 ? "|---:" : "");
    for (int i = 0; i < n; i++) {
        if (pnum >= 0)
            fprintf(f, "| %d ", pnum);
        fprintf(f, "| %s | '%c' | %s | %.0f | %.0f | %.0f | %.0f | %.6f | %.6f | %.0f |\n", t[i].family,
                t[i].top ? t[i].top : '-', t[i].algorithm, t[i].calls, t[i].bmin,
                t[i].calls ? t[i].bytes / t[i].calls : 0, t[i].bmax, t[i].inside, t[i].waiting, t[i].mpi);
    }
    fprintf(f, "\n");
    fclose(f);
    for (size_t done = 0; done < len;) {
        ssize_t w = write(fd, text + done, len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    free(text);
}

static void write_csv(const char *path, int pnum)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) {
        blx_warn(-1, "BLACS_EXIT", "BLACS_STATS: cannot write '%s'", path);
        if (fd >= 0)
            close(fd);
        return;
    }
    FILE *f = fdopen(fd, "a");
    if (lseek(fd, 0, SEEK_END) == 0)
        fprintf(
            f, "pnum,family,top,algorithm,calls,bytes_min,bytes_avg,bytes_max,bytes_total,inside_s,waiting_s,"
               "mpi_calls\n");
    for (int i = 0; i < nrows; i++)
        fprintf(f, "%d,%s,%c,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.9f,%.9f,%.0f\n", pnum, rows[i].family,
                rows[i].top == ' ' ? '_'
                : rows[i].top      ? rows[i].top
                                   : '-',
                rows[i].algorithm, rows[i].calls, rows[i].bmin,
                rows[i].calls ? rows[i].bytes / rows[i].calls : 0, rows[i].bmax, rows[i].bytes,
                rows[i].inside, rows[i].waiting, rows[i].mpi);
    fflush(f);
    flock(fd, LOCK_UN);
    fclose(f);
}

static int my_pnum;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: the statistics of
 * a program that never called BLACS_EXIT are reported then. */
static int at_finalize(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    blx_stats_exit(my_pnum);
    return MPI_SUCCESS;
}

void blx_stats_start(int pnum)
{
    const blx_debug *d = blx_debug_get();
    my_pnum = pnum;
    if (d->stats_file != NULL && pnum == 0) { /* a fresh file for this run */
        FILE *f = fopen(d->stats_file, "w");
        if (f != NULL)
            fclose(f);
    }
    int key;
    if (d->stats && MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, NULL) == MPI_SUCCESS)
        MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}

void blx_stats_exit(int pnum)
{
    const blx_debug *d = blx_debug_get();
    if (!d->stats || nrows == 0)
        return;
    if (d->stats_file != NULL) {
        write_csv(d->stats_file, pnum);
    } else {
        char title[128];
        snprintf(title, sizeof title,
                 "BLACS statistics of process %d (libblacs %d.%d.%d, BLACS_STATS=%s):", pnum,
                 BLACS_VERSION_MAJOR, BLACS_VERSION_MINOR, BLACS_VERSION_PATCH, getenv("BLACS_STATS"));
        fflush(stdout);
        fflush(stderr);
        print_table(STDERR_FILENO, rows, nrows, title, pnum);
    }
    nrows = 0; /* reported: a later BLACS_EXIT starts from nothing */
    memset(rows, 0, sizeof rows);
}

/* Merges the tables of every member of c's grid on member 0, which prints
 * them (calls and bytes summed, times summed over the processes). */
static void gather(const blx_ctx *c)
{
    int size, me;
    MPI_Comm_size(c->comm, &size);
    MPI_Comm_rank(c->comm, &me);
    int counts[1] = {nrows}, *all_counts = me == 0 ? malloc((size_t)size * sizeof(int)) : NULL;
    MPI_Gather(counts, 1, MPI_INT, all_counts, 1, MPI_INT, 0, c->comm);
    int *displs = NULL, total = 0;
    stat_row *all = NULL;
    if (me == 0) {
        displs = malloc((size_t)size * sizeof *displs);
        for (int r = 0; r < size; r++) {
            displs[r] = total * (int)sizeof(stat_row);
            total += all_counts[r];
            all_counts[r] *= (int)sizeof(stat_row);
        }
        all = calloc((size_t)total + 1, sizeof *all);
    }
    MPI_Gatherv(rows, nrows * (int)sizeof(stat_row), MPI_BYTE, all, all_counts, displs, MPI_BYTE, 0, c->comm);
    if (me == 0) {
        stat_row merged[ROWS];
        int n = 0;
        for (int i = 0; i < total; i++) {
            int j = 0;
            while (j < n && !(merged[j].top == all[i].top && !strcmp(merged[j].family, all[i].family) &&
                              !strcmp(merged[j].algorithm, all[i].algorithm)))
                j++;
            if (j == n && n < ROWS)
                merged[n++] = (stat_row){.top = all[i].top};
            if (j < n) {
                memcpy(merged[j].family, all[i].family, sizeof merged[j].family);
                memcpy(merged[j].algorithm, all[i].algorithm, sizeof merged[j].algorithm);
                add(&merged[j], all[i].calls, all[i].bytes, all[i].bmin, all[i].bmax, all[i].inside,
                    all[i].waiting, all[i].mpi);
            }
        }
        char title[128];
        snprintf(
            title, sizeof title,
            "BLACS statistics of the %d processes of context %d (%d x %d), summed (libblacs %d.%d.%d):", size,
            c->handle, c->nprow, c->npcol, BLACS_VERSION_MAJOR, BLACS_VERSION_MINOR, BLACS_VERSION_PATCH);
        fflush(stdout);
        print_table(STDOUT_FILENO, merged, n, title, -1);
    }
    free(all_counts);
    free(displs);
    free(all);
}

void blx_stats(int ctxt)
{
    blx_ctx *c = blx_ctx_get(ctxt, "BLACS_STATS");
    if (!blx_debug_get()->stats) { /* nothing was counted: say so, once */
        if (c->myrow == 0 && c->mycol == 0)
            printf("BLACS statistics of context %d: off (set BLACS_STATS=1 or BLACS_STATS=file to count)\n",
                   c->handle);
        fflush(stdout);
        return;
    }
    gather(c);
}
