/*
 * blacs/api_c.c - the C interface.  Every routine is a thin wrapper over the
 * shared core; the per-type routines are generated from the type list.
 */
#include "blacs.h"
#include "internal.h"
#include "ops.h"

/* ---- support routines ---- */

BLX_API void Cblacs_pinfo(int *mypnum, int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void Cblacs_setup(int *mypnum, int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void Cblacs_get(int ConTxt, int what, int *val) { blx_get(BLX_IFACE_C, ConTxt, what, val); }
BLX_API void Cblacs_set(int ConTxt, int what, int *val) { blx_set(ConTxt, what, val); }

BLX_API void Cblacs_gridinit(int *ConTxt, char *order, int nprow, int npcol)
{
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, *ConTxt, "BLACS_GRIDINIT");
    blx_gridinit("BLACS_GRIDINIT", ConTxt, sys, order, nprow, npcol);
}

BLX_API void Cblacs_gridmap(int *ConTxt, int *usermap, int ldumap, int nprow, int npcol)
{
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, *ConTxt, "BLACS_GRIDMAP");
    blx_gridmap("BLACS_GRIDMAP", ConTxt, sys, usermap, ldumap, nprow, npcol);
}

BLX_API void Cblacs_gridinfo(int ConTxt, int *nprow, int *npcol, int *myrow, int *mycol)
{
    blx_gridinfo(ConTxt, nprow, npcol, myrow, mycol);
}

BLX_API void Cblacs_gridexit(int ConTxt) { blx_gridexit(ConTxt); }
BLX_API void Cblacs_freebuff(int ConTxt, int Wait)
{
    (void)ConTxt;
    blx_freebuff(Wait);
}
BLX_API void Cblacs_abort(int ConTxt, int ErrNo) { blx_abort(ConTxt, ErrNo); }
BLX_API void Cblacs_exit(int NotDone) { blx_exit(NotDone); }
BLX_API int Cblacs_pnum(int ConTxt, int prow, int pcol) { return blx_pnum(ConTxt, prow, pcol); }

BLX_API void Cblacs_pcoord(int ConTxt, int pnum, int *prow, int *pcol)
{
    blx_pcoord(ConTxt, pnum, prow, pcol);
}

BLX_API void Cblacs_barrier(int ConTxt, char *scope) { blx_barrier(ConTxt, scope); }
BLX_API void Cblacs_stats(int ConTxt) { blx_stats(ConTxt); }

BLX_API int Cksendid(int ConTxt, int rdest, int cdest)
{
    (void)ConTxt, (void)rdest, (void)cdest;
    return blx_kp2pid();
}

BLX_API int Ckrecvid(int ConTxt, int rsrc, int csrc)
{
    (void)ConTxt, (void)rsrc, (void)csrc;
    return blx_kp2pid();
}

BLX_API int Ckbsid(int ConTxt, char *scope) { return blx_kscopedid(ConTxt, scope, "Ckbsid"); }

BLX_API int Ckbrid(int ConTxt, char *scope, int rsrc, int csrc)
{
    (void)rsrc, (void)csrc;
    return blx_kscopedid(ConTxt, scope, "Ckbrid");
}

BLX_API int Csys2blacs_handle(MPI_Comm SysCtxt) { return blx_sys_register(SysCtxt); }
BLX_API MPI_Comm Cblacs2sys_handle(int BlacsCtxt) { return blx_sys_lookup(BlacsCtxt, "Cblacs2sys_handle"); }
BLX_API void Cfree_blacs_system_handle(int ISysCtxt) { blx_sys_free(ISysCtxt); }

/* ---- communication routines, per type ---- */

