/*
 * blacs.h - the BLACS (Basic Linear Algebra Communication Subprograms),
 * C interface and Fortran-callable entry points.
 *
 * Drop-in for the reference BLACS shipped inside ScaLAPACK: the prototypes
 * below are the reference's own (BLACS 1.1, MPI flavour), with every integer
 * spelled blacs_int (below): int in the LP64 library, the reference's ABI.  The
 * comments document this library's behaviour; doc/guide.md lists where it
 * departs from the reference on purpose.
 *
 * The model.  The processes of a BLACS context form a logical NPROW x NPCOL
 * grid and are addressed by 0-based coordinates {row, col}.  Whole matrices
 * move between them: from one process to another (point-to-point), from one
 * process to all others of a scope (broadcast), or merged element by element
 * over a scope (combine: sum, absolute max, absolute min).  A scope is the
 * caller's process row ('R'), its process column ('C') or the whole grid
 * ('A').  Any number of grids may exist at once, overlapping or not.
 *
 * Conventions used by every routine below:
 *   - A character option (ORDER, SCOPE, TOP, UPLO, DIAG) is a pointer to a
 *     character; only that first character is looked at, in either case.
 *   - Bad input stops the program: the library prints, on stderr,
 *         BLACS ERROR '<routine>: <what is wrong>'
 *         from {<row>,<col>}, pnum=<MPI_COMM_WORLD rank>, Contxt=<ctxt>, ...
 *     and calls MPI_Abort(MPI_COMM_WORLD, 1), which ends every process.
 *     Warnings look the same with BLACS WARNING, and the call continues.
 *   - An invalid context is a handle that names no live grid on the calling
 *     process: never created, already exited, or the -1 that grid creation
 *     gives to processes outside the grid.  Passing one is fatal, except
 *     where a routine below says otherwise.
 */
#ifndef BLACS_H
#define BLACS_H

/* The library's version (also Cblacs_version, pkg-config --modversion,
 * find_package(blacs VERSION), the shared library's file name). */
#define BLACS_VERSION_MAJOR 1
#define BLACS_VERSION_MINOR 3
#define BLACS_VERSION_PATCH 0

/* Only MPI's C interface: Open MPI's and MPICH's mpi.h otherwise bring in
 * their C++ bindings in a C++ program, which then fails to link without
 * the MPI C++ library. */
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

/* Character options (ORDER, SCOPE, TOP, UPLO, DIAG) are const char *: a
 * string literal may be passed from C and C++.  A program that declares
 * the reference's char * prototypes itself, in a file that includes this
 * header too, defines BLACS_NO_CONST_CHAR first. */
#ifdef BLACS_NO_CONST_CHAR
#define BLACS_CONST
#else
#define BLACS_CONST const
#endif

/* blacs_int: every integer a BLACS routine takes or gives (contexts, M, N,
 * LDA, coordinates, USERMAP, RA/CA, the VAL of get/set, the elements of the
 * 'i' routines' matrices).
 *   LP64 library (libblacs-<mpi>, pkg-config blacs-<mpi>): int, as in the
 *     reference BLACS; Fortran INTEGER is 32-bit.
 *   ILP64 library (libblacs64-<mpi>, pkg-config blacs64-<mpi>): int64_t, as
 *     for a Fortran program compiled with -fdefault-integer-8 (-i8).  C
 *     programs include blacs_ilp64.h (or define BLACS_ILP64 before blacs.h);
 *     the pkg-config file adds -DBLACS_ILP64.
 * Both libraries export the same names: a program links exactly one. */
