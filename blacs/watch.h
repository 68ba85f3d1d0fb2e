/*
 * blacs/watch.h - what each process is doing, for hang reports (debug level
 * 2 and above) and statistics: every entry point that may wait records its
 * call in the user's terms, and the layers below report long waits through
 * the report hook (base/report.h) to blx_watch_waiting.
 *
 * A hang report.  A process that has waited BLACS_HANG_TIMEOUT seconds in a
 * call of context c sends a request to every other member of c's grid over
 * the grid's watch communicator; each process that is itself waiting in a
 * BLACS call answers with a line describing that call (a polling wait
 * answers within a tenth of a second); the others do not answer, being in
 * their own code, finished, or blocked in MPI outside the BLACS.  After two
 * seconds the requester prints every answer, and which processes gave none,
 * then stops the job (BLACS_HANG_ACTION=abort) or waits on and reports
 * again after each further timeout (=wait).
 */
#ifndef BLX_WATCH_H
#define BLX_WATCH_H

#include "../base/debug.h"
#include "internal.h"

/* The call a thread is in (only kept at debug level 2 and above, or with
 * statistics on). */
typedef struct blx_doing {
    const char *routine;
    int ctxt;
    char kind;       /* 's' send, 'r' receive, 'b' broadcast from here, 'B' broadcast to here,
                        'c' combine, 'w' barrier, 0: none */
    char op;         /* combines: '+' sum, '>' amx, '<' amn, 'u' user (vTUOP2D) */
    char scope, top; /* letters; 0 for point-to-point */
    int row, col;    /* the other side: destination, source, root; -1: everyone */
    int64_t m, n;
    char uplo, diag; /* 'G' for general matrices */
    blx_type type;
    int tag;      /* message ID, -1 until known */
    double since; /* MPI_Wtime() at entry */
    int reports;  /* hang reports made during this call */
} blx_doing;

/* Whether calls are recorded at all (debug level >= 2 or statistics). */
BLX_INTERNAL int blx_watching(void);
/* The calling thread's record: begin fills it, end clears it. */
BLX_INTERNAL blx_doing *blx_doing_begin(const char *routine, int ctxt, char kind);
BLX_INTERNAL void blx_doing_end(void);
BLX_INTERNAL blx_doing *blx_doing_now(void);
/* The record as a sentence, e.g. "Cdgerv2d (context 0): receiving a 4 x 1
 * double matrix from {0,1}, message ID 12, for 61.0 s". */
BLX_INTERNAL void blx_doing_describe(const blx_doing *d, char *buf, size_t len);

/* The report hook's 'waiting' (registered in state.c). */
BLX_INTERNAL void blx_watch_waiting(int ctxt, double seconds);

/* A grid's debug communicators (watch at level 2, check and agree at 3),
 * made and freed collectively with the grid. */
BLX_INTERNAL void blx_watch_grid_init(blx_ctx *c, const char *routine);
BLX_INTERNAL void blx_watch_grid_free(blx_ctx *c);

/* Level 2: a receive from this process itself that nothing sent yet can
 * never complete: a clear error instead of the hang. */
BLX_INTERNAL void blx_watch_self_receive(const blx_ctx *c, const blx_call *call, int tag);

/* Statistics (stats.c): one finished call of d, its bytes and the
 * algorithm that ran; BLACS_STATS at the start and at BLACS_EXIT (the
 * public Cblacs_stats: blx_stats in internal.h). */
BLX_INTERNAL void blx_stats_count(const blx_doing *d, size_t bytes, const char *algorithm);
BLX_INTERNAL void blx_stats_start(int pnum);
BLX_INTERNAL void blx_stats_exit(int pnum);

/* A recorded matrix call (NULL when nothing is recorded). */
BLX_INTERNAL blx_doing *blx_doing_matrix(const blx_call *call, int ctxt, char kind, const blx_shape *s,
                                         int row, int col);

/* Level 3 (agree.c).  What the members of a scope must agree on before a
 * broadcast or combine (values that do not apply are 0). */
typedef struct blx_agreement {
    int op;              /* 1 broadcast, 2 sum, 3 absolute max, 4 absolute min, 5 user (vTUOP2D) */
    long long count;     /* elements */
    int uplo, diag;      /* trapezoids: 'U'/'L', 'U'/'N'; general: 'G', 0 */
    long long m, n;      /* trapezoids: M, N; general: 0, 0 */
    int top;             /* the TOP letter, upper case */
    int all, root;       /* leave-on-all; the source or destination member (-1: all) */
    int located;         /* AMX/AMN with locations */
    int rings, branches; /* BLACS_SET 11/13 for 'M', 12/14 for 'T' */
    int repeat;          /* BLACS_SET 15, combines */
} blx_agreement;
BLX_INTERNAL void blx_agree_collective(const blx_ctx *c, blx_scope *s, const blx_call *call,
                                       const blx_agreement *a);
/* Point-to-point: the description sent with a message (from the end of its
 * send buffer) and checked by the receiver. */
BLX_INTERNAL size_t blx_agree_header_bytes(void);
BLX_INTERNAL void blx_agree_send(const blx_ctx *c, const blx_call *call, const blx_shape *s, blx_buf *b,
                                 size_t at, int dest, int tag);
BLX_INTERNAL void blx_agree_recv(const blx_ctx *c, const blx_call *call, const blx_shape *s, int src,
                                 int tag);

/* The end of a recorded call: counted (statistics on) and forgotten. */
static inline void blx_doing_done(blx_doing *d, size_t bytes, const char *algorithm)
{
    if (d == NULL)
        return;
    if (blx_debug_get()->stats)
        blx_stats_count(d, bytes, algorithm);
    blx_doing_end();
}

#endif
