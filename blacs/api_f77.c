/*
 * blacs/api_f77.c - the Fortran interface (gfortran/g77 convention: lower
 * case, one trailing underscore, every argument by address).  gfortran adds
 * hidden CHARACTER lengths after the last argument; they are never read, so
 * C callers that omit them (as ScaLAPACK's own C code does) work too.  At the
 * end, the other manglings of their names (name, name__, NAME), generated
 * from the list in f77_names.h.  The communication routines: api_comm.c.  Every INTEGER is a blacs_int (blacs.h):
 * 32-bit in the LP64 library, 64-bit in the ILP64 one.
 */
#include "blacs.h"
#include "call.h"
#include "f77_names.h"

/* ---- support routines ---- */

#define I(v, name) blx_int_arg((v), routine, (name))

BLX_API void blacs_pinfo_(blacs_int *mypnum, blacs_int *nprocs)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_pinfo(mypnum, nprocs);
    blx_stack_end();
}
BLX_API void blacs_setup_(blacs_int *mypnum, blacs_int *nprocs)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_pinfo(mypnum, nprocs);
    blx_stack_end();
}
BLX_API void blacs_get_(blacs_int *ConTxt, blacs_int *what, blacs_int *val)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_get(BLX_IFACE_F77, *ConTxt, *what, val);
    blx_stack_end();
}
BLX_API void blacs_set_(blacs_int *ConTxt, blacs_int *what, blacs_int *val)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_set(*ConTxt, *what, val);
    blx_stack_end();
}

BLX_API void blacs_gridinit_(blacs_int *ConTxt, const char *order, blacs_int *nprow, blacs_int *npcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDINIT";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridinit(routine, &ctxt, sys, order, I(*nprow, "NPROW"), I(*npcol, "NPCOL"));
    *ConTxt = ctxt;
    blx_stack_end();
}

BLX_API void blacs_gridmap_(blacs_int *ConTxt, blacs_int *usermap, blacs_int *ldumap, blacs_int *nprow,
                            blacs_int *npcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDMAP";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_F77, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridmap(routine, &ctxt, sys, usermap, *ldumap, I(*nprow, "NPROW"), I(*npcol, "NPCOL"));
    *ConTxt = ctxt;
    blx_stack_end();
}

BLX_API void blacs_gridinfo_(blacs_int *ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                             blacs_int *mycol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    int r, c, mr, mc;
    blx_gridinfo(blx_int_or_none(*ConTxt), &r, &c, &mr, &mc);
    *nprow = r, *npcol = c, *myrow = mr, *mycol = mc;
    blx_stack_end();
}

BLX_API void blacs_gridexit_(blacs_int *ConTxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDEXIT";
    blx_gridexit(I(*ConTxt, "ConTxt"));
    blx_stack_end();
}

BLX_API void blacs_freebuff_(blacs_int *ConTxt, blacs_int *Wait)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt;
    blx_freebuff(*Wait != 0);
    blx_stack_end();
}

BLX_API void blacs_abort_(blacs_int *ConTxt, blacs_int *ErrNo)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_ABORT";
    blx_abort(blx_int_or_none(*ConTxt), I(*ErrNo, "ErrNo"));
    blx_stack_end();
}

BLX_API void blacs_exit_(blacs_int *NotDone)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_exit(*NotDone != 0);
    blx_stack_end();
}

BLX_API blacs_int blacs_pnum_(blacs_int *ConTxt, blacs_int *prow, blacs_int *pcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blacs_int r = blx_pnum(blx_int_or_none(*ConTxt), blx_int_or_none(*prow), blx_int_or_none(*pcol));
    blx_stack_end();
    return r;
}

BLX_API void blacs_pcoord_(blacs_int *ConTxt, blacs_int *pnum, blacs_int *prow, blacs_int *pcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    int r, c;
    blx_pcoord(blx_int_or_none(*ConTxt), blx_int_or_none(*pnum), &r, &c);
    *prow = r, *pcol = c;
    blx_stack_end();
}

BLX_API void blacs_barrier_(blacs_int *ConTxt, const char *scope)
{
    blx_call k = {.name = "BLACS_BARRIER", .kind = BLX_BARRIER, .ctxt = *ConTxt, .scope = scope};
    blx_call_run(blx_barrier, &k);
}

BLX_API void blacs_stats_(blacs_int *ConTxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_STATS";
    blx_stats(I(*ConTxt, "ConTxt"));
    blx_stack_end();
}

BLX_API void blacs_version_(blacs_int *major, blacs_int *minor, blacs_int *patch)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_version(major, minor, patch);
    blx_stack_end();
}

BLX_API blacs_int ksendid_(blacs_int *ConTxt, blacs_int *rdest, blacs_int *cdest)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt, (void)rdest, (void)cdest;
    blacs_int r = blx_kp2pid();
    blx_stack_end();
    return r;
}

BLX_API blacs_int krecvid_(blacs_int *ConTxt, blacs_int *rsrc, blacs_int *csrc)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt, (void)rsrc, (void)csrc;
    blacs_int r = blx_kp2pid();
    blx_stack_end();
    return r;
}

BLX_API blacs_int kbsid_(blacs_int *ConTxt, const char *scope)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "KBSID";
    blacs_int r = blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
    blx_stack_end();
    return r;
}

BLX_API blacs_int kbrid_(blacs_int *ConTxt, const char *scope, blacs_int *rsrc, blacs_int *csrc)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "KBRID";
    (void)rsrc, (void)csrc;
    blacs_int r = blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
    blx_stack_end();
    return r;
}

/* A Fortran system context is the Fortran communicator handle itself. */
BLX_API blacs_int sys2blacs_handle_(blacs_int *SysCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blacs_int r = *SysCtxt;
    blx_stack_end();
    return r;
}
BLX_API blacs_int blacs2sys_handle_(blacs_int *BlacsCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blacs_int r = *BlacsCtxt;
    blx_stack_end();
    return r;
}
BLX_API void free_blacs_system_handle_(blacs_int *ISysCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ISysCtxt;
    blx_stack_end();
}

/* ---- the other Fortran manglings (f77_names.h) ---- */

BLX_F77_SUPPORT(BLX_F77_MANGLINGS) /* the communication routines': api_comm.c */

/* The timers are defined in timers.c: their other names call them. */
#define BLX_F77_TIMER_MANGLINGS(name, NAME, underscored) \
    BLX_API double name(void);                           \
    BLX_API double NAME(void);                           \
    BLX_API double name(void) { return name##_(); }      \
    BLX_API double NAME(void) { return name##_(); }
BLX_F77_TIMERS(BLX_F77_TIMER_MANGLINGS)
#undef BLX_F77_TIMER_MANGLINGS