#ifdef BLACS_ILP64
#include <stdint.h>
typedef int64_t blacs_int;
#else
typedef int blacs_int;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ===========================================================================
 * Support routines
 *
 * Purpose: start the BLACS, create and release process grids, tell a
 * process where it sits, read and change settings, synchronize, stop,
 * and time.
 *
 * Cblacs_pinfo(mypnum, nprocs), Cblacs_setup(mypnum, nprocs)  (identical)
 *   Out: the caller's rank in MPI_COMM_WORLD and the size of MPI_COMM_WORLD.
 *   Starts MPI (MPI_Init) unless the program already did; fatal once MPI has
 *   been finalized.  Cblacs_get/set, the grid creators and the system-handle
 *   routines start the BLACS the same way, so this call is optional.
 *
 * System contexts.  A grid is carved out of a system context, which stands
 * for an MPI communicator.  In C it is a small per-process handle: 0 is
 * always MPI_COMM_WORLD; Csys2blacs_handle(comm) registers comm (the same
 * comm gives back the same handle; MPI_COMM_NULL is fatal) and returns its
 * handle; Cblacs2sys_handle(h) returns the communicator (unknown h: fatal);
 * Cfree_blacs_system_handle(h) releases h (0 is never released, an unknown h
 * draws a warning); live handles never change.  The communicator is not
 * duplicated, and a grid made from it uses communicators of its own.
 *
 * Cblacs_gridinit(ConTxt, order, nprow, npcol)
 *   ConTxt  in: a system context.  out: the new grid's BLACS context on the
 *           processes placed in the grid, -1 on all others.
 *   order   how ranks 0 .. nprow*npcol-1 of the system context fill the
 *           grid: 'C' column by column (rank p at {p % nprow, p / nprow});
 *           any other letter row by row (rank p at {p / npcol, p % npcol}).
 *   nprow, npcol  grid shape: both >= 1, nprow*npcol at most the size of
 *           the system context.
 * Cblacs_gridmap(ConTxt, usermap, ldumap, nprow, npcol)
 *   As gridinit, with any placement: usermap is an ldumap x npcol
 *   column-major blacs_int array (ldumap >= nprow) and the process at {i, j} is
 *   rank usermap[i + j*ldumap] of the system context.  The nprow*npcol
 *   entries must be distinct ranks of that context.
 *   Both are collective over the WHOLE system context, processes left out
 *   of the grid included, and every caller must pass the same grid.  Fatal:
 *   an invalid system context, a bad shape, ldumap < nprow, a map entry out
 *   of range or repeated, callers describing different grids.  A context is
 *   the lowest free slot of a per-process table, so one grid may have
 *   different handles on different processes.
 *
 * Cblacs_gridinfo(ConTxt, nprow, npcol, myrow, mycol)
 *   Out: the grid shape and the caller's coordinates; all four -1 for an
 *   invalid context, without error (myrow < 0: "not in this grid").
 * Cblacs_pnum(ConTxt, prow, pcol)  returns prow*npcol + pcol, the process
 *   number inside the grid (not the MPI_COMM_WORLD rank).
 * Cblacs_pcoord(ConTxt, pnum, prow, pcol)  the inverse of pnum.
 *   Both give -1 (pcoord: -1 in both outputs) for coordinates or a pnum
 *   outside the grid, or an invalid context; never an error.
 * Cblacs_gridexit(ConTxt)
 *   Releases the grid; its handle may be reused by a later grid.  Sends
 *   still buffered are delivered.  An invalid context (-1 too) is fatal.
 * Cblacs_barrier(ConTxt, scope)
 *   Returns once every process of the scope has called: 'R' the caller's
 *   row, 'C' its column, 'A' the grid.  Any other letter is an error (the
 *   reference returns at once).
 * Cblacs_freebuff(ConTxt, Wait)
 *   ConTxt is ignored.  Wait != 0: first wait until every buffered send has
 *   been received; Wait == 0: only collect those already done.  Then frees
 *   idle send buffers and the work space of broadcasts and combines.
 * Cblacs_exit(NotDone)
 *   Exits every grid, waits for every buffered send, frees all memory.
 *   NotDone == 0: then calls MPI_Finalize, whoever started MPI (the program
 *   must not finalize it again), and the BLACS cannot be used any more.
 *   NotDone != 0: MPI stays up, C system handles survive, new grids may
 *   be created.
 * Cblacs_abort(ConTxt, ErrNo)
 *   Prints "{row,col}, pnum=.., Contxt=.., killed other procs, exiting with
 *   error #ErrNo." and calls MPI_Abort(MPI_COMM_WORLD, ErrNo), which ends
 *   every process.  Never returns.  ConTxt only labels the message.
 * Cblacs_get(ConTxt, what, val), Cblacs_set(ConTxt, what, val)
 *   Read or change the setting what; val points to the blacs_int(s) read or
 *   written (NULL is fatal).  The codes (BLACS_SGET_* below):
 *     0   get: the default system context, MPI_COMM_WORLD's (in C always 0).
 *         ConTxt ignored.
 *     1   message-ID (MPI tag) range, val[0] = lowest, val[1] = highest;
 *         default 0 .. MPI_TAG_UB.  set: used by grids created afterwards,
 *         must hold at least 6 IDs within 0 .. MPI_TAG_UB (otherwise a
 *         warning and no change) and be the same everywhere.  ConTxt ignored.
 *     2   get: the debug level, BLACS_DEBUG (0-3, default 1; doc/guide.md,
 *         "Debugging a BLACS program").  ConTxt ignored.
 *     10  get: a system context for the grid ConTxt, from which new grids
 *         over its processes can be made; it dies with that grid.
 *     11, 13  rings of TOP 'M' in broadcasts, combines: any non-zero value,
 *         negative to run the rings downward (default 1).
 *     12, 14  branches of TOP 'T' in broadcasts, combines: >= 1 (default 1).
 *     15  repeatable combines when non-zero (default 0; see Combine).
 *     16  coherent combines (default 0): kept and returned, but every
 *         leave-on-all combine is coherent here anyway.
 *   Codes 10-16 belong to the grid ConTxt (each new grid starts at the
 *   defaults); get 10-16 and set 11-16 need a valid ConTxt.  set of 0, 2
 *   or 10, a value not allowed for 11-14, or an unknown code: a warning,
 *   and nothing changes.
 * Cdwalltime00()  wall-clock seconds (MPI_Wtime); only differences matter.
 * Cdcputime00()   CPU seconds used by this process (the reference: -1.0).
 * Cblacs_stats(ConTxt)  (an extension, not in the reference)
 *   Collective over the grid ConTxt: its process {0,0} prints the
 *   statistics of every member, merged (per routine family, TOP and
 *   algorithm: calls, bytes per call, time inside, time waiting), counted
 *   since the start when BLACS_STATS is set, or one line saying they are
 *   off.  Any time, as often as wanted; counting goes on.
 * Cblacs_version(major, minor, patch)  (an extension, not in the reference)
 *   Out: the library's version, as BLACS_VERSION_MAJOR/MINOR/PATCH above
 *   give the header's; any time, MPI started or not.
 * Cksendid, Ckrecvid return 9977; Ckbsid, Ckbrid return the next value of a
 *   per-grid counter of the scope named (an unknown letter: the last scope
 *   named).  Left from an older interface; they never touch BLACS traffic.
 * ------------------------------------------------------------------------ */
