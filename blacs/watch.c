/*
 * blacs/watch.c - what each process is doing, and hang reports; see watch.h.
 */
#include "watch.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/debug.h"

enum { TAG_ASK = 1, TAG_ANSWER = 2, LINE = 400 };
#define ANSWER_WAIT 2.0 /* seconds a report waits for the others' answers */

static _Thread_local blx_doing now;

int blx_watching(void)
{
    const blx_debug *d = blx_debug_get();
    return d->level >= 2 || d->stats;
}

blx_doing *blx_doing_begin(const char *routine, int ctxt, char kind)
{
    now = (blx_doing){routine, ctxt, kind, 0, 0, 0, -1, -1, 0, 0, 'G', 'N', BLX_T_D, -1, MPI_Wtime(), 0};
    return &now;
}

void blx_doing_end(void) { now.kind = 0; }

blx_doing *blx_doing_matrix(const blx_call *call, int ctxt, char kind, const blx_shape *s, int row, int col)
{
    if (!blx_watching())
        return NULL;
    blx_doing *d = blx_doing_begin(call->name, ctxt, kind);
    d->m = s->m;
    d->n = s->n;
    d->uplo = s->uplo;
    d->diag = s->unit ? 'U' : 'N';
    d->type = call->type;
    d->row = row;
    d->col = col;
    return d;
}
blx_doing *blx_doing_now(void) { return &now; }

static const char *type_name(blx_type t)
{
    static const char *const names[BLX_NTYPES] = {"integer", "real", "double", "complex", "double complex"};
    return names[t];
}

void blx_doing_describe(const blx_doing *d, char *buf, size_t len)
{
    if (d->kind == 0) {
        snprintf(buf, len, "not in a BLACS call");
        return;
    }
    char where[64] = "", shape[128], peer[48] = "everyone", id[32] = "";
    if (d->scope)
        snprintf(where, sizeof where, ", scope '%c', TOP '%c'", d->scope, d->top ? d->top : ' ');
    if (d->uplo == 'G')
        snprintf(shape, sizeof shape, "a %lld x %lld %s matrix", (long long)d->m, (long long)d->n,
                 type_name(d->type));
    else
        snprintf(shape, sizeof shape, "a %lld x %lld %s trapezoid (UPLO '%c', DIAG '%c')", (long long)d->m,
                 (long long)d->n, type_name(d->type), d->uplo, d->diag);
    if (d->row >= 0 && d->col >= 0)
        snprintf(peer, sizeof peer, "{%d,%d}", d->row, d->col);
    else if (d->kind == 'r' && d->row >= 0) /* receives from any source (vGERVA2D) */
        snprintf(peer, sizeof peer, "any process of row %d", d->row);
    else if (d->kind == 'r' && d->col >= 0)
        snprintf(peer, sizeof peer, "any process of column %d", d->col);
    else if (d->kind == 'r')
        snprintf(peer, sizeof peer, "any process");
    if (d->tag >= 0)
        snprintf(id, sizeof id, ", message ID %d", d->tag);
    const char *verb = d->kind == 's'   ? "sending %s to %s"
                       : d->kind == 'r' ? "receiving %s from %s"
                       : d->kind == 'b' ? "broadcasting %s to %s"
                       : d->kind == 'B' ? "receiving a broadcast of %s from %s"
                       : d->kind == 'c' ? "combining %s, the result to %s"
                                        : "in a barrier%.0s%.0s";
    char what[200];
    snprintf(what, sizeof what, verb, shape, peer);
    snprintf(buf, len, "%s (context %d%s): %s%s, for %.1f s", d->routine, d->ctxt, where, what, id,
             MPI_Wtime() - d->since);
}

/* ---- the grids' debug communicators ---- */

void blx_watch_grid_init(blx_ctx *c, const char *routine)
{
    c->watch = c->check = MPI_COMM_NULL;
    for (int s = 0; s < BLX_NSCOPE; s++)
        c->agree[s] = MPI_COMM_NULL;
    int level = blx_debug_level();
    if (level >= 2)
        blx_check_mpi(-1, routine, MPI_Comm_dup(c->comm, &c->watch), "MPI_Comm_dup");
    if (level >= 3) {
        blx_check_mpi(-1, routine, MPI_Comm_dup(c->comm, &c->check), "MPI_Comm_dup");
        for (int s = 0; s < BLX_NSCOPE; s++)
            blx_check_mpi(-1, routine, MPI_Comm_dup(c->scope[s].comm, &c->agree[s]), "MPI_Comm_dup");
    }
    if (c->check != MPI_COMM_NULL)
        MPI_Comm_set_errhandler(c->check, MPI_ERRORS_RETURN);
}

