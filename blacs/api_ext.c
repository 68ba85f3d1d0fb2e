/*
 * blacs/api_ext.c - the extensions LAWN 73 section 7.1 proposes, C and
 * Fortran interfaces: the receive from any process (vGERVA2D, vTRRVA2D) and
 * the user-defined trapezoidal combine (vTUOP2D); blacs.h documents them.
 * They are new names: the reference's vGERV2D, vTRRV2D keep their exact
 * behaviour.  At the end, their other Fortran manglings (f77_names.h).
 */
#include "blacs.h"
#include "f77_names.h"
#include "internal.h"
#include "ops.h"
#include "uop.h"

/* Integers the core keeps as ints (contexts, coordinates): checked in the
 * ILP64 library (internal.h). */
#define CTX(ctxt) blx_int_arg((ctxt), call.name, "ConTxt")
#define RC(v, arg) blx_int_arg((v), call.name, (arg))

#define BLX_C_EXT(v, V, R, cplx)                                                                             \
    BLX_API void C##v##gerva2d(blacs_int ConTxt, blacs_int M, blacs_int N, R *A, blacs_int lda,              \
                               blacs_int *rsrc, blacs_int *csrc)                                             \
    {                                                                                                        \
        static const blx_call call = {"C" #v "gerva2d", BLX_T_##V};                                          \
        blx_recv_any(&call, CTX(ConTxt), NULL, NULL, M, N, A, lda, rsrc, csrc);                              \
    }                                                                                                        \
    BLX_API void C##v##trrva2d(blacs_int ConTxt, char *uplo, char *diag, blacs_int M, blacs_int N, R *A,     \
                               blacs_int lda, blacs_int *rsrc, blacs_int *csrc)                              \
    {                                                                                                        \
        static const blx_call call = {"C" #v "trrva2d", BLX_T_##V};                                          \
        blx_recv_any(&call, CTX(ConTxt), uplo, diag, M, N, A, lda, rsrc, csrc);                              \
    }                                                                                                        \
    BLX_API void C##v##tuop2d(blacs_int ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int M, \
                              blacs_int N, R *A, blacs_int lda, blacs_int rdest, blacs_int cdest,            \
                              Cblacs_uop_fn *init, Cblacs_uop_op *op, Cblacs_uop_fn *post)                   \
    {                                                                                                        \
        static const blx_call call = {"C" #v "tuop2d", BLX_T_##V};                                           \
        blx_uop u = {.iface = BLX_IFACE_C, .fn.c = {init, op, post}};                                        \
        blx_combine_user(&call, &u, CTX(ConTxt), scope, top, uplo, diag, M, N, A, lda, RC(rdest, "RDEST"),   \
                         RC(cdest, "CDEST"));                                                                \
    }
BLX_FOR_EACH_TYPE(BLX_C_EXT)
#undef BLX_C_EXT

#define BLX_F77_EXT(v, V, R, cplx)                                                                           \
    BLX_API void v##gerva2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, R *A, blacs_int *lda,            \
                             blacs_int *rsrc, blacs_int *csrc)                                               \
    {                                                                                                        \
        static const blx_call call = {#V "GERVA2D", BLX_T_##V};                                              \
        blx_recv_any(&call, CTX(*ConTxt), NULL, NULL, *M, *N, A, *lda, rsrc, csrc);                          \
    }                                                                                                        \
    BLX_API void v##trrva2d_(blacs_int *ConTxt, char *uplo, char *diag, blacs_int *M, blacs_int *N, R *A,    \
                             blacs_int *lda, blacs_int *rsrc, blacs_int *csrc)                               \
    {                                                                                                        \
        static const blx_call call = {#V "TRRVA2D", BLX_T_##V};                                              \
        blx_recv_any(&call, CTX(*ConTxt), uplo, diag, *M, *N, A, *lda, rsrc, csrc);                          \
    }                                                                                                        \
    BLX_API void v##tuop2d_(blacs_int *ConTxt, char *scope, char *top, char *uplo, char *diag, blacs_int *M, \
                            blacs_int *N, R *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest,          \
                            Fblacs_uop_fn *init, Fblacs_uop_op *op, Fblacs_uop_fn *post)                     \
    {                                                                                                        \
        static const blx_call call = {#V "TUOP2D", BLX_T_##V};                                               \
        blx_uop u = {.iface = BLX_IFACE_F77, .fn.f = {init, op, post}};                                      \
        blx_combine_user(&call, &u, CTX(*ConTxt), scope, top, uplo, diag, *M, *N, A, *lda,                   \
                         RC(*rdest, "RDEST"), RC(*cdest, "CDEST"));                                          \
    }
BLX_FOR_EACH_TYPE(BLX_F77_EXT)
#undef BLX_F77_EXT

/* NEWNAME is another name of TARGET, exported like it (as in api_f77.c). */
#define BLX_F77_ALIAS(newname, target) \
    BLX_API extern __typeof__(target) newname __attribute__((alias(#target)));
#define BLX_F77_EXT_MANGLINGS(name, NAME, underscored) \
    BLX_F77_ALIAS(name, name##_)                       \
    BLX_F77_ALIAS(NAME, name##_)
#define BLX_F77_EXT_TYPE_MANGLINGS(v, V, R, cplx) BLX_F77_EXT_FAMILIES(BLX_F77_EXT_MANGLINGS, v, V)
BLX_FOR_EACH_TYPE(BLX_F77_EXT_TYPE_MANGLINGS)
#undef BLX_F77_EXT_TYPE_MANGLINGS
#undef BLX_F77_EXT_MANGLINGS
