/*
 * blacs/api_c.c - the C interface.  Every routine is a thin wrapper over the
 * shared core; the per-type routines are generated from the type list.
 * Integers are blacs_int (blacs.h): the core keeps contexts, coordinates
 * and grid sizes as int (MPI ranks; blx_int_arg checks them in the ILP64
 * library) and M, N, LDA, LDIA as 64-bit.
 */
#include "blacs.h"
#include "internal.h"
#include "ops.h"

#define I(v, name) blx_int_arg((v), routine, (name))

/* ---- support routines ---- */

static void pinfo(blacs_int *mypnum, blacs_int *nprocs)
{
    int me, np;
    blx_pinfo(&me, &np);
    *mypnum = me;
    *nprocs = np;
}

BLX_API void Cblacs_pinfo(blacs_int *mypnum, blacs_int *nprocs) { pinfo(mypnum, nprocs); }
BLX_API void Cblacs_setup(blacs_int *mypnum, blacs_int *nprocs) { pinfo(mypnum, nprocs); }

BLX_API void Cblacs_get(blacs_int ConTxt, blacs_int what, blacs_int *val)
{
    const char *routine = "BLACS_GET";
    int w = I(what, "WHAT");
    /* the codes that ignore ConTxt take any value */
    int ctxt = w < BLACS_SGET_BLACSCONTXT ? blx_int_or_none(ConTxt) : I(ConTxt, "ConTxt");
    blx_get(BLX_IFACE_C, ctxt, w, val);
}

BLX_API void Cblacs_set(blacs_int ConTxt, blacs_int what, blacs_int *val)
{
    const char *routine = "BLACS_SET";
    int w = I(what, "WHAT");
    int ctxt = w < BLACS_SGET_BLACSCONTXT ? blx_int_or_none(ConTxt) : I(ConTxt, "ConTxt");
    blx_set(ctxt, w, val);
}

BLX_API void Cblacs_gridinit(blacs_int *ConTxt, char *order, blacs_int nprow, blacs_int npcol)
{
    const char *routine = "BLACS_GRIDINIT";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridinit(routine, &ctxt, sys, order, I(nprow, "NPROW"), I(npcol, "NPCOL"));
    *ConTxt = ctxt;
}

BLX_API void Cblacs_gridmap(blacs_int *ConTxt, blacs_int *usermap, blacs_int ldumap, blacs_int nprow,
                            blacs_int npcol)
{
    const char *routine = "BLACS_GRIDMAP";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridmap(routine, &ctxt, sys, usermap, ldumap, I(nprow, "NPROW"), I(npcol, "NPCOL"));
    *ConTxt = ctxt;
}

BLX_API void Cblacs_gridinfo(blacs_int ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                             blacs_int *mycol)
{
    int r, c, mr, mc;
    blx_gridinfo(blx_int_or_none(ConTxt), &r, &c, &mr, &mc);
    *nprow = r, *npcol = c, *myrow = mr, *mycol = mc;
}

BLX_API void Cblacs_gridexit(blacs_int ConTxt)
{
    const char *routine = "BLACS_GRIDEXIT";
    blx_gridexit(I(ConTxt, "ConTxt"));
}

BLX_API void Cblacs_freebuff(blacs_int ConTxt, blacs_int Wait)
{
    (void)ConTxt;
    blx_freebuff(Wait != 0);
}

BLX_API void Cblacs_abort(blacs_int ConTxt, blacs_int ErrNo)
{
    const char *routine = "BLACS_ABORT";
    blx_abort(blx_int_or_none(ConTxt), I(ErrNo, "ErrNo"));
}

BLX_API void Cblacs_exit(blacs_int NotDone) { blx_exit(NotDone != 0); }

BLX_API blacs_int Cblacs_pnum(blacs_int ConTxt, blacs_int prow, blacs_int pcol)
{
    return blx_pnum(blx_int_or_none(ConTxt), blx_int_or_none(prow), blx_int_or_none(pcol));
}

BLX_API void Cblacs_pcoord(blacs_int ConTxt, blacs_int pnum, blacs_int *prow, blacs_int *pcol)
{
    int r, c;
    blx_pcoord(blx_int_or_none(ConTxt), blx_int_or_none(pnum), &r, &c);
    *prow = r, *pcol = c;
}

