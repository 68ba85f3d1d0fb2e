/*
 * blacs/api_f77.c - the Fortran interface (gfortran/g77 convention: lower
 * case, one trailing underscore, every argument by address).  gfortran adds
 * hidden CHARACTER lengths after the last argument; they are never read, so
 * C callers that omit them (as ScaLAPACK's own C code does) work too.  At the
 * end, the other manglings of every name (name, name__, NAME), generated
 * from the list in f77_names.h.  Every INTEGER is a blacs_int (blacs.h):
 * 32-bit in the LP64 library, 64-bit in the ILP64 one.
 */
#include "blacs.h"
#include "f77_names.h"
#include "internal.h"
#include "ops.h"

/* ---- support routines ---- */

#define I(v, name) blx_int_arg((v), routine, (name))

static void pinfo(blacs_int *mypnum, blacs_int *nprocs)
{
    int me, np;
    blx_pinfo(&me, &np);
    *mypnum = me;
    *nprocs = np;
}

BLX_API void blacs_pinfo_(blacs_int *mypnum, blacs_int *nprocs) { pinfo(mypnum, nprocs); }
BLX_API void blacs_setup_(blacs_int *mypnum, blacs_int *nprocs) { pinfo(mypnum, nprocs); }

BLX_API void blacs_get_(blacs_int *ConTxt, blacs_int *what, blacs_int *val)
{
    const char *routine = "BLACS_GET";
    int w = I(*what, "WHAT");
    /* the codes that ignore ConTxt take any value */
    int ctxt = w < BLACS_SGET_BLACSCONTXT ? blx_int_or_none(*ConTxt) : I(*ConTxt, "ConTxt");
    blx_get(BLX_IFACE_F77, ctxt, w, val);
}

BLX_API void blacs_set_(blacs_int *ConTxt, blacs_int *what, blacs_int *val)
{
    const char *routine = "BLACS_SET";
    int w = I(*what, "WHAT");
    int ctxt = w < BLACS_SGET_BLACSCONTXT ? blx_int_or_none(*ConTxt) : I(*ConTxt, "ConTxt");
    blx_set(ctxt, w, val);
}

BLX_API void blacs_gridinit_(blacs_int *ConTxt, char *order, blacs_int *nprow, blacs_int *npcol)
{
    const char *routine = "BLACS_GRIDINIT";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridinit(routine, &ctxt, sys, order, I(*nprow, "NPROW"), I(*npcol, "NPCOL"));
    *ConTxt = ctxt;
}

BLX_API void blacs_gridmap_(blacs_int *ConTxt, blacs_int *usermap, blacs_int *ldumap, blacs_int *nprow,
                            blacs_int *npcol)
{
    const char *routine = "BLACS_GRIDMAP";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridmap(routine, &ctxt, sys, usermap, *ldumap, I(*nprow, "NPROW"), I(*npcol, "NPCOL"));
    *ConTxt = ctxt;
}

BLX_API void blacs_gridinfo_(blacs_int *ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                             blacs_int *mycol)
{
    int r, c, mr, mc;
    blx_gridinfo(blx_int_or_none(*ConTxt), &r, &c, &mr, &mc);
    *nprow = r, *npcol = c, *myrow = mr, *mycol = mc;
}

BLX_API void blacs_gridexit_(blacs_int *ConTxt)
{
    const char *routine = "BLACS_GRIDEXIT";
    blx_gridexit(I(*ConTxt, "ConTxt"));
}

BLX_API void blacs_freebuff_(blacs_int *ConTxt, blacs_int *Wait)
{
    (void)ConTxt;
    blx_freebuff(*Wait != 0);
}

BLX_API void blacs_abort_(blacs_int *ConTxt, blacs_int *ErrNo)
{
    const char *routine = "BLACS_ABORT";
    blx_abort(blx_int_or_none(*ConTxt), I(*ErrNo, "ErrNo"));
}

BLX_API void blacs_exit_(blacs_int *NotDone) { blx_exit(*NotDone != 0); }

BLX_API blacs_int blacs_pnum_(blacs_int *ConTxt, blacs_int *prow, blacs_int *pcol)
{
    return blx_pnum(blx_int_or_none(*ConTxt), blx_int_or_none(*prow), blx_int_or_none(*pcol));
}

BLX_API void blacs_pcoord_(blacs_int *ConTxt, blacs_int *pnum, blacs_int *prow, blacs_int *pcol)
{
    int r, c;
    blx_pcoord(blx_int_or_none(*ConTxt), blx_int_or_none(*pnum), &r, &c);
    *prow = r, *pcol = c;
}

BLX_API void blacs_barrier_(blacs_int *ConTxt, char *scope)
{
    const char *routine = "BLACS_BARRIER";
    blx_barrier(I(*ConTxt, "ConTxt"), scope);
}