void Cblacs_pinfo(blacs_int *mypnum, blacs_int *nprocs);
void Cblacs_setup(blacs_int *mypnum, blacs_int *nprocs);
void Cblacs_get(blacs_int ConTxt, blacs_int what, blacs_int *val);
void Cblacs_set(blacs_int ConTxt, blacs_int what, blacs_int *val);
void Cblacs_gridinit(blacs_int *ConTxt, BLACS_CONST char *order, blacs_int nprow, blacs_int npcol);
void Cblacs_gridmap(blacs_int *ConTxt, blacs_int *usermap, blacs_int ldumap, blacs_int nprow,
                    blacs_int npcol);
void Cblacs_gridinfo(blacs_int ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                     blacs_int *mycol);
void Cblacs_gridexit(blacs_int ConTxt);
void Cblacs_freebuff(blacs_int ConTxt, blacs_int Wait);
void Cblacs_abort(blacs_int ConTxt, blacs_int ErrNo);
void Cblacs_exit(blacs_int NotDone);
blacs_int Cblacs_pnum(blacs_int ConTxt, blacs_int prow, blacs_int pcol);
void Cblacs_pcoord(blacs_int ConTxt, blacs_int pnum, blacs_int *prow, blacs_int *pcol);
void Cblacs_barrier(blacs_int ConTxt, BLACS_CONST char *scope);
void Cblacs_stats(blacs_int ConTxt);
void Cblacs_version(blacs_int *major, blacs_int *minor, blacs_int *patch);
blacs_int Cksendid(blacs_int ConTxt, blacs_int rdest, blacs_int cdest);
blacs_int Ckrecvid(blacs_int ConTxt, blacs_int rsrc, blacs_int csrc);
blacs_int Ckbsid(blacs_int ConTxt, BLACS_CONST char *scope);
blacs_int Ckbrid(blacs_int ConTxt, BLACS_CONST char *scope, blacs_int rsrc, blacs_int csrc);
double Cdcputime00(void);
double Cdwalltime00(void);
blacs_int Csys2blacs_handle(MPI_Comm SysCtxt);
MPI_Comm Cblacs2sys_handle(blacs_int BlacsCtxt);
void Cfree_blacs_system_handle(blacs_int ISysCtxt);

/* WHAT codes of Cblacs_get / Cblacs_set */
#define BLACS_SGET_SYSCONTXT 0    /* get: default system context */
#define BLACS_SGET_MSGIDS 1       /* get/set: message-ID range, two integers */
#define BLACS_SGET_DEBUGLVL 2     /* get: debug level */
#define BLACS_SGET_BLACSCONTXT 10 /* get: system context of a BLACS context */
#define BLACS_SGET_NR_BS 11       /* rings of broadcast TOP 'M' */
#define BLACS_SGET_NB_BS 12       /* branches of broadcast TOP 'T' */
#define BLACS_SGET_NR_CO 13       /* rings of combine TOP 'M' */
#define BLACS_SGET_NB_CO 14       /* branches of combine TOP 'T' */
#define BLACS_SGET_TOPSREPEAT 15  /* repeatable combines */
#define BLACS_SGET_TOPSCOHRNT 16  /* coherent combines */

