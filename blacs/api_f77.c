/*
 * blacs/api_f77.c - the Fortran interface (gfortran/g77 convention: lower
 * case, one trailing underscore, every argument by address).  gfortran adds
 * hidden CHARACTER lengths after the last argument; they are never read, so
 * C callers that omit them (as ScaLAPACK's own C code does) work too.  At the
 * end, the other manglings of every name (name, name__, NAME), generated
 * from the list in f77_names.h.
 */
#include "blacs.h"
#include "f77_names.h"
#include "internal.h"
#include "ops.h"

/* ---- support routines ---- */

BLX_API void blacs_pinfo_(int *mypnum, int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void blacs_setup_(int *mypnum, int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void blacs_get_(int *ConTxt, int *what, int *val) { blx_get(BLX_IFACE_F77, *ConTxt, *what, val); }
BLX_API void blacs_set_(int *ConTxt, int *what, int *val) { blx_set(*ConTxt, *what, val); }

BLX_API void blacs_gridinit_(int *ConTxt, char *order, int *nprow, int *npcol)
{
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, *ConTxt, "BLACS_GRIDINIT");
    blx_gridinit("BLACS_GRIDINIT", ConTxt, sys, order, *nprow, *npcol);
}

BLX_API void blacs_gridmap_(int *ConTxt, int *usermap, int *ldumap, int *nprow, int *npcol)
{
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, *ConTxt, "BLACS_GRIDMAP");
    blx_gridmap("BLACS_GRIDMAP", ConTxt, sys, usermap, *ldumap, *nprow, *npcol);
}

BLX_API void blacs_gridinfo_(int *ConTxt, int *nprow, int *npcol, int *myrow, int *mycol)
{
    blx_gridinfo(*ConTxt, nprow, npcol, myrow, mycol);
}

BLX_API void blacs_gridexit_(int *ConTxt) { blx_gridexit(*ConTxt); }
BLX_API void blacs_freebuff_(int *ConTxt, int *Wait)
{
    (void)ConTxt;
    blx_freebuff(*Wait);
}
BLX_API void blacs_abort_(int *ConTxt, int *ErrNo) { blx_abort(*ConTxt, *ErrNo); }
BLX_API void blacs_exit_(int *NotDone) { blx_exit(*NotDone); }
BLX_API int blacs_pnum_(int *ConTxt, int *prow, int *pcol) { return blx_pnum(*ConTxt, *prow, *pcol); }

BLX_API void blacs_pcoord_(int *ConTxt, int *pnum, int *prow, int *pcol)
{
    blx_pcoord(*ConTxt, *pnum, prow, pcol);
}

BLX_API void blacs_barrier_(int *ConTxt, char *scope) { blx_barrier(*ConTxt, scope); }
BLX_API void blacs_stats_(int *ConTxt) { blx_stats(*ConTxt); }

BLX_API int ksendid_(int *ConTxt, int *rdest, int *cdest)
{
    (void)ConTxt, (void)rdest, (void)cdest;
    return blx_kp2pid();
}

BLX_API int krecvid_(int *ConTxt, int *rsrc, int *csrc)
{
    (void)ConTxt, (void)rsrc, (void)csrc;
    return blx_kp2pid();
}

BLX_API int kbsid_(int *ConTxt, char *scope) { return blx_kscopedid(*ConTxt, scope, "KBSID"); }

BLX_API int kbrid_(int *ConTxt, char *scope, int *rsrc, int *csrc)
{
    (void)rsrc, (void)csrc;
    return blx_kscopedid(*ConTxt, scope, "KBRID");
}

/* A Fortran system context is the Fortran communicator handle itself. */
BLX_API int sys2blacs_handle_(int *SysCtxt) { return *SysCtxt; }
BLX_API int blacs2sys_handle_(int *BlacsCtxt) { return *BlacsCtxt; }
BLX_API void free_blacs_system_handle_(int *ISysCtxt) { (void)ISysCtxt; }

/* ---- communication routines, per type ---- */

