/*
 * blacs/api_comm.c - the communication routines of both interfaces, for
 * every type: point-to-point, broadcast and combine (spec sections 3-5) and
 * LAWN 73's extensions (section 7.1: the receive from any process vGERVA2D,
 * vTRRVA2D and the user-defined combine vTUOP2D).
 *
 * Each family is written once below and generated for the C interface
 * (Cdgesd2d: integers by value) and the Fortran one (dgesd2d_, named
 * "DGESD2D" in errors: every argument by address; gfortran's hidden
 * CHARACTER lengths are never read, so C callers that omit them work too),
 * for each type of the type list (types.h), and for general (GE) and
 * trapezoidal (TR) matrices.  A routine only fills the call record
 * (record.h) with what it was given, as given, and hands it to its
 * family's core; the core checks every argument.  At the end, the Fortran
 * names' other manglings (f77_names.h).
 */
#include "blacs.h"
#include "call.h"
#include "f77_names.h"
#include "uop.h"

/* The two interfaces: an integer argument's declaration and value, a
 * routine's symbol and the name errors give it, and vTUOP2D's functions. */
#define C_INT(x) blacs_int x
#define C_VAL(x) (x)
#define C_FN(v, fam) C##v##fam
#define C_NAME(v, V, fam, FAM) "C" #v #fam
#define C_UOP_FN Cblacs_uop_fn
#define C_UOP_OP Cblacs_uop_op
#define C_UOP                                            \
    {                                                    \
        .iface = BLX_IFACE_C, .fn.c = { init, op, post } \
    }
#define F_INT(x) blacs_int *x
#define F_VAL(x) (*(x))
#define F_FN(v, fam) v##fam##_
#define F_NAME(v, V, fam, FAM) #V #FAM
#define F_UOP_FN Fblacs_uop_fn
#define F_UOP_OP Fblacs_uop_op
#define F_UOP                                              \
    {                                                      \
        .iface = BLX_IFACE_F77, .fn.f = { init, op, post } \
    }

/* A trapezoid's UPLO and DIAG, declared and recorded; a general matrix
 * has neither. */
#define GE_DECL
#define GE_SET
#define TR_DECL const char *uplo, const char *diag,
#define TR_SET .uplo = uplo, .diag = diag,

/* What every record holds, and a matrix's M, N, A, LDA. */
#define RECORD(I, v, V, fam, FAM, KIND) \
    .name = I##_NAME(v, V, fam, FAM), .type = BLX_T_##V, .kind = KIND, .ctxt = I##_VAL(ConTxt)
#define MATRIX_DECL(I, R) I##_INT(M), I##_INT(N), R *A, I##_INT(lda)
#define MATRIX_SET(I) .m = I##_VAL(M), .n = I##_VAL(N), .A = A, .lda = I##_VAL(lda)

