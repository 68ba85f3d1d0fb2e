/*
 * blacs/watch.c - what each process is doing, and hang reports; see watch.h.
 */
#include "watch.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/debug.h"
#include "../base/watchdog.h"

enum { TAG_ASK = 1, TAG_ANSWER = 2, LINE = 400 };
#define ANSWER_WAIT 2.0 /* seconds a report waits for the others' answers */

static _Thread_local blx_call *now; /* the call this thread is in, where waits report hangs */
static _Thread_local double waited; /* how long its current wait has lasted, as last reported */
/* level 1: the call of the thread inside the BLACS (one at a time: threads.h), for the watchdog */
static blx_call *_Atomic current;

/* Calls are timed at level 2 and with statistics. */
static int watching(void)
{
    const blx_debug *d = blx_debug_get();
    return d->level >= 2 || d->stats;
}

void blx_watch_begin(blx_call *k)
{
    const blx_debug *d = blx_debug_get();
    k->watched = watching();
    k->since = k->watched ? MPI_Wtime() : 0;
    if (d->polls || k->watched)
        now = k, waited = 0;
    if (d->watchdog)
        atomic_store_explicit(&current, k, memory_order_release);
}

void blx_watch_end(const blx_call *k)
{
    if (now == k)
        now = NULL;
    blx_call *was = (blx_call *)k;
    if (blx_debug_get()->watchdog)
        atomic_compare_exchange_strong(&current, &was, NULL);
}

static const char *type_name(blx_type t)
{
    static const char *const names[BLX_NTYPES] = {"integer", "real", "double", "complex", "double complex"};
    return names[t];
}

/* The other side in words: "{r,c}", "everyone", "any process of row r". */
static void peer_words(const blx_call *k, char *buf, size_t len)
{
    int row, col;
    blx_call_peer(k, &row, &col);
    int any_row = k->src_row ? (int)*k->src_row : -1, any_col = k->src_col ? (int)*k->src_col : -1;
    if (row >= 0)
        snprintf(buf, len, "{%d,%d}", row, col);
    else if (k->kind != BLX_RECV)
        snprintf(buf, len, "everyone");
    else if (any_row >= 0 && any_col >= 0) /* vGERVA2D naming one process */
        snprintf(buf, len, "{%d,%d}", any_row, any_col);
    else if (any_row >= 0)
        snprintf(buf, len, "any process of row %d", any_row);
    else if (any_col >= 0)
        snprintf(buf, len, "any process of column %d", any_col);
    else
        snprintf(buf, len, "any process");
}

static void shape_words(const blx_call *k, char *buf, size_t len)
{
    const blx_shape *s = &k->shape;
    if (s->uplo == 'G')
        snprintf(buf, len, "a %lld x %lld %s matrix", (long long)s->m, (long long)s->n, type_name(k->type));
    else
        snprintf(buf, len, "a %lld x %lld %s trapezoid (UPLO '%c', DIAG '%c')", (long long)s->m,
                 (long long)s->n, type_name(k->type), s->uplo, s->unit ? 'U' : 'N');
}

/* k in words, waiting for 'seconds' so far (NULL: not in a BLACS call) */
static void describe(const blx_call *k, double seconds, char *buf, size_t len)
{
    if (k == NULL) {
        snprintf(buf, len, "not in a BLACS call");
        return;
    }
    char where[64] = "", shape[128] = "", peer[48], id[32] = "";
    if (k->s != NULL)
        snprintf(where, sizeof where, ", scope '%c', TOP '%c'", "RCA"[k->s->id],
                 k -> letter ? k -> letter : ' ');
    if (k->kind != BLX_BARRIER)
        shape_words(k, shape, sizeof shape);
    peer_words(k, peer, sizeof peer);
    if (k->tag >= 0)
        snprintf(id, sizeof id, ", message ID %d", k->tag);
    static const char *const verbs[] = {"sending %s to %s",
                                        "receiving %s from %s",
                                        "broadcasting %s to %s",
                                        "receiving a broadcast of %s from %s",
                                        "combining %s, the result to %s",
                                        "in a barrier%.0s%.0s"};
    char what[200];
    snprintf(what, sizeof what, verbs[k->kind], shape, peer);
    snprintf(buf, len, "%s (context %d%s): %s%s, for %.1f s", k->name, k->c->handle, where, what, id,
             seconds);
}

/* how long the calling thread's call has lasted, or its wait where calls are not timed */
static double lasted(const blx_call *k)
{
    return k != NULL && k->since > 0 ? MPI_Wtime() - k->since : waited;
}

/* ---- level 1: the watchdog's report ---- */

/* Where this process waits (called by the watchdog thread, base/watchdog.h),
 * from a copy of the call taken while the same wait ('seq') was still under
 * way.  No MPI call but MPI_Abort (BLACS_HANG_ACTION=abort). */
