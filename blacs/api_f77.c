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

BLX_API void blacs_pinfo_(blacs_int *mypnum, blacs_int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void blacs_setup_(blacs_int *mypnum, blacs_int *nprocs) { blx_pinfo(mypnum, nprocs); }
BLX_API void blacs_get_(blacs_int *ConTxt, blacs_int *what, blacs_int *val)
{
    blx_get(BLX_IFACE_F77, *ConTxt, *what, val);
}
BLX_API void blacs_set_(blacs_int *ConTxt, blacs_int *what, blacs_int *val) { blx_set(*ConTxt, *what, val); }

BLX_API void blacs_gridinit_(blacs_int *ConTxt, const char *order, blacs_int *nprow, blacs_int *npcol)
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

BLX_API void blacs_barrier_(blacs_int *ConTxt, const char *scope)
{
    blx_call k = {.name = "BLACS_BARRIER", .kind = BLX_BARRIER, .ctxt = *ConTxt, .scope = scope};
    blx_barrier(&k);
}

BLX_API void blacs_stats_(blacs_int *ConTxt)
{
    const char *routine = "BLACS_STATS";
    blx_stats(I(*ConTxt, "ConTxt"));
}

BLX_API void blacs_version_(blacs_int *major, blacs_int *minor, blacs_int *patch)
{
    blx_version(major, minor, patch);
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

BLX_API blacs_int kbsid_(blacs_int *ConTxt, const char *scope)
{
    const char *routine = "KBSID";
    return blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
}

BLX_API blacs_int kbrid_(blacs_int *ConTxt, const char *scope, blacs_int *rsrc, blacs_int *csrc)
{
    const char *routine = "KBRID";
    (void)rsrc, (void)csrc;
    return blx_kscopedid(I(*ConTxt, "ConTxt"), scope, routine);
}

/* A Fortran system context is the Fortran communicator handle itself. */
BLX_API blacs_int sys2blacs_handle_(blacs_int *SysCtxt) { return *SysCtxt; }
BLX_API blacs_int blacs2sys_handle_(blacs_int *BlacsCtxt) { return *BlacsCtxt; }
BLX_API void free_blacs_system_handle_(blacs_int *ISysCtxt) { (void)ISysCtxt; }

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