void blx_watch_grid_free(blx_ctx *c)
{
    MPI_Comm *all[2 + BLX_NSCOPE] = {&c->watch, &c->check, &c->agree[0], &c->agree[1], &c->agree[2]};
    for (int i = 0; i < 2 + BLX_NSCOPE; i++)
        if (*all[i] != MPI_COMM_NULL)
            MPI_Comm_free(all[i]);
}

/* ---- answering and asking ---- */

/* The lowest grid rank that asked this process for a report during the
 * current hang report (it speaks for the job: see hang_report). */
static int lowest_asker = -1;

/* An answer: "round|kind|row|col|pnum P {r,c}: what this process is doing". */
static void answer(const blx_ctx *c, int to, int round)
{
    char line[LINE];
    int pnum = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    snprintf(line, sizeof line, "%d|%c|%d|%d|pnum %d {%d,%d}: ", round, now.kind ? now.kind : '-', now.row,
             now.col, pnum, c->myrow, c->mycol);
    blx_doing_describe(&now, line + strlen(line), sizeof line - strlen(line));
    MPI_Send(line, LINE, MPI_CHAR, to, TAG_ANSWER, c->watch); /* small: eager */
}

/* Answers every request for a report pending on the grids this process is in. */
static void answer_requests(void)
{
    for (int h = 0; h < blx_g.nctx; h++) {
        blx_ctx *c = blx_ctx_find(h);
        int flag = 1;
        while (c != NULL && c->watch != MPI_COMM_NULL && flag) {
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_ASK, c->watch, &flag, &st);
            if (!flag)
                break;
            int round;
            MPI_Recv(&round, 1, MPI_INT, st.MPI_SOURCE, TAG_ASK, c->watch, MPI_STATUS_IGNORE);
            if (lowest_asker < 0 || st.MPI_SOURCE < lowest_asker)
                lowest_asker = st.MPI_SOURCE;
            answer(c, st.MPI_SOURCE, round);
        }
    }
}

/* The answers of the others ([rank * LINE], empty: none), for ANSWER_WAIT
 * seconds, answering others meanwhile. */
static char *collect(const blx_ctx *c, int size, int me, int round)
{
    char *answers = size > 0 ? calloc((size_t)size, LINE) : NULL;
    double until = MPI_Wtime() + ANSWER_WAIT;
    /* listen the whole time even once everyone answered: a lower rank that
     * timed out too asks within it, and then it alone prints */
    while (answers != NULL && MPI_Wtime() < until) {
        int flag = 0;
        MPI_Status st;
        answer_requests();
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_ANSWER, c->watch, &flag, &st);
        if (!flag) {
            sched_yield();
            continue;
        }
        char line[LINE];
        MPI_Recv(line, LINE, MPI_CHAR, st.MPI_SOURCE, TAG_ANSWER, c->watch, MPI_STATUS_IGNORE);
        line[LINE - 1] = '\0';
        if (atoi(line) == round && st.MPI_SOURCE != me)
            memcpy(answers + (size_t)st.MPI_SOURCE * LINE, strchr(line, '|') + 1, LINE - 8);
    }
    return answers;
}

/* Processes that each wait to receive from the next form a deadlock: say so. */
static void find_cycle(const blx_ctx *c, const char *answers, int size, int me)
{
    int *next = malloc((size_t)size * sizeof *next);
    for (int r = 0; next != NULL && r < size; r++) {
        const char *a = answers + (size_t)r * LINE;
        int row = -1, col = -1;
        char kind = r == me ? now.kind : a[0];
        if (r == me) {
            row = now.row;
            col = now.col;
        } else if (a[0] != '\0') {
            sscanf(a + 2, "%d|%d", &row, &col);
        }
        next[r] = (kind == 'r' && row >= 0 && col >= 0) ? row * c->npcol + col : -1;
    }
    for (int start = 0; next != NULL && start < size; start++) {
        int r = start, steps = 0;
        while (r >= 0 && steps <= size && (r != start || steps == 0)) {
            r = next[r];
            steps++;
        }
        if (r == start && steps > 0) { /* a cycle through start: print it once, from its lowest rank */
            int low = start;
            for (int k = next[start]; k != start; k = next[k])
                low = k < low ? k : low;
            if (low != start)
                continue;
            fprintf(stderr, "  a deadlock: each of these receives from the next, which is receiving too:");
            r = start;
            do {
                fprintf(stderr, " {%d,%d} <-", r / c->npcol, r % c->npcol);
                r = next[r];
            } while (r != start);
            fprintf(stderr, " {%d,%d}\n", start / c->npcol, start % c->npcol);
        }
    }
    free(next);
}

