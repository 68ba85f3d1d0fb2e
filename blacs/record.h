/*
 * blacs/record.h - one BLACS call, described once: the call record.
 *
 * Every communication entry point (api_c.c, api_f77.c, api_comm.c) fills a
 * blx_call with what the user passed: its name, type, kind and arguments,
 * integers as the interface gave them.  blx_enter (call.h) checks and
 * decodes what the kinds share; the core of the family, the route, the
 * agreement check (agree.c), the hang report (watch.c) and the statistics
 * (stats.c) all read this one record.
 */
#ifndef BLX_RECORD_H
#define BLX_RECORD_H

#include "internal.h"
#include "ops.h"

struct blx_uop;

/* What a call does. */
typedef enum blx_kind {
    BLX_SEND,       /* vGESD2D, vTRSD2D */
    BLX_RECV,       /* vGERV2D, vTRRV2D; from any process: vGERVA2D, vTRRVA2D */
    BLX_BCAST_SEND, /* vGEBS2D, vTRBS2D */
    BLX_BCAST_RECV, /* vGEBR2D, vTRBR2D */
    BLX_COMBINE,    /* vGSUM2D, vGAMX2D, vGAMN2D, vTUOP2D */
    BLX_BARRIER     /* BLACS_BARRIER */
} blx_kind;

typedef struct blx_call {
    /* what the entry point passes */
    const char *name; /* as the user spelled it: "Cdgesd2d" or "DGESD2D" */
    blx_type type;
    blx_kind kind;
    blx_opkind op; /* combines */
    blacs_int ctxt;
    const char *scope, *top;
    const char *uplo, *diag; /* NULL: a general matrix (vTUOP2D: UPLO 'G' too) */
    int64_t m, n, lda;
    void *A;
    blacs_int row, col;           /* RDEST, CDEST or RSRC, CSRC */
    blacs_int *rA, *cA;           /* AMX, AMN: the locations, LDIA apart */
    int64_t ldia;                 /* AMX, AMN: -1 for no locations */
    blacs_int *src_row, *src_col; /* vGERVA2D, vTRRVA2D: RSRC, CSRC (-1: any), and the sender's */
    const struct blx_uop *user;   /* vTUOP2D: the user's functions */
    /* decoded by blx_enter */
    blx_ctx *c;
    blx_scope *s;    /* broadcasts, combines, the barrier */
    blx_shape shape; /* not the barrier */
    int peer;        /* the other side: the grid rank of a point-to-point message's (-1: any
                        process), the scope member at the root of a broadcast or combine (-1:
                        a combine's result goes to every member) */
    char letter;     /* TOP, upper case */
    int tag;         /* message ID, -1 until known */
    int watched;     /* kept for hang reports and statistics (watch.h) */
    double since;    /* MPI_Wtime() at entry, when watched */
    int reports;     /* hang reports made during it */
} blx_call;

/* Whether the record names every member of its scope as the other side. */
static inline int blx_call_to_all(const blx_call *k)
{
    return k->kind == BLX_BCAST_SEND || (k->kind == BLX_COMBINE && k->peer < 0);
}
/* The grid coordinates of the other side ({-1,-1}: everyone, or any). */
static inline void blx_call_peer(const blx_call *k, int *row, int *col)
{
    *row = *col = -1;
    if (k->peer < 0 || blx_call_to_all(k))
        return;
    int g = k->s != NULL ? k->s->first + k->peer * k->s->stride : k->peer;
    *row = g / k->c->npcol;
    *col = g % k->c->npcol;
}

#endif