/* ===========================================================================
 * Communication routines: what the three families share
 *
 * Each routine exists for five element types, named by the letter v in
 * Cvgesd2d, vgesd2d_ ... (the prototypes below are grouped by type):
 *     i  blacs_int      s  float            d  double
 *     c  single complex, z  double complex: passed as float * / double *
 *        pointing at interleaved (re, im) pairs; M, N and LDA count complex
 *        elements, not floats/doubles.
 *
 * Arguments common to the families
 *   ConTxt  the grid the call belongs to; the caller must be in it.
 *   M, N    number of rows and columns of the matrix; >= 0, else fatal.
 *           M or N = 0 is allowed: no element moves, but the call still
 *           pairs with the partner's (receive, broadcast, combine) call.
 *   A       the matrix, column-major: element (i,j), 0-based, is at
 *           A[i + j*LDA].  May be NULL only when no element is moved.
 *   LDA     leading dimension (distance between columns, in elements);
 *           a value below M is taken as M.  Rows M..LDA-1 of a column are
 *           never read or written.
 *   UPLO    (tr routines) 'U' upper or 'L' lower trapezoid.
 *   DIAG    (tr routines) 'U' unit: the diagonal is not moved; 'N': it is.
 *           Any other UPLO or DIAG letter is fatal.  The trapezoid keeps its
 *           triangle at the bottom (M > N) or right (M < N) end of the
 *           block: with 0-based (i,j), 'U' covers i - j <= max(M-N, 0) and
 *           'L' covers j - i <= max(N-M, 0) ('<' instead of '<=' with DIAG
 *           'U').  Elements outside it are neither read nor written.
 *   SCOPE   (broadcast, combine) 'R' the caller's process row, 'C' its
 *           process column, 'A' the whole grid; anything else is fatal.
 *           Every process of the scope takes part; no other one does.
 *   TOP     (broadcast, combine) the topology, i.e. the pattern the
 *           messages follow; the results do not depend on it, apart from
 *           the rounding of floating-point sums:
 *             ' '      default: picked by operation, scope and message size
 *             'I' 'D'  increasing / decreasing ring;  'S' split ring
 *             'M'      several rings (how many: BLACS_SET 11 / 13)
 *             'F'      fully connected: straight from / to one process
 *             'H'      hypercube; combine: bidirectional exchange
 *             '1'-'9'  tree with that many branches per node
 *             'T'      tree with BLACS_SET 12 / 14 branches
 *           Anything else is fatal.  All processes of the scope must pass
 *           the same TOP and hold the same BLACS_SET 11-14 values.  The
 *           table in doc/guide.md says what each letter does exactly.
 *
 * Matching.  Messages between two processes of a grid are received in the
 * order they were sent, whatever their type and shape; a receive always
 * names its source.  Broadcasts and combines are matched per scope in call
 * order: every process of the scope must make them in the same sequence.
 * Both ends must describe the same number of elements of the same type; a
 * receiver detecting a different byte count stops with an error.
 * ------------------------------------------------------------------------ */

/* ---------------------------------------------------------------------------
 * Point-to-point: Cvgesd2d, Cvgerv2d (general), Cvtrsd2d, Cvtrrv2d (trapezoid)
 *
 * Purpose: vGESD2D / vTRSD2D send the M x N general / trapezoidal matrix A
 * to process {rdest, cdest}; vGERV2D / vTRRV2D receive such a matrix from
 * {rsrc, csrc} into A.  A send is locally blocking: it copies the data out
 * and returns at once, whatever the size, so A may be reused immediately and
 * any number of sends may be outstanding (two processes that both send, then
 * both receive, never deadlock).  Buffers are reclaimed by later BLACS calls,
 * Cblacs_freebuff and Cblacs_exit.  A receive returns when A holds the data.
 * A process may send to itself.
 *
 *   rdest, cdest  grid coordinates of the receiver,
 *   rsrc, csrc    of the sender: 0 <= row < NPROW, 0 <= col < NPCOL, else
 *                 fatal (no wildcards).
 *   The receiver may use its own LDA and, for general matrices, another
 *   M x N with the same M*N (elements then fill A in column order); a
 *   trapezoid is received with the sender's M, N, UPLO and DIAG.
 * ------------------------------------------------------------------------ */