BLX_API void blacs_stats_(blacs_int *ConTxt)
{
    const char *routine = "BLACS_STATS";
    blx_stats(I(*ConTxt, "ConTxt"));
}

BLX_API blacs_int ksendid_(blacs_int *ConTxt, blacs_int *rdest, blacs_int *cdest)
{
    (void)ConTxt, (void)rdest, (void)cdest;
    return blx_kp2pid();
}

BLX_API blacs_int krecvid_(blacs_int *ConTxt, blacs_int *rsrc, blacs_int *csrc)
{
    (void)ConTxt, (void)rsrc, (void)csrc;
    return blx_kp2pid();
}

BLX_API blacs_int kbsid_(blacs_int *ConTxt, char *scope)
{
    const char *routine = "KBSID";
    return blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
}

BLX_API blacs_int kbrid_(blacs_int *ConTxt, char *scope, blacs_int *rsrc, blacs_int *csrc)
{
    const char *routine = "KBRID";
    (void)rsrc, (void)csrc;
    return blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
}

/* A Fortran system context is the Fortran communicator handle itself. */
BLX_API blacs_int sys2blacs_handle_(blacs_int *SysCtxt) { return *SysCtxt; }
BLX_API blacs_int blacs2sys_handle_(blacs_int *BlacsCtxt) { return *BlacsCtxt; }
BLX_API void free_blacs_system_handle_(blacs_int *ISysCtxt) { (void)ISysCtxt; }

/* ---- communication routines, per type ---- */

/* The context and a coordinate of a communication routine, as ints. */
#define CTX blx_int_arg(*ConTxt, call.name, "ConTxt")
#define RC(v, arg) blx_int_arg((v), call.name, (arg))

