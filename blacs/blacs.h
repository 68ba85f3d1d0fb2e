/*
 * blacs.h - the BLACS (Basic Linear Algebra Communication Subprograms),
 * C interface and Fortran-callable entry points.
 *
 * Drop-in for the reference BLACS shipped inside ScaLAPACK: the prototypes
 * below are the reference's own (BLACS 1.1, MPI flavour, 32-bit int).  The
 * matrix argument A is typed by element: int (i), float (s), double (d),
 * and interleaved (re, im) float (c) / double (z).  Matrices are column-major
 * with leading dimension lda.
 *
 * Every character option (order, scope, top, uplo, diag) is read from its
 * first character, case-insensitively.
 *
 * C system contexts are small integers (0 = MPI_COMM_WORLD, see
 * Csys2blacs_handle); Fortran system contexts are Fortran MPI communicator
 * handles.  BLACS contexts are shared by both interfaces.
 */
#ifndef BLACS_H
#define BLACS_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Support routines
 * ------------------------------------------------------------------------ */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_setup(int *mypnum, int *nprocs);
void Cblacs_get(int ConTxt, int what, int *val);
void Cblacs_set(int ConTxt, int what, int *val);
void Cblacs_gridinit(int *ConTxt, char *order, int nprow, int npcol);
void Cblacs_gridmap(int *ConTxt, int *usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int ConTxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ConTxt);
void Cblacs_freebuff(int ConTxt, int Wait);
void Cblacs_abort(int ConTxt, int ErrNo);
void Cblacs_exit(int NotDone);
int Cblacs_pnum(int ConTxt, int prow, int pcol);
void Cblacs_pcoord(int ConTxt, int pnum, int *prow, int *pcol);
void Cblacs_barrier(int ConTxt, char *scope);
int Cksendid(int ConTxt, int rdest, int cdest);
int Ckrecvid(int ConTxt, int rsrc, int csrc);
int Ckbsid(int ConTxt, char *scope);
int Ckbrid(int ConTxt, char *scope, int rsrc, int csrc);
double Cdcputime00(void);
double Cdwalltime00(void);
int Csys2blacs_handle(MPI_Comm SysCtxt);
MPI_Comm Cblacs2sys_handle(int BlacsCtxt);
void Cfree_blacs_system_handle(int ISysCtxt);

/* WHAT codes of Cblacs_get / Cblacs_set */
#define BLACS_SGET_SYSCONTXT 0   /* get: default system context */
#define BLACS_SGET_MSGIDS 1      /* get/set: message-ID range, two ints */
#define BLACS_SGET_DEBUGLVL 2    /* get: debug level */
#define BLACS_SGET_BLACSCONTXT 10 /* get: system context of a BLACS context */
#define BLACS_SGET_NR_BS 11      /* rings of broadcast TOP 'M' */
#define BLACS_SGET_NB_BS 12      /* branches of broadcast TOP 'T' */
#define BLACS_SGET_NR_CO 13      /* rings of combine TOP 'M' */
#define BLACS_SGET_NB_CO 14      /* branches of combine TOP 'T' */
#define BLACS_SGET_TOPSREPEAT 15 /* repeatable combines */
#define BLACS_SGET_TOPSCOHRNT 16 /* coherent combines */

/* ---------------------------------------------------------------------------
 * Communication routines: point-to-point, broadcast, combine; per type
 * ------------------------------------------------------------------------ */
/* integer */
void Cigesd2d(int ConTxt, int M, int N, int *A, int lda, int rdest, int cdest);
void Cigerv2d(int ConTxt, int M, int N, int *A, int lda, int rsrc, int csrc);
void Citrsd2d(int ConTxt, char *uplo, char *diag, int M, int N, int *A, int lda,
              int rdest, int cdest);
void Citrrv2d(int ConTxt, char *uplo, char *diag, int M, int N, int *A, int lda,
              int rsrc, int csrc);
void Cigebs2d(int ConTxt, char *scope, char *top, int M, int N, int *A, int lda);
void Cigebr2d(int ConTxt, char *scope, char *top, int M, int N, int *A, int lda,
              int rsrc, int csrc);
void Citrbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              int *A, int lda);
void Citrbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              int *A, int lda, int rsrc, int csrc);
void Cigsum2d(int ConTxt, char *scope, char *top, int M, int N, int *A, int lda,
              int rdest, int cdest);
void Cigamx2d(int ConTxt, char *scope, char *top, int M, int N, int *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);
void Cigamn2d(int ConTxt, char *scope, char *top, int M, int N, int *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);