#define BLX_C_P2P(v, V, R, cplx)                                                                          \
    BLX_API void C##v##gesd2d(int ConTxt, int M, int N, R *A, int lda, int rdest, int cdest)              \
    {                                                                                                     \
        static const blx_call call = {"C" #v "gesd2d", BLX_T_##V};                                        \
        blx_send_matrix(&call, ConTxt, NULL, NULL, M, N, A, lda, rdest, cdest);                           \
    }                                                                                                     \
    BLX_API void C##v##gerv2d(int ConTxt, int M, int N, R *A, int lda, int rsrc, int csrc)                \
    {                                                                                                     \
        static const blx_call call = {"C" #v "gerv2d", BLX_T_##V};                                        \
        blx_recv_matrix(&call, ConTxt, NULL, NULL, M, N, A, lda, rsrc, csrc);                             \
    }                                                                                                     \
    BLX_API void C##v##trsd2d(int ConTxt, char *uplo, char *diag, int M, int N, R *A, int lda, int rdest, \
                              int cdest)                                                                  \
    {                                                                                                     \
        static const blx_call call = {"C" #v "trsd2d", BLX_T_##V};                                        \
        blx_send_matrix(&call, ConTxt, uplo, diag, M, N, A, lda, rdest, cdest);                           \
    }                                                                                                     \
    BLX_API void C##v##trrv2d(int ConTxt, char *uplo, char *diag, int M, int N, R *A, int lda, int rsrc,  \
                              int csrc)                                                                   \
    {                                                                                                     \
        static const blx_call call = {"C" #v "trrv2d", BLX_T_##V};                                        \
        blx_recv_matrix(&call, ConTxt, uplo, diag, M, N, A, lda, rsrc, csrc);                             \
    }
BLX_FOR_EACH_TYPE(BLX_C_P2P)
#undef BLX_C_P2P

#define BLX_C_BCAST(v, V, R, cplx)                                                                       \
    BLX_API void C##v##gebs2d(int ConTxt, char *scope, char *top, int M, int N, R *A, int lda)           \
    {                                                                                                    \
        static const blx_call call = {"C" #v "gebs2d", BLX_T_##V};                                       \
        blx_bcast_send(&call, ConTxt, scope, top, NULL, NULL, M, N, A, lda);                             \
    }                                                                                                    \
    BLX_API void C##v##gebr2d(int ConTxt, char *scope, char *top, int M, int N, R *A, int lda, int rsrc, \
                              int csrc)                                                                  \
    {                                                                                                    \
        static const blx_call call = {"C" #v "gebr2d", BLX_T_##V};                                       \
        blx_bcast_recv(&call, ConTxt, scope, top, NULL, NULL, M, N, A, lda, rsrc, csrc);                 \
    }                                                                                                    \
    BLX_API void C##v##trbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,  \
                              R *A, int lda)                                                             \
    {                                                                                                    \
        static const blx_call call = {"C" #v "trbs2d", BLX_T_##V};                                       \
        blx_bcast_send(&call, ConTxt, scope, top, uplo, diag, M, N, A, lda);                             \
    }                                                                                                    \
    BLX_API void C##v##trbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,  \
                              R *A, int lda, int rsrc, int csrc)                                         \
    {                                                                                                    \
        static const blx_call call = {"C" #v "trbr2d", BLX_T_##V};                                       \
        blx_bcast_recv(&call, ConTxt, scope, top, uplo, diag, M, N, A, lda, rsrc, csrc);                 \
    }
BLX_FOR_EACH_TYPE(BLX_C_BCAST)
#undef BLX_C_BCAST

#define BLX_C_COMBINE(v, V, R, cplx)                                                                      \
    BLX_API void C##v##gsum2d(int ConTxt, char *scope, char *top, int M, int N, R *A, int lda, int rdest, \
                              int cdest)                                                                  \
    {                                                                                                     \
        static const blx_call call = {"C" #v "gsum2d", BLX_T_##V};                                        \
        blx_combine(&call, BLX_OP_SUM, ConTxt, scope, top, M, N, A, lda, NULL, NULL, -1, rdest, cdest);   \
    }                                                                                                     \
    BLX_API void C##v##gamx2d(int ConTxt, char *scope, char *top, int M, int N, R *A, int lda, int *rA,   \
                              int *cA, int ldia, int rdest, int cdest)                                    \
    {                                                                                                     \
        static const blx_call call = {"C" #v "gamx2d", BLX_T_##V};                                        \
        blx_combine(&call, BLX_OP_AMX, ConTxt, scope, top, M, N, A, lda, rA, cA, ldia, rdest, cdest);     \
    }                                                                                                     \
    BLX_API void C##v##gamn2d(int ConTxt, char *scope, char *top, int M, int N, R *A, int lda, int *rA,   \
                              int *cA, int ldia, int rdest, int cdest)                                    \
    {                                                                                                     \
        static const blx_call call = {"C" #v "gamn2d", BLX_T_##V};                                        \
        blx_combine(&call, BLX_OP_AMN, ConTxt, scope, top, M, N, A, lda, rA, cA, ldia, rdest, cdest);     \
    }
BLX_FOR_EACH_TYPE(BLX_C_COMBINE)
#undef BLX_C_COMBINE