/* ---------------------------------------------------------------------------
 * Broadcast: Cvgebs2d, Cvgebr2d (general), Cvtrbs2d, Cvtrbr2d (trapezoid)
 *
 * Purpose: the source calls vGEBS2D / vTRBS2D (broadcast/send) with its
 * matrix A; every other process of SCOPE calls vGEBR2D / vTRBR2D
 * (broadcast/receive) with the source's coordinates and gets a copy of A.
 * The source's A is only read.  A call may wait for other processes of the
 * scope.  In a scope of one process the send returns at once.
 *
 *   SCOPE, TOP  the same on all processes of the scope; the matrix too, up
 *               to what point-to-point allows a receiver to change (below).
 *   rsrc, csrc  (receive only) the source.  Only the coordinate that varies
 *               in the scope is read: 'R' reads csrc (the row is the
 *               caller's), 'C' reads rsrc, 'A' both.  Fatal if that
 *               coordinate lies outside the grid or names the caller itself
 *               (the source must call the send routine).
 *   Receivers may use their own LDA and, for general matrices, another
 *   M x N with the same M*N, as in point-to-point.
 * ------------------------------------------------------------------------ */

/* ---------------------------------------------------------------------------
 * Combine: Cvgsum2d, Cvgamx2d, Cvgamn2d
 *
 * Purpose: each process of SCOPE contributes its M x N matrix A, and
 * element by element the result is
 *   vGSUM2D  the sum (complex: both parts summed; int: wraps on overflow),
 *   vGAMX2D  the entry of largest absolute value,
 *   vGAMN2D  the entry of smallest absolute value,
 * where the absolute value is |x| for i, s, d (INT_MIN ranks as the largest
 * int) and |re| + |im| for c, z; the entry itself is returned, sign and
 * phase intact.  The result overwrites A on the destination, or on every
 * process of the scope; other processes' A, RA and CA are left unchanged.
 * In a scope of one process A stays as it is (RA, CA: own coordinates).
 *
 *   SCOPE, TOP, M, N, rdest, cdest  the same on all processes of the scope
 *               (for AMX/AMN also whether LDIA is -1).
 *   rdest, cdest  where the result goes.  rdest == -1 or cdest == -1
 *               (either one, in any scope): leave-on-all, every process of
 *               the scope gets it.  Otherwise only the coordinate that varies
 *               in the scope is read: 'R' reads cdest (rdest is ignored),
 *               'C' reads rdest, 'A' both; fatal if it is outside the grid.
 *   RA, CA, LDIA  (AMX, AMN) where each chosen entry came from.  LDIA == -1:
 *               no locations; RA and CA are not touched and may be NULL.
 *               Otherwise RA and CA are LDIA x N blacs_int arrays (LDIA < M taken
 *               as M; NULL is fatal when M*N > 0), and wherever A receives
 *               the result, RA[i + j*LDIA] and CA[i + j*LDIA] get the grid
 *               row and column of the process whose entry became A(i,j).
 *
 * Ties (equal absolute values) are settled the same way by every TOP and by
 * AMX and AMN alike.  With locations, the process nearest the destination
 * in scope order wins: the smallest (index - destination's index) mod size,
 * where a process's index is its column in a row scope, its row in a column
 * scope, its pnum in the grid; leave-on-all: the smallest index.  Without
 * locations the algebraically larger value wins (complex: the larger real
 * part, then the larger imaginary part).
 *
 * Coherence: every leave-on-all combine, with every TOP, leaves bitwise
 * identical results on all processes of the scope.  Repeatability: TOP ' '
 * always, and the other letters once BLACS_SET(ConTxt, 15, non-zero) is in
 * force, fold the contributions in a fixed order, so the same inputs on the
 * same grid give the same bits on every run; otherwise the explicit letters
 * fold in arrival order, and floating-point sums may differ in the last
 * bits between runs.  Integer results never depend on the order.
 * ------------------------------------------------------------------------ */

/* ---------------------------------------------------------------------------
 * Communication routine prototypes, per type: point-to-point, broadcast,
 * combine
 * ------------------------------------------------------------------------ */
/* integer */
void Cigesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, blacs_int *A, blacs_int lda, blacs_int rdest,
              blacs_int cdest);
void Cigerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, blacs_int *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Citrsd2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Citrrv2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cigebs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda);
void Cigebr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Citrbs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, blacs_int *A, blacs_int lda);
void Citrbr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, blacs_int *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cigsum2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cigamx2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);
void Cigamn2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              blacs_int *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);

/* single precision real */
void Csgesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rdest,
              blacs_int cdest);
void Csgerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cstrsd2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cstrrv2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Csgebs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda);
void Csgebr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cstrbs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, float *A, blacs_int lda);
void Cstrbr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Csgsum2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Csgamx2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);
void Csgamn2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);

/* double precision real */
void Cdgesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rdest,
              blacs_int cdest);
void Cdgerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cdtrsd2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cdtrrv2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cdgebs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda);
void Cdgebr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cdtrbs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, double *A, blacs_int lda);
void Cdtrbr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cdgsum2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cdgamx2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);
void Cdgamn2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);