BLX_API void Cblacs_barrier(blacs_int ConTxt, char *scope)
{
    const char *routine = "BLACS_BARRIER";
    blx_barrier(I(ConTxt, "ConTxt"), scope);
}

BLX_API void Cblacs_stats(blacs_int ConTxt)
{
    const char *routine = "BLACS_STATS";
    blx_stats(I(ConTxt, "ConTxt"));
}

BLX_API blacs_int Cksendid(blacs_int ConTxt, blacs_int rdest, blacs_int cdest)
{
    (void)ConTxt, (void)rdest, (void)cdest;
    return blx_kp2pid();
}

BLX_API blacs_int Ckrecvid(blacs_int ConTxt, blacs_int rsrc, blacs_int csrc)
{
    (void)ConTxt, (void)rsrc, (void)csrc;
    return blx_kp2pid();
}

BLX_API blacs_int Ckbsid(blacs_int ConTxt, char *scope)
{
    const char *routine = "Ckbsid";
    return blx_kscopedid(I(ConTxt, "ConTxt"), scope, routine);
}

BLX_API blacs_int Ckbrid(blacs_int ConTxt, char *scope, blacs_int rsrc, blacs_int csrc)
{
    const char *routine = "Ckbrid";
    (void)rsrc, (void)csrc;
    return blx_kscopedid(I(ConTxt, "ConTxt"), scope, routine);
}

BLX_API blacs_int Csys2blacs_handle(MPI_Comm SysCtxt) { return blx_sys_register(SysCtxt); }

BLX_API MPI_Comm Cblacs2sys_handle(blacs_int BlacsCtxt)
{
    const char *routine = "Cblacs2sys_handle";
    return blx_sys_lookup(I(BlacsCtxt, "BlacsCtxt"), routine);
}

BLX_API void Cfree_blacs_system_handle(blacs_int ISysCtxt) { blx_sys_free(blx_int_or_none(ISysCtxt)); }

/* ---- communication routines, per type ---- */

/* The context and a coordinate of a communication routine, as ints. */
#define CTX blx_int_arg(ConTxt, call.name, "ConTxt")
#define RC(v, arg) blx_int_arg((v), call.name, (arg))