/* single precision real */
void Csgesd2d(int ConTxt, int M, int N, float *A, int lda, int rdest, int cdest);
void Csgerv2d(int ConTxt, int M, int N, float *A, int lda, int rsrc, int csrc);
void Cstrsd2d(int ConTxt, char *uplo, char *diag, int M, int N, float *A, int lda,
              int rdest, int cdest);
void Cstrrv2d(int ConTxt, char *uplo, char *diag, int M, int N, float *A, int lda,
              int rsrc, int csrc);
void Csgebs2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda);
void Csgebr2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int rsrc, int csrc);
void Cstrbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              float *A, int lda);
void Cstrbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              float *A, int lda, int rsrc, int csrc);
void Csgsum2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int rdest, int cdest);
void Csgamx2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);
void Csgamn2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);

/* double precision real */
void Cdgesd2d(int ConTxt, int M, int N, double *A, int lda, int rdest, int cdest);
void Cdgerv2d(int ConTxt, int M, int N, double *A, int lda, int rsrc, int csrc);
void Cdtrsd2d(int ConTxt, char *uplo, char *diag, int M, int N, double *A, int lda,
              int rdest, int cdest);
void Cdtrrv2d(int ConTxt, char *uplo, char *diag, int M, int N, double *A, int lda,
              int rsrc, int csrc);
void Cdgebs2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda);
void Cdgebr2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int rsrc, int csrc);
void Cdtrbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              double *A, int lda);
void Cdtrbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              double *A, int lda, int rsrc, int csrc);
void Cdgsum2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int rdest, int cdest);
void Cdgamx2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);
void Cdgamn2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);

/* single precision complex */
void Ccgesd2d(int ConTxt, int M, int N, float *A, int lda, int rdest, int cdest);
void Ccgerv2d(int ConTxt, int M, int N, float *A, int lda, int rsrc, int csrc);
void Cctrsd2d(int ConTxt, char *uplo, char *diag, int M, int N, float *A, int lda,
              int rdest, int cdest);
void Cctrrv2d(int ConTxt, char *uplo, char *diag, int M, int N, float *A, int lda,
              int rsrc, int csrc);
void Ccgebs2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda);
void Ccgebr2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int rsrc, int csrc);
void Cctrbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              float *A, int lda);
void Cctrbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              float *A, int lda, int rsrc, int csrc);
void Ccgsum2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int rdest, int cdest);
void Ccgamx2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);
void Ccgamn2d(int ConTxt, char *scope, char *top, int M, int N, float *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);

/* double precision complex */
void Czgesd2d(int ConTxt, int M, int N, double *A, int lda, int rdest, int cdest);
void Czgerv2d(int ConTxt, int M, int N, double *A, int lda, int rsrc, int csrc);
void Cztrsd2d(int ConTxt, char *uplo, char *diag, int M, int N, double *A, int lda,
              int rdest, int cdest);
void Cztrrv2d(int ConTxt, char *uplo, char *diag, int M, int N, double *A, int lda,
              int rsrc, int csrc);
void Czgebs2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda);
void Czgebr2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int rsrc, int csrc);
void Cztrbs2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              double *A, int lda);
void Cztrbr2d(int ConTxt, char *scope, char *top, char *uplo, char *diag, int M, int N,
              double *A, int lda, int rsrc, int csrc);
void Czgsum2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int rdest, int cdest);
void Czgamx2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);
void Czgamn2d(int ConTxt, char *scope, char *top, int M, int N, double *A, int lda,
              int *rA, int *cA, int ldia, int rdest, int cdest);

/* ---------------------------------------------------------------------------
 * Fortran-callable support routines (every argument by address; gfortran's
 * hidden CHARACTER lengths may be passed or omitted, they are not read)
 * ------------------------------------------------------------------------ */
void blacs_pinfo_(int *mypnum, int *nprocs);
void blacs_setup_(int *mypnum, int *nprocs);
void blacs_get_(int *ConTxt, int *what, int *val);
void blacs_set_(int *ConTxt, int *what, int *val);
void blacs_gridinit_(int *ConTxt, char *order, int *nprow, int *npcol);
void blacs_gridmap_(int *ConTxt, int *usermap, int *ldumap, int *nprow, int *npcol);
void blacs_gridinfo_(int *ConTxt, int *nprow, int *npcol, int *myrow, int *mycol);
void blacs_gridexit_(int *ConTxt);
void blacs_freebuff_(int *ConTxt, int *Wait);
void blacs_abort_(int *ConTxt, int *ErrNo);
void blacs_exit_(int *NotDone);
int blacs_pnum_(int *ConTxt, int *prow, int *pcol);
void blacs_pcoord_(int *ConTxt, int *pnum, int *prow, int *pcol);
void blacs_barrier_(int *ConTxt, char *scope);
int ksendid_(int *ConTxt, int *rdest, int *cdest);
int krecvid_(int *ConTxt, int *rsrc, int *csrc);
int kbsid_(int *ConTxt, char *scope);
int kbrid_(int *ConTxt, char *scope, int *rsrc, int *csrc);
double dcputime00_(void);
double dwalltime00_(void);
int sys2blacs_handle_(int *SysCtxt);
int blacs2sys_handle_(int *BlacsCtxt);
void free_blacs_system_handle_(int *ISysCtxt);