static void self_report(unsigned long seq, double seconds)
{
    blx_call *k = atomic_load_explicit(&current, memory_order_acquire), copy;
    if (k != NULL)
        copy = *k;
    if (blx_wait_seq() != seq) /* the wait ended meanwhile: the copy may be of another call */
        return;
    char mine[LINE];
    describe(k != NULL ? &copy : NULL, seconds, mine, sizeof mine);
    int row = k != NULL ? copy.c->myrow : -1, col = k != NULL ? copy.c->mycol : -1;
    fflush(stdout);
    fprintf(stderr,
            "BLACS HANG REPORT: process {%d,%d} has waited %.0f s (BLACS_HANG_TIMEOUT) in %s\n"
            "  pnum %d {%d,%d}: %s\n"
            "  (every process that waits this long reports itself; BLACS_DEBUG=2 asks every process of "
            "the grid and finds cycles of receives)\n",
            row, col, seconds, mine, blx_g.world_rank, row, col, mine);
    fflush(stderr);
    if (!blx_debug_get()->hang_wait)
        blx_fatal(k != NULL ? copy.c->handle : -1, k != NULL ? copy.name : "BLACS",
                  "waited %.0f s: a hang (report above; BLACS_HANG_ACTION=wait waits on instead)", seconds);
}

/* ---- the grids' debug communicators ---- */

void blx_watch_grid_init(blx_ctx *c, const char *routine)
{
    if (blx_debug_get()->watchdog)
        blx_watchdog_start(self_report);
    c->watch = c->check = MPI_COMM_NULL;
    for (int s = 0; s < BLX_NSCOPE; s++)
        c->agree[s] = MPI_COMM_NULL;
    int level = blx_debug_level();
    if (blx_debug_polls())
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

/* What this process is doing, as the answer's fields: 'r' for a receive
 * (whose sender find_cycle follows), its peer's coordinates. */
static char now_kind(int *row, int *col)
{
    *row = *col = -1;
    if (now == NULL)
        return '-';
    blx_call_peer(now, row, col);
    return "srbBcw"[now->kind];
}

/* An answer: "round|kind|row|col|pnum P {r,c}: what this process is doing". */
static void answer(const blx_ctx *c, int to, int round)
{
    char line[LINE];
    int pnum = -1, row, col;
    char kind = now_kind(&row, &col);
    MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    snprintf(line, sizeof line, "%d|%c|%d|%d|pnum %d {%d,%d}: ", round, kind, row, col, pnum, c->myrow,
             c->mycol);
    describe(now, lasted(now), line + strlen(line), sizeof line - strlen(line));
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

/* Processes that each wait to receive from the next form a deadlock: say
 * so; returns how many such cycles there are. */
static int find_cycle(const blx_ctx *c, const char *answers, int size, int me)
{
    int cycles = 0;
    int *next = malloc((size_t)size * sizeof *next);
    for (int r = 0; next != NULL && r < size; r++) {
        const char *a = answers + (size_t)r * LINE;
        int row = -1, col = -1;
        char kind = r == me ? now_kind(&row, &col) : a[0];
        if (r != me && a[0] != '\0')
            sscanf(a + 2, "%d|%d", &row, &col);
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
            cycles++;
        }
    }
    free(next);
    return cycles;
}

/* Asks every other member of c's grid what it is doing and prints the
 * answers, unless a lower rank that also timed out asked meanwhile: that
 * one prints for the job (returns 0 then; 1 if this one printed, 2 if it
 * found a deadlock). */
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
    describe(now, lasted(now), mine, sizeof mine);
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
    int cycles = answers != NULL ? find_cycle(c, answers, size, me) : 0;
    free(answers);
    fflush(stderr);
    return cycles > 0 ? 2 : 1;
}

void blx_watch_waiting(int ctxt, double seconds)
{
    waited = seconds;
    answer_requests();
    const blx_debug *d = blx_debug_get();
    static int outside; /* reports made in waits outside a watched call (BLACS_EXIT's, say) */
    int *reports = now != NULL ? &now->reports : &outside;
    if (d->hang_timeout <= 0 || seconds < d->hang_timeout * (*reports + 1))
        return;
    ++*reports;
    blx_ctx *c = blx_ctx_find(ctxt);
    int spoke = 1;
    if (c != NULL && c->watch != MPI_COMM_NULL) {
        spoke = hang_report(c, seconds);
    } else {
        char mine[LINE];
        describe(now, lasted(now), mine, sizeof mine);
        fprintf(stderr, "BLACS HANG REPORT: this process has waited %.0f s in %s\n", seconds, mine);
    }
    if (!d->hang_wait || (spoke == 2 && !d->hang_wait_asked)) /* a deadlock never ends */
        blx_fatal_once(spoke, ctxt, now != NULL ? now->name : "BLACS",
                       "waited %.0f s: a hang (report above; BLACS_HANG_ACTION=wait waits on instead)",
                       seconds);
}

void blx_watch_self_receive(const blx_call *k)
{
    const blx_ctx *c = k->c;
    int flag = 0;
    MPI_Status st;
    blx_check_mpi(c->handle, k->name, MPI_Iprobe(c->vpid, k->tag, c->comm, &flag, &st), "MPI_Iprobe");
    if (!flag)
        blx_fatal(c->handle, k->name,
                  "receiving from this process itself ({%d,%d}) with no matching send made before: it "
                  "would wait forever (found at BLACS_DEBUG=1 and above)",
                  c->myrow, c->mycol);
}