#define BLX_C_P2P(v, V, R, cplx)                                                                        \
    BLX_API void C##v##gesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, R *A, blacs_int lda,          \
                              blacs_int rdest, blacs_int cdest)                                         \
    {                                                                                                   \
        static const blx_call call = {"C" #v "gesd2d", BLX_T_##V};                                      \
        blx_send_matrix(&call, CTX, NULL, NULL, M, N, A, lda, RC(rdest, "RDEST"), RC(cdest, "CDEST"));  \
    }                                                                                                   \
    BLX_API void C##v##gerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, R *A, blacs_int lda,          \
                              blacs_int rsrc, blacs_int csrc)                                           \
    {                                                                                                   \
        static const blx_call call = {"C" #v "gerv2d", BLX_T_##V};                                      \
        blx_recv_matrix(&call, CTX, NULL, NULL, M, N, A, lda, RC(rsrc, "RSRC"), RC(csrc, "CSRC"));      \
    }                                                                                                   \
    BLX_API void C##v##trsd2d(blacs_int ConTxt, char *uplo, char *diag, blacs_int M, blacs_int N, R *A, \
                              blacs_int lda, blacs_int rdest, blacs_int cdest)                          \
    {                                                                                                   \
        static const blx_call call = {"C" #v "trsd2d", BLX_T_##V};                                      \
        blx_send_matrix(&call, CTX, uplo, diag, M, N, A, lda, RC(rdest, "RDEST"), RC(cdest, "CDEST"));  \
    }                                                                                                   \
    BLX_API void C##v##trrv2d(blacs_int ConTxt, char *uplo, char *diag, blacs_int M, blacs_int N, R *A, \
                              blacs_int lda, blacs_int rsrc, blacs_int csrc)                            \
    {                                                                                                   \
        static const blx_call call = {"C" #v "trrv2d", BLX_T_##V};                                      \
        blx_recv_matrix(&call, CTX, uplo, diag, M, N, A, lda, RC(rsrc, "RSRC"), RC(csrc, "CSRC"));      \
    }
BLX_FOR_EACH_TYPE(BLX_C_P2P)
#undef BLX_C_P2P

#define BLX_C_BCAST(v, V, R, cplx)                                                                           \
    BLX_API void C##v##gebs2d(blacs_int ConTxt, char *scope, char *top, blacs_int M, blacs_int N, R *A,      \
                              blacs_int lda)                                                                 \
    {                                                                                                        \
        static const blx_call call = {"C" #v "gebs2d", BLX_T_##V};                                           \
        blx_bcast_send(&call, CTX, scope, top, NULL, NULL, M, N, A, lda);                                    \
    }                                                                                                        \
    BLX_API void C##v##gebr2d(blacs_int ConTxt, char *scope, char *top, blacs_int M, blacs_int N, R *A,      \
                              blacs_int lda, blacs_int rsrc, blacs_int csrc)                                 \
    {                                                                                                        \
        static const blx_call call = {"C" #v "gebr2d", BLX_T_##V};                                           \
        blx_bcast_recv(&call, CTX, scope, top, NULL, NULL, M, N, A, lda, RC(rsrc, "RSRC"),                   \
                       RC(csrc, "CSRC"));                                                                    \
    }                                                                                                        \
    BLX_API void C##v##trbs2d(blacs_int ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int M, \
                              blacs_int N, R *A, blacs_int lda)                                              \
    {                                                                                                        \
        static const blx_call call = {"C" #v "trbs2d", BLX_T_##V};                                           \
        blx_bcast_send(&call, CTX, scope, top, uplo, diag, M, N, A, lda);                                    \
    }                                                                                                        \
    BLX_API void C##v##trbr2d(blacs_int ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int M, \
                              blacs_int N, R *A, blacs_int lda, blacs_int rsrc, blacs_int csrc)              \
    {                                                                                                        \
        static const blx_call call = {"C" #v "trbr2d", BLX_T_##V};                                           \
        blx_bcast_recv(&call, CTX, scope, top, uplo, diag, M, N, A, lda, RC(rsrc, "RSRC"),                   \
                       RC(csrc, "CSRC"));                                                                    \
    }
BLX_FOR_EACH_TYPE(BLX_C_BCAST)
#undef BLX_C_BCAST

#define BLX_C_COMBINE(v, V, R, cplx)                                                                        \
    BLX_API void C##v##gsum2d(blacs_int ConTxt, char *scope, char *top, blacs_int M, blacs_int N, R *A,     \
                              blacs_int lda, blacs_int rdest, blacs_int cdest)                              \
    {                                                                                                       \
        static const blx_call call = {"C" #v "gsum2d", BLX_T_##V};                                          \
        blx_combine(&call, BLX_OP_SUM, CTX, scope, top, M, N, A, lda, NULL, NULL, -1, rdest, cdest);        \
    }                                                                                                       \
    BLX_API void C##v##gamx2d(blacs_int ConTxt, char *scope, char *top, blacs_int M, blacs_int N, R *A,     \
                              blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest, \
                              blacs_int cdest)                                                              \
    {                                                                                                       \
        static const blx_call call = {"C" #v "gamx2d", BLX_T_##V};                                          \
        blx_combine(&call, BLX_OP_AMX, CTX, scope, top, M, N, A, lda, rA, cA, ldia, RC(rdest, "RDEST"),     \
                    RC(cdest, "CDEST"));                                                                    \
    }                                                                                                       \
    BLX_API void C##v##gamn2d(blacs_int ConTxt, char *scope, char *top, blacs_int M, blacs_int N, R *A,     \
                              blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest, \
                              blacs_int cdest)                                                              \
    {                                                                                                       \
        static const blx_call call = {"C" #v "gamn2d", BLX_T_##V};                                          \
        blx_combine(&call, BLX_OP_AMN, CTX, scope, top, M, N, A, lda, rA, cA, ldia, RC(rdest, "RDEST"),     \
                    RC(cdest, "CDEST"));                                                                    \
    }
BLX_FOR_EACH_TYPE(BLX_C_COMBINE)
#undef BLX_C_COMBINE