/* single precision complex */
void Ccgesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rdest,
              blacs_int cdest);
void Ccgerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cctrsd2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cctrrv2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Ccgebs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda);
void Ccgebr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cctrbs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, float *A, blacs_int lda);
void Cctrbr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, float *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Ccgsum2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Ccgamx2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);
void Ccgamn2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              float *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);

/* double precision complex */
void Czgesd2d(blacs_int ConTxt, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rdest,
              blacs_int cdest);
void Czgerv2d(blacs_int ConTxt, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Cztrsd2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Cztrrv2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Czgebs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda);
void Czgebr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
void Cztrbs2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, double *A, blacs_int lda);
void Cztrbr2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int M, blacs_int N, double *A, blacs_int lda, blacs_int rsrc,
              blacs_int csrc);
void Czgsum2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
void Czgamx2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);
void Czgamn2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int M, blacs_int N,
              double *A, blacs_int lda, blacs_int *rA, blacs_int *cA, blacs_int ldia, blacs_int rdest,
              blacs_int cdest);

/* ===========================================================================
 * Fortran-callable entry points
 *
 * Every C routine above has a Fortran twin named in lower case, without
 * the leading C, with one trailing underscore (CALL DGESD2D(...) reaches
 * dgesd2d_, Cblacs_gridinit becomes blacs_gridinit_, Ckbsid kbsid_).  The
 * arguments are the same, in the same order and with the same meaning, but
 * every one is passed by address (integers as blacs_int *, options as
 * const char *); the
 * hidden CHARACTER lengths gfortran appends are never read, so C callers may
 * leave them out.  USERMAP and A are the Fortran arrays themselves (Fortran's
 * USERMAP(i+1, j+1) is the C usermap[i + j*ldumap]).
 *
 * The one difference is the system context: here it is the Fortran MPI
 * communicator handle itself (BLACS_GET(0, 0, ICTXT) gives MPI_COMM_WORLD's
 * and BLACS_GET(ICTXT, 10, ...) a grid's), so sys2blacs_handle_ and
 * blacs2sys_handle_ return their argument and free_blacs_system_handle_
 * does nothing.  BLACS contexts are shared: a grid made from Fortran works
 * in the C routines and the other way round.
 * ------------------------------------------------------------------------ */

/* Fortran-callable support routines */
void blacs_pinfo_(blacs_int *mypnum, blacs_int *nprocs);
void blacs_setup_(blacs_int *mypnum, blacs_int *nprocs);
void blacs_get_(blacs_int *ConTxt, blacs_int *what, blacs_int *val);
void blacs_set_(blacs_int *ConTxt, blacs_int *what, blacs_int *val);
void blacs_gridinit_(blacs_int *ConTxt, BLACS_CONST char *order, blacs_int *nprow, blacs_int *npcol);
void blacs_gridmap_(blacs_int *ConTxt, blacs_int *usermap, blacs_int *ldumap, blacs_int *nprow,
                    blacs_int *npcol);
void blacs_gridinfo_(blacs_int *ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                     blacs_int *mycol);
void blacs_gridexit_(blacs_int *ConTxt);
void blacs_freebuff_(blacs_int *ConTxt, blacs_int *Wait);
void blacs_abort_(blacs_int *ConTxt, blacs_int *ErrNo);
void blacs_exit_(blacs_int *NotDone);
blacs_int blacs_pnum_(blacs_int *ConTxt, blacs_int *prow, blacs_int *pcol);
void blacs_pcoord_(blacs_int *ConTxt, blacs_int *pnum, blacs_int *prow, blacs_int *pcol);
void blacs_barrier_(blacs_int *ConTxt, BLACS_CONST char *scope);
void blacs_stats_(blacs_int *ConTxt);
void blacs_version_(blacs_int *major, blacs_int *minor, blacs_int *patch);
blacs_int ksendid_(blacs_int *ConTxt, blacs_int *rdest, blacs_int *cdest);
blacs_int krecvid_(blacs_int *ConTxt, blacs_int *rsrc, blacs_int *csrc);
blacs_int kbsid_(blacs_int *ConTxt, BLACS_CONST char *scope);
blacs_int kbrid_(blacs_int *ConTxt, BLACS_CONST char *scope, blacs_int *rsrc, blacs_int *csrc);
double dcputime00_(void);
double dwalltime00_(void);
blacs_int sys2blacs_handle_(blacs_int *SysCtxt);
blacs_int blacs2sys_handle_(blacs_int *BlacsCtxt);
void free_blacs_system_handle_(blacs_int *ISysCtxt);

/* ---------------------------------------------------------------------------
 * Fortran-callable communication routines (same arguments, all by address)
 * ------------------------------------------------------------------------ */
void igesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, blacs_int *A, blacs_int *lda, blacs_int *rdest,
              blacs_int *cdest);
void igerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, blacs_int *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void itrsd2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void itrrv2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void igebs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda);
void igebr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void itrbs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, blacs_int *A, blacs_int *lda);
void itrbr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, blacs_int *A, blacs_int *lda,
              blacs_int *rsrc, blacs_int *csrc);
void igsum2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void igamx2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);
void igamn2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              blacs_int *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);

void sgesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rdest,
              blacs_int *cdest);
void sgerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void strsd2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void strrv2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void sgebs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda);
void sgebr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void strbs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, float *A, blacs_int *lda);
void strbr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void sgsum2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void sgamx2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);
void sgamn2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);

void dgesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rdest,
              blacs_int *cdest);
void dgerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void dtrsd2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void dtrrv2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void dgebs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda);
void dgebr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void dtrbs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, double *A, blacs_int *lda);
void dtrbr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void dgsum2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void dgamx2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);
void dgamn2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);

void cgesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rdest,
              blacs_int *cdest);
void cgerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void ctrsd2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void ctrrv2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void cgebs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda);
void cgebr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void ctrbs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, float *A, blacs_int *lda);
void ctrbr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, float *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void cgsum2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void cgamx2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);
void cgamn2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              float *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);

void zgesd2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rdest,
              blacs_int *cdest);
void zgerv2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void ztrsd2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void ztrrv2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void zgebs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda);
void zgebr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);
void ztrbs2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, double *A, blacs_int *lda);
void ztrbr2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, BLACS_CONST char *uplo,
              BLACS_CONST char *diag, blacs_int *M, blacs_int *N, double *A, blacs_int *lda, blacs_int *rsrc,
              blacs_int *csrc);
void zgsum2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rdest, blacs_int *cdest);
void zgamx2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);
void zgamn2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top, blacs_int *M, blacs_int *N,
              double *A, blacs_int *lda, blacs_int *rA, blacs_int *cA, blacs_int *ldia, blacs_int *rdest,
              blacs_int *cdest);

/* ===========================================================================
 * Extensions: LAWN 73 section 7.1.2 and 7.1.3 (not in the reference)
 *
 * New routines beside the reference's, which keep their exact behaviour
 * (vGERV2D still refuses RSRC = -1).  Each has a C name and a Fortran name
 * (every argument by address, as above; the Fortran names answer to the
 * same manglings as the others).
 *
 * Cvgerva2d(ConTxt, M, N, A, lda, rsrc, csrc)
 * Cvtrrva2d(ConTxt, uplo, diag, M, N, A, lda, rsrc, csrc)
 *   Purpose: receive, as vGERV2D / vTRRV2D do, a matrix from any process of
 *   the grid that sends one to the caller: the receive from any source that
 *   LAWN 73 proposes, for fan-ins whose messages may come in any order.
 *   rsrc, csrc  (in/out) In: -1 for any row, -1 for any column, or a
 *               coordinate of the grid (so {-1,-1}: any process; {r,-1}: any
 *               process of row r; {-1,c}: any of column c).  Out: the sender.
 *               Anything else is fatal.
 *   The message IDs.  An ID comes from the send and receive counters of a
 *   pair of processes (LAWN 73 section 6.1), so the ID a receive expects is
 *   known only once the source is.  This routine computes, for every
 *   candidate sender, the ID of that sender's next message to the caller,
 *   waits until one of those messages has arrived, and receives it as
 *   vGERV2D would from that sender.  The rule that follows: it takes the
 *   first point-to-point message to arrive, from any candidate, among the
 *   messages not yet received (LAWN 73: "any outstanding message directed to
 *   the receiving process will be accepted"), and the caller must make sure
 *   that the one it takes is one it wants, with the M x N it describes (any
 *   other size is the usual size error).  What it never takes: a message of
 *   a broadcast or combine (they carry IDs of other ranges), a message of
 *   another context, or a sender's message ahead of an earlier one from the
 *   same sender.  The counters stay in step, so named receives may follow.
 *   The wait polls (MPI_Iprobe) at every debug level; at BLACS_DEBUG=1 and
 *   above a hang is reported like any other ("receiving ... from any
 *   process").
 *
 * Cvtuop2d(ConTxt, scope, top, uplo, diag, M, N, A, lda, rdest, cdest,
 *          init, op, post)
 *   Purpose: a combine with the user's operation over a general (uplo 'G')
 *   or trapezoidal ('U', 'L' with DIAG, as for vTRSD2D) M x N matrix: every
 *   process of SCOPE contributes its A and, element by element, the result
 *   is their combination by OP (exclusive or, sum of squares, a scaled norm,
 *   a trapezoidal sum: LAWN 73 section 7.1.3).  SCOPE, TOP, rdest, cdest and
 *   the result as for vGSUM2D: it overwrites A on the destination, or on
 *   every process when rdest or cdest is -1; elsewhere A is left unchanged.
 *   Every TOP letter, and ' ', which picks by the cost model as for the sums.
 *   The user's functions see the elements packed: those of the trapezoid
 *   only, column after column, a complex element as (re, im).
 *     init(n, v)   called once on each process's packed contribution v[0..n)
 *                  before it is combined (e.g. square each entry); may be
 *                  NULL in C.
 *     op(n, a, b)  a[i] := a[i] (op) b[i] for i < n.  Must not change b.
 *     post(n, v)   called on the result v[0..n) wherever it is left, before
 *                  it is unpacked into A (e.g. a square root); may be NULL
 *                  in C.
 *   A call of op may cover part of the vector: for a general matrix always
 *   whole columns, so a record of several numbers that lies down a column
 *   (the (scale, sumsq) pair of a norm as a 2 x K matrix) is never cut; for
 *   a trapezoid, whole elements (op must then work element by element).
 *   An element-by-element op on a long vector is best passed as a 1 x n
 *   row: it may then be cut anywhere, as vGSUM2D's vectors are.
 *   What op must be: associative and commutative, as the built-in combines
 *   are; then every TOP gives the same result.  The guarantees are the
 *   built-in sums': coherence (leave-on-all results bitwise equal on every
 *   process) if op(x, y) and op(y, x) give the same bits (IEEE +, *, max,
 *   exclusive or do); repeatability (TOP ' ', or BLACS_SET 15) if op and
 *   init are deterministic.  Rounding may make a floating-point op only
 *   nearly associative: the order of application is the TOP's, as for sums.
 *   C: n by value, the functions below; Fortran: EXTERNAL subroutines called
 *   as CALL INIT(N, V), CALL OP(N, A, B), CALL POST(N, V), all three needed
 *   (one that does nothing serves).
 * ------------------------------------------------------------------------ */