#define BLX_F77_P2P(v, V, R, cplx)                                                                          \
    BLX_API void v##gesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, R *A, blacs_int *lda,            \
                            blacs_int *rdest, blacs_int *cdest)                                             \
    {                                                                                                       \
        static const blx_call call = {#V "GESD2D", BLX_T_##V};                                              \
        blx_send_matrix(&call, CTX, NULL, NULL, *M, *N, A, *lda, RC(*rdest, "RDEST"), RC(*cdest, "CDEST")); \
    }                                                                                                       \
    BLX_API void v##gerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, R *A, blacs_int *lda,            \
                            blacs_int *rsrc, blacs_int *csrc)                                               \
    {                                                                                                       \
        static const blx_call call = {#V "GERV2D", BLX_T_##V};                                              \
        blx_recv_matrix(&call, CTX, NULL, NULL, *M, *N, A, *lda, RC(*rsrc, "RSRC"), RC(*csrc, "CSRC"));     \
    }                                                                                                       \
    BLX_API void v##trsd2d_(blacs_int *ConTxt, char *uplo, char *diag, blacs_int *M, blacs_int *N, R *A,    \
                            blacs_int *lda, blacs_int *rdest, blacs_int *cdest)                             \
    {                                                                                                       \
        static const blx_call call = {#V "TRSD2D", BLX_T_##V};                                              \
        blx_send_matrix(&call, CTX, uplo, diag, *M, *N, A, *lda, RC(*rdest, "RDEST"), RC(*cdest, "CDEST")); \
    }                                                                                                       \
    BLX_API void v##trrv2d_(blacs_int *ConTxt, char *uplo, char *diag, blacs_int *M, blacs_int *N, R *A,    \
                            blacs_int *lda, blacs_int *rsrc, blacs_int *csrc)                               \
    {                                                                                                       \
        static const blx_call call = {#V "TRRV2D", BLX_T_##V};                                              \
        blx_recv_matrix(&call, CTX, uplo, diag, *M, *N, A, *lda, RC(*rsrc, "RSRC"), RC(*csrc, "CSRC"));     \
    }
BLX_FOR_EACH_TYPE(BLX_F77_P2P)
#undef BLX_F77_P2P

#define BLX_F77_BCAST(v, V, R, cplx)                                                                         \
    BLX_API void v##gebs2d_(blacs_int *ConTxt, char *scope, char *top, blacs_int *M, blacs_int *N, R *A,     \
                            blacs_int *lda)                                                                  \
    {                                                                                                        \
        static const blx_call call = {#V "GEBS2D", BLX_T_##V};                                               \
        blx_bcast_send(&call, CTX, scope, top, NULL, NULL, *M, *N, A, *lda);                                 \
    }                                                                                                        \
    BLX_API void v##gebr2d_(blacs_int *ConTxt, char *scope, char *top, blacs_int *M, blacs_int *N, R *A,     \
                            blacs_int *lda, blacs_int *rsrc, blacs_int *csrc)                                \
    {                                                                                                        \
        static const blx_call call = {#V "GEBR2D", BLX_T_##V};                                               \
        blx_bcast_recv(&call, CTX, scope, top, NULL, NULL, *M, *N, A, *lda, RC(*rsrc, "RSRC"),               \
                       RC(*csrc, "CSRC"));                                                                   \
    }                                                                                                        \
    BLX_API void v##trbs2d_(blacs_int *ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int *M, \
                            blacs_int *N, R *A, blacs_int *lda)                                              \
    {                                                                                                        \
        static const blx_call call = {#V "TRBS2D", BLX_T_##V};                                               \
        blx_bcast_send(&call, CTX, scope, top, uplo, diag, *M, *N, A, *lda);                                 \
    }                                                                                                        \
    BLX_API void v##trbr2d_(blacs_int *ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int *M, \
                            blacs_int *N, R *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc)            \
    {                                                                                                        \
        static const blx_call call = {#V "TRBR2D", BLX_T_##V};                                               \
        blx_bcast_recv(&call, CTX, scope, top, uplo, diag, *M, *N, A, *lda, RC(*rsrc, "RSRC"),               \
                       RC(*csrc, "CSRC"));                                                                   \
    }
BLX_FOR_EACH_TYPE(BLX_F77_BCAST)
#undef BLX_F77_BCAST

#define BLX_F77_COMBINE(v, V, R, cplx)                                                                       \
    BLX_API void v##gsum2d_(blacs_int *ConTxt, char *scope, char *top, blacs_int *M, blacs_int *N, R *A,     \
                            blacs_int *lda, blacs_int *rdest, blacs_int *cdest)                              \
    {                                                                                                        \
        static const blx_call call = {#V "GSUM2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_SUM, CTX, scope, top, *M, *N, A, *lda, NULL, NULL, -1,                     \
                    RC(*rdest, "RDEST"), RC(*cdest, "CDEST"));                                               \
    }                                                                                                        \
    BLX_API void v##gamx2d_(blacs_int *ConTxt, char *scope, char *top, blacs_int *M, blacs_int *N, R *A,     \
                            blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest, \
                            blacs_int *cdest)                                                                \
    {                                                                                                        \
        static const blx_call call = {#V "GAMX2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_AMX, CTX, scope, top, *M, *N, A, *lda, rA, cA, *ldia, RC(*rdest, "RDEST"), \
                    RC(*cdest, "CDEST"));                                                                    \
    }                                                                                                        \
    BLX_API void v##gamn2d_(blacs_int *ConTxt, char *scope, char *top, blacs_int *M, blacs_int *N, R *A,     \
                            blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest, \
                            blacs_int *cdest)                                                                \
    {                                                                                                        \
        static const blx_call call = {#V "GAMN2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_AMN, CTX, scope, top, *M, *N, A, *lda, rA, cA, *ldia, RC(*rdest, "RDEST"), \
                    RC(*cdest, "CDEST"));                                                                    \
    }
BLX_FOR_EACH_TYPE(BLX_F77_COMBINE)
#undef BLX_F77_COMBINE

/* ---- the other Fortran manglings (f77_names.h) ---- */

/* NEWNAME is another name of TARGET, exported like it. */
#define BLX_F77_ALIAS(newname, target) \
    BLX_API extern __typeof__(target) newname __attribute__((alias(#target)));
#define BLX_F77_SECOND_0(name)
#define BLX_F77_SECOND_1(name) BLX_F77_ALIAS(name##__, name##_)
#define BLX_F77_MANGLINGS(name, NAME, underscored) \
    BLX_F77_ALIAS(name, name##_)                   \
    BLX_F77_ALIAS(NAME, name##_)                   \
    BLX_F77_SECOND_##underscored(name)
BLX_F77_SUPPORT(BLX_F77_MANGLINGS)
#define BLX_F77_TYPE_MANGLINGS(v, V, R, cplx) BLX_F77_FAMILIES(BLX_F77_MANGLINGS, v, V)
BLX_FOR_EACH_TYPE(BLX_F77_TYPE_MANGLINGS)
#undef BLX_F77_TYPE_MANGLINGS
#undef BLX_F77_MANGLINGS

/* The timers are defined in timers.c: their other names call them. */
#define BLX_F77_TIMER_MANGLINGS(name, NAME, underscored) \
    BLX_API double name(void);                           \
    BLX_API double NAME(void);                           \
    BLX_API double name(void) { return name##_(); }      \
    BLX_API double NAME(void) { return name##_(); }
BLX_F77_TIMERS(BLX_F77_TIMER_MANGLINGS)
#undef BLX_F77_TIMER_MANGLINGS