/* vGESD2D, vGERV2D, vTRSD2D, vTRRV2D: (row, col) is the destination or source. */
#define P2P(I, v, V, R, fam, FAM, SH, KIND, CORE)                                                         \
    BLX_API void I##_FN(v, fam)(I##_INT(ConTxt), SH##_DECL MATRIX_DECL(I, R), I##_INT(row), I##_INT(col)) \
    {                                                                                                     \
        blx_call k = {RECORD(I, v, V, fam, FAM, KIND), SH##_SET MATRIX_SET(I), .row = I##_VAL(row),       \
                      .col = I##_VAL(col)};                                                               \
        blx_call_run(CORE, &k);                                                                           \
    }

/* vGEBS2D, vTRBS2D */
#define BS(I, v, V, R, fam, FAM, SH)                                                         \
    BLX_API void I##_FN(v, fam)(I##_INT(ConTxt), const char *scope, const char *top,         \
                                SH##_DECL MATRIX_DECL(I, R))                                 \
    {                                                                                        \
        blx_call k = {RECORD(I, v, V, fam, FAM, BLX_BCAST_SEND), .scope = scope, .top = top, \
                      SH##_SET MATRIX_SET(I)};                                               \
        blx_call_run(blx_bcast, &k);                                                         \
    }

/* vGEBR2D, vTRBR2D */
#define BR(I, v, V, R, fam, FAM, SH)                                                       \
    BLX_API void I##_FN(v, fam)(I##_INT(ConTxt), const char *scope, const char *top,       \
                                SH##_DECL MATRIX_DECL(I, R), I##_INT(rsrc), I##_INT(csrc)) \
    {                                                                                      \
        blx_call k = {RECORD(I, v, V, fam, FAM, BLX_BCAST_RECV),                           \
                      .scope = scope,                                                      \
                      .top = top,                                                          \
                      SH##_SET MATRIX_SET(I),                                              \
                      .row = I##_VAL(rsrc),                                                \
                      .col = I##_VAL(csrc)};                                               \
        blx_call_run(blx_bcast, &k);                                                       \
    }

/* vGSUM2D */
#define SUM(I, v, V, R)                                                                                    \
    BLX_API void I##_FN(v, gsum2d)(I##_INT(ConTxt), const char *scope, const char *top, MATRIX_DECL(I, R), \
                                   I##_INT(rdest), I##_INT(cdest))                                         \
    {                                                                                                      \
        blx_call k = {RECORD(I, v, V, gsum2d, GSUM2D, BLX_COMBINE),                                        \
                      .op = BLX_OP_SUM,                                                                    \
                      .scope = scope,                                                                      \
                      .top = top,                                                                          \
                      MATRIX_SET(I),                                                                       \
                      .row = I##_VAL(rdest),                                                               \
                      .col = I##_VAL(cdest)};                                                              \
        blx_call_run(blx_combine, &k);                                                                     \
    }

/* vGAMX2D, vGAMN2D: the locations in RA, CA (LDIA = -1: none) */
#define LOCATED(I, v, V, R, fam, FAM, OPK)                                                                   \
    BLX_API void I##_FN(v, fam)(I##_INT(ConTxt), const char *scope, const char *top, MATRIX_DECL(I, R),      \
                                blacs_int *rA, blacs_int *cA, I##_INT(ldia), I##_INT(rdest), I##_INT(cdest)) \
    {                                                                                                        \
        blx_call k = {RECORD(I, v, V, fam, FAM, BLX_COMBINE),                                                \
                      .op = OPK,                                                                             \
                      .scope = scope,                                                                        \
                      .top = top,                                                                            \
                      MATRIX_SET(I),                                                                         \
                      .rA = rA,                                                                              \
                      .cA = cA,                                                                              \
                      .ldia = I##_VAL(ldia),                                                                 \
                      .row = I##_VAL(rdest),                                                                 \
                      .col = I##_VAL(cdest)};                                                                \
        blx_call_run(blx_combine, &k);                                                                       \
    }

/* vGERVA2D, vTRRVA2D: RSRC, CSRC by address in both interfaces (-1: any;
 * the sender's coordinates come back there) */
#define RVA(I, v, V, R, fam, FAM, SH)                                                               \
    BLX_API void I##_FN(v, fam)(I##_INT(ConTxt), SH##_DECL MATRIX_DECL(I, R), blacs_int * rsrc,     \
                                blacs_int * csrc)                                                   \
    {                                                                                               \
        blx_call k = {RECORD(I, v, V, fam, FAM, BLX_RECV), SH##_SET MATRIX_SET(I), .src_row = rsrc, \
                      .src_col = csrc};                                                             \
        blx_call_run(blx_recv_any, &k);                                                             \
    }

/* vTUOP2D: UPLO 'G' for a general matrix */
#define TUOP(I, v, V, R)                                                                      \
    BLX_API void I##_FN(v, tuop2d)(I##_INT(ConTxt), const char *scope, const char *top,       \
                                   TR_DECL MATRIX_DECL(I, R), I##_INT(rdest), I##_INT(cdest), \
                                   I##_UOP_FN *init, I##_UOP_OP *op, I##_UOP_FN *post)        \
    {                                                                                         \
        blx_uop u = I##_UOP;                                                                  \
        blx_call k = {RECORD(I, v, V, tuop2d, TUOP2D, BLX_COMBINE),                           \
                      .op = BLX_OP_USER,                                                      \
                      .user = &u,                                                             \
                      .scope = scope,                                                         \
                      .top = top,                                                             \
                      TR_SET MATRIX_SET(I),                                                   \
                      .row = I##_VAL(rdest),                                                  \
                      .col = I##_VAL(cdest)};                                                 \
        blx_call_run(blx_combine, &k);                                                        \
    }

/* Every routine of one type in interface I. */
#define FAMILIES(I, v, V, R)                                       \
    P2P(I, v, V, R, gesd2d, GESD2D, GE, BLX_SEND, blx_send_matrix) \
    P2P(I, v, V, R, gerv2d, GERV2D, GE, BLX_RECV, blx_recv_matrix) \
    P2P(I, v, V, R, trsd2d, TRSD2D, TR, BLX_SEND, blx_send_matrix) \
    P2P(I, v, V, R, trrv2d, TRRV2D, TR, BLX_RECV, blx_recv_matrix) \
    BS(I, v, V, R, gebs2d, GEBS2D, GE)                             \
    BS(I, v, V, R, trbs2d, TRBS2D, TR)                             \
    BR(I, v, V, R, gebr2d, GEBR2D, GE)                             \
    BR(I, v, V, R, trbr2d, TRBR2D, TR)                             \
    SUM(I, v, V, R)                                                \
    LOCATED(I, v, V, R, gamx2d, GAMX2D, BLX_OP_AMX)                \
    LOCATED(I, v, V, R, gamn2d, GAMN2D, BLX_OP_AMN)                \
    RVA(I, v, V, R, gerva2d, GERVA2D, GE)                          \
    RVA(I, v, V, R, trrva2d, TRRVA2D, TR)                          \
    TUOP(I, v, V, R)
#define C_TYPE(v, V, R, cplx) FAMILIES(C, v, V, R)
#define F_TYPE(v, V, R, cplx) FAMILIES(F, v, V, R)
BLX_FOR_EACH_TYPE(C_TYPE)
BLX_FOR_EACH_TYPE(F_TYPE)

#define F_MANGLINGS(v, V, R, cplx)            \
    BLX_F77_FAMILIES(BLX_F77_MANGLINGS, v, V) \
    BLX_F77_EXT_FAMILIES(BLX_F77_MANGLINGS, v, V)
BLX_FOR_EACH_TYPE(F_MANGLINGS)