typedef void Cblacs_uop_fn(blacs_int n, void *v);
typedef void Cblacs_uop_op(blacs_int n, void *a, const void *b);
typedef void Fblacs_uop_fn(blacs_int *n, void *v);
typedef void Fblacs_uop_op(blacs_int *n, void *a, void *b);

#define BLACS_EXT_PROTOTYPES(v, R)                                                                         \
    void C##v##gerva2d(blacs_int ConTxt, blacs_int M, blacs_int N, R *A, blacs_int lda, blacs_int *rsrc,   \
                       blacs_int *csrc);                                                                   \
    void C##v##trrva2d(blacs_int ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M,      \
                       blacs_int N, R *A, blacs_int lda, blacs_int *rsrc, blacs_int *csrc);                \
    void C##v##tuop2d(blacs_int ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top,                    \
                      BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int M, blacs_int N, R *A,      \
                      blacs_int lda, blacs_int rdest, blacs_int cdest, Cblacs_uop_fn *init,                \
                      Cblacs_uop_op *op, Cblacs_uop_fn *post);                                             \
    void v##gerva2d_(blacs_int *ConTxt, blacs_int *M, blacs_int *N, R *A, blacs_int *lda, blacs_int *rsrc, \
                     blacs_int *csrc);                                                                     \
    void v##trrva2d_(blacs_int *ConTxt, BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M,      \
                     blacs_int *N, R *A, blacs_int *lda, blacs_int *rsrc, blacs_int *csrc);                \
    void v##tuop2d_(blacs_int *ConTxt, BLACS_CONST char *scope, BLACS_CONST char *top,                     \
                    BLACS_CONST char *uplo, BLACS_CONST char *diag, blacs_int *M, blacs_int *N, R *A,      \
                    blacs_int *lda, blacs_int *rdest, blacs_int *cdest, Fblacs_uop_fn *init,               \
                    Fblacs_uop_op *op, Fblacs_uop_fn *post);
BLACS_EXT_PROTOTYPES(i, blacs_int) /* Cigerva2d, igerva2d_, Citrrva2d, ..., Cituop2d, ituop2d_ */
BLACS_EXT_PROTOTYPES(s, float)     /* Csgerva2d, ... */
BLACS_EXT_PROTOTYPES(d, double)    /* Cdgerva2d, ... */
BLACS_EXT_PROTOTYPES(c, float)     /* Ccgerva2d, ...: A as (re, im) pairs */
BLACS_EXT_PROTOTYPES(z, double)    /* Czgerva2d, ... */
#undef BLACS_EXT_PROTOTYPES

#ifdef __cplusplus
}
#endif

#endif /* BLACS_H */