#define BLX_F77_P2P(v, V, R, cplx)                                                                           \
    BLX_API void v##gesd2d_(int *ConTxt, int *M, int *N, R *A, int *lda, int *rdest, int *cdest)             \
    {                                                                                                        \
        static const blx_call call = {#V "GESD2D", BLX_T_##V};                                               \
        blx_send_matrix(&call, *ConTxt, NULL, NULL, *M, *N, A, *lda, *rdest, *cdest);                        \
    }                                                                                                        \
    BLX_API void v##gerv2d_(int *ConTxt, int *M, int *N, R *A, int *lda, int *rsrc, int *csrc)               \
    {                                                                                                        \
        static const blx_call call = {#V "GERV2D", BLX_T_##V};                                               \
        blx_recv_matrix(&call, *ConTxt, NULL, NULL, *M, *N, A, *lda, *rsrc, *csrc);                          \
    }                                                                                                        \
    BLX_API void v##trsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, R *A, int *lda, int *rdest, \
                            int *cdest)                                                                      \
    {                                                                                                        \
        static const blx_call call = {#V "TRSD2D", BLX_T_##V};                                               \
        blx_send_matrix(&call, *ConTxt, uplo, diag, *M, *N, A, *lda, *rdest, *cdest);                        \
    }                                                                                                        \
    BLX_API void v##trrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, R *A, int *lda, int *rsrc,  \
                            int *csrc)                                                                       \
    {                                                                                                        \
        static const blx_call call = {#V "TRRV2D", BLX_T_##V};                                               \
        blx_recv_matrix(&call, *ConTxt, uplo, diag, *M, *N, A, *lda, *rsrc, *csrc);                          \
    }
BLX_FOR_EACH_TYPE(BLX_F77_P2P)
#undef BLX_F77_P2P

#define BLX_F77_BCAST(v, V, R, cplx)                                                                        \
    BLX_API void v##gebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, R *A, int *lda)            \
    {                                                                                                       \
        static const blx_call call = {#V "GEBS2D", BLX_T_##V};                                              \
        blx_bcast_send(&call, *ConTxt, scope, top, NULL, NULL, *M, *N, A, *lda);                            \
    }                                                                                                       \
    BLX_API void v##gebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, R *A, int *lda, int *rsrc, \
                            int *csrc)                                                                      \
    {                                                                                                       \
        static const blx_call call = {#V "GEBR2D", BLX_T_##V};                                              \
        blx_bcast_recv(&call, *ConTxt, scope, top, NULL, NULL, *M, *N, A, *lda, *rsrc, *csrc);              \
    }                                                                                                       \
    BLX_API void v##trbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,    \
                            R *A, int *lda)                                                                 \
    {                                                                                                       \
        static const blx_call call = {#V "TRBS2D", BLX_T_##V};                                              \
        blx_bcast_send(&call, *ConTxt, scope, top, uplo, diag, *M, *N, A, *lda);                            \
    }                                                                                                       \
    BLX_API void v##trbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,    \
                            R *A, int *lda, int *rsrc, int *csrc)                                           \
    {                                                                                                       \
        static const blx_call call = {#V "TRBR2D", BLX_T_##V};                                              \
        blx_bcast_recv(&call, *ConTxt, scope, top, uplo, diag, *M, *N, A, *lda, *rsrc, *csrc);              \
    }
BLX_FOR_EACH_TYPE(BLX_F77_BCAST)
#undef BLX_F77_BCAST

#define BLX_F77_COMBINE(v, V, R, cplx)                                                                       \
    BLX_API void v##gsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, R *A, int *lda, int *rdest, \
                            int *cdest)                                                                      \
    {                                                                                                        \
        static const blx_call call = {#V "GSUM2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_SUM, *ConTxt, scope, top, *M, *N, A, *lda, NULL, NULL, -1, *rdest,         \
                    *cdest);                                                                                 \
    }                                                                                                        \
    BLX_API void v##gamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, R *A, int *lda, int *rA,    \
                            int *cA, int *ldia, int *rdest, int *cdest)                                      \
    {                                                                                                        \
        static const blx_call call = {#V "GAMX2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_AMX, *ConTxt, scope, top, *M, *N, A, *lda, rA, cA, *ldia, *rdest, *cdest); \
    }                                                                                                        \
    BLX_API void v##gamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, R *A, int *lda, int *rA,    \
                            int *cA, int *ldia, int *rdest, int *cdest)                                      \
    {                                                                                                        \
        static const blx_call call = {#V "GAMN2D", BLX_T_##V};                                               \
        blx_combine(&call, BLX_OP_AMN, *ConTxt, scope, top, *M, *N, A, *lda, rA, cA, *ldia, *rdest, *cdest); \
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