/* ---------------------------------------------------------------------------
 * Fortran-callable communication routines (same arguments, all by address)
 * ------------------------------------------------------------------------ */
void igesd2d_(int *ConTxt, int *M, int *N, int *A, int *lda, int *rdest, int *cdest);
void igerv2d_(int *ConTxt, int *M, int *N, int *A, int *lda, int *rsrc, int *csrc);
void itrsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, int *A, int *lda,
              int *rdest, int *cdest);
void itrrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, int *A, int *lda,
              int *rsrc, int *csrc);
void igebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, int *A, int *lda);
void igebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, int *A, int *lda,
              int *rsrc, int *csrc);
void itrbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              int *A, int *lda);
void itrbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              int *A, int *lda, int *rsrc, int *csrc);
void igsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, int *A, int *lda,
              int *rdest, int *cdest);
void igamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, int *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);
void igamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, int *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);

void sgesd2d_(int *ConTxt, int *M, int *N, float *A, int *lda, int *rdest, int *cdest);
void sgerv2d_(int *ConTxt, int *M, int *N, float *A, int *lda, int *rsrc, int *csrc);
void strsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, float *A, int *lda,
              int *rdest, int *cdest);
void strrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, float *A, int *lda,
              int *rsrc, int *csrc);
void sgebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda);
void sgebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rsrc, int *csrc);
void strbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              float *A, int *lda);
void strbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              float *A, int *lda, int *rsrc, int *csrc);
void sgsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rdest, int *cdest);
void sgamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);
void sgamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);

void dgesd2d_(int *ConTxt, int *M, int *N, double *A, int *lda, int *rdest, int *cdest);
void dgerv2d_(int *ConTxt, int *M, int *N, double *A, int *lda, int *rsrc, int *csrc);
void dtrsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, double *A, int *lda,
              int *rdest, int *cdest);
void dtrrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, double *A, int *lda,
              int *rsrc, int *csrc);
void dgebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda);
void dgebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rsrc, int *csrc);
void dtrbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              double *A, int *lda);
void dtrbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              double *A, int *lda, int *rsrc, int *csrc);
void dgsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rdest, int *cdest);
void dgamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);
void dgamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);

void cgesd2d_(int *ConTxt, int *M, int *N, float *A, int *lda, int *rdest, int *cdest);
void cgerv2d_(int *ConTxt, int *M, int *N, float *A, int *lda, int *rsrc, int *csrc);
void ctrsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, float *A, int *lda,
              int *rdest, int *cdest);
void ctrrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, float *A, int *lda,
              int *rsrc, int *csrc);
void cgebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda);
void cgebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rsrc, int *csrc);
void ctrbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              float *A, int *lda);
void ctrbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              float *A, int *lda, int *rsrc, int *csrc);
void cgsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rdest, int *cdest);
void cgamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);
void cgamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, float *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);

void zgesd2d_(int *ConTxt, int *M, int *N, double *A, int *lda, int *rdest, int *cdest);
void zgerv2d_(int *ConTxt, int *M, int *N, double *A, int *lda, int *rsrc, int *csrc);
void ztrsd2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, double *A, int *lda,
              int *rdest, int *cdest);
void ztrrv2d_(int *ConTxt, char *uplo, char *diag, int *M, int *N, double *A, int *lda,
              int *rsrc, int *csrc);
void zgebs2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda);
void zgebr2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rsrc, int *csrc);
void ztrbs2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              double *A, int *lda);
void ztrbr2d_(int *ConTxt, char *scope, char *top, char *uplo, char *diag, int *M, int *N,
              double *A, int *lda, int *rsrc, int *csrc);
void zgsum2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rdest, int *cdest);
void zgamx2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);
void zgamn2d_(int *ConTxt, char *scope, char *top, int *M, int *N, double *A, int *lda,
              int *rA, int *cA, int *ldia, int *rdest, int *cdest);

#ifdef __cplusplus
}
#endif

#endif /* BLACS_H */