/* Asks every other member of c's grid what it is doing and prints the
 * answers, unless a lower rank that also timed out asked meanwhile: that
 * one prints for the job (returns 0 then). */
static int hang_report(blx_ctx *c, double seconds)
{
    static int round;
    int size, me, pnum = -1;
    MPI_Comm_size(c->watch, &size);
    MPI_Comm_rank(c->watch, &me);
    MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    round++;
    lowest_asker = -1;
    for (int r = 0; r < size; r++)
        if (r != me) {
            MPI_Request q;
            MPI_Isend(&round, 1, MPI_INT, r, TAG_ASK, c->watch, &q);
            MPI_Request_free(&q);
        }
    char mine[LINE]; /* as of the timeout, before listening for the answers */
    blx_doing_describe(&now, mine, sizeof mine);
    char *answers = collect(c, size, me, round);
    if (lowest_asker >= 0 && lowest_asker < me) {
        free(answers);
        return 0;
    }
    fflush(stdout);
    fprintf(stderr, "BLACS HANG REPORT: process {%d,%d} has waited %.0f s (BLACS_HANG_TIMEOUT) in %s\n",
            c->myrow, c->mycol, seconds, mine);
    fprintf(stderr, "what the %d processes of context %d's %d x %d grid are doing:\n", size, c->handle,
            c->nprow, c->npcol);
    for (int r = 0; r < size; r++) {
        const char *a = answers != NULL ? answers + (size_t)r * LINE : "";
        if (r == me)
            fprintf(stderr, "  pnum %d {%d,%d}: %s\n", pnum, c->myrow, c->mycol, mine);
        else if (a[0] != '\0')
            fprintf(stderr, "  %s\n", strchr(strchr(strchr(a, '|') + 1, '|') + 1, '|') + 1);
        else
            fprintf(stderr,
                    "  {%d,%d}: no answer: not in a BLACS call (in its own code, finished, or in MPI "
                    "outside the BLACS)\n",
                    r / c->npcol, r % c->npcol);
    }
    if (answers != NULL)
        find_cycle(c, answers, size, me);
    free(answers);
    fflush(stderr);
    return 1;
}

void blx_watch_waiting(int ctxt, double seconds)
{
    answer_requests();
    const blx_debug *d = blx_debug_get();
    if (d->hang_timeout <= 0 || seconds < d->hang_timeout * (now.reports + 1))
        return;
    now.reports++;
    blx_ctx *c = blx_ctx_find(ctxt);
    int spoke = 1;
    if (c != NULL && c->watch != MPI_COMM_NULL) {
        spoke = hang_report(c, seconds);
    } else {
        char mine[LINE];
        blx_doing_describe(&now, mine, sizeof mine);
        fprintf(stderr, "BLACS HANG REPORT: this process has waited %.0f s in %s\n", seconds, mine);
    }
    if (!d->hang_wait)
        blx_fatal_once(spoke, ctxt, now.routine ? now.routine : "BLACS",
                       "waited %.0f s: a hang (report above; BLACS_HANG_ACTION=wait waits on instead)",
                       seconds);
}

void blx_watch_self_receive(const blx_ctx *c, const blx_call *call, int tag)
{
    int flag = 0;
    MPI_Status st;
    blx_check_mpi(c->handle, call->name, MPI_Iprobe(c->vpid, tag, c->comm, &flag, &st), "MPI_Iprobe");
    if (!flag)
        blx_fatal(c->handle, call->name,
                  "receiving from this process itself ({%d,%d}) with no matching send made before: it "
                  "would wait forever (found at BLACS_DEBUG=2)",
                  c->myrow, c->mycol);
}
