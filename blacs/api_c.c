/*
 * blacs/api_c.c - the C interface's support routines, each a thin wrapper
 * over the shared core (the communication routines: api_comm.c).
 * Integers are blacs_int (blacs.h): the core keeps contexts, coordinates
 * and grid sizes as int (MPI ranks; blx_int_arg checks them in the ILP64
 * library) and M, N, LDA, LDIA as 64-bit.
 */
#include "blacs.h"
#include "call.h"

#define I(v, name) blx_int_arg((v), routine, (name))

/* ---- support routines ---- */

BLX_API void Cblacs_pinfo(blacs_int *mypnum, blacs_int *nprocs)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_pinfo(mypnum, nprocs);
    blx_stack_end();
}
BLX_API void Cblacs_setup(blacs_int *mypnum, blacs_int *nprocs)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_pinfo(mypnum, nprocs);
    blx_stack_end();
}
BLX_API void Cblacs_get(blacs_int ConTxt, blacs_int what, blacs_int *val)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_get(BLX_IFACE_C, ConTxt, what, val);
    blx_stack_end();
}
BLX_API void Cblacs_set(blacs_int ConTxt, blacs_int what, blacs_int *val)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_set(ConTxt, what, val);
    blx_stack_end();
}

BLX_API void Cblacs_gridinit(blacs_int *ConTxt, const char *order, blacs_int nprow, blacs_int npcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDINIT";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridinit(routine, &ctxt, sys, order, I(nprow, "NPROW"), I(npcol, "NPCOL"));
    *ConTxt = ctxt;
    blx_stack_end();
}

BLX_API void Cblacs_gridmap(blacs_int *ConTxt, blacs_int *usermap, blacs_int ldumap, blacs_int nprow,
                            blacs_int npcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDMAP";
    MPI_Comm sys = blx_sys_comm(BLX_IFACE_C, I(*ConTxt, "ConTxt"), routine);
    int ctxt;
    blx_gridmap(routine, &ctxt, sys, usermap, ldumap, I(nprow, "NPROW"), I(npcol, "NPCOL"));
    *ConTxt = ctxt;
    blx_stack_end();
}

BLX_API void Cblacs_gridinfo(blacs_int ConTxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                             blacs_int *mycol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    int r, c, mr, mc;
    blx_gridinfo(blx_int_or_none(ConTxt), &r, &c, &mr, &mc);
    *nprow = r, *npcol = c, *myrow = mr, *mycol = mc;
    blx_stack_end();
}

BLX_API void Cblacs_gridexit(blacs_int ConTxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_GRIDEXIT";
    blx_gridexit(I(ConTxt, "ConTxt"));
    blx_stack_end();
}

BLX_API void Cblacs_freebuff(blacs_int ConTxt, blacs_int Wait)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt;
    blx_freebuff(Wait != 0);
    blx_stack_end();
}

BLX_API void Cblacs_abort(blacs_int ConTxt, blacs_int ErrNo)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_ABORT";
    blx_abort(blx_int_or_none(ConTxt), I(ErrNo, "ErrNo"));
    blx_stack_end();
}

BLX_API void Cblacs_exit(blacs_int NotDone)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_exit(NotDone != 0);
    blx_stack_end();
}

BLX_API blacs_int Cblacs_pnum(blacs_int ConTxt, blacs_int prow, blacs_int pcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blacs_int r = blx_pnum(blx_int_or_none(ConTxt), blx_int_or_none(prow), blx_int_or_none(pcol));
    blx_stack_end();
    return r;
}

BLX_API void Cblacs_pcoord(blacs_int ConTxt, blacs_int pnum, blacs_int *prow, blacs_int *pcol)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    int r, c;
    blx_pcoord(blx_int_or_none(ConTxt), blx_int_or_none(pnum), &r, &c);
    *prow = r, *pcol = c;
    blx_stack_end();
}

BLX_API void Cblacs_barrier(blacs_int ConTxt, const char *scope)
{
    blx_call k = {.name = "BLACS_BARRIER", .kind = BLX_BARRIER, .ctxt = ConTxt, .scope = scope};
    blx_call_run(blx_barrier, &k);
}

BLX_API void Cblacs_stats(blacs_int ConTxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "BLACS_STATS";
    blx_stats(I(ConTxt, "ConTxt"));
    blx_stack_end();
}

BLX_API void Cblacs_version(blacs_int *major, blacs_int *minor, blacs_int *patch)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_version(major, minor, patch);
    blx_stack_end();
}

BLX_API blacs_int Cksendid(blacs_int ConTxt, blacs_int rdest, blacs_int cdest)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt, (void)rdest, (void)cdest;
    blacs_int r = blx_kp2pid();
    blx_stack_end();
    return r;
}

BLX_API blacs_int Ckrecvid(blacs_int ConTxt, blacs_int rsrc, blacs_int csrc)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    (void)ConTxt, (void)rsrc, (void)csrc;
    blacs_int r = blx_kp2pid();
    blx_stack_end();
    return r;
}

BLX_API blacs_int Ckbsid(blacs_int ConTxt, const char *scope)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "Ckbsid";
    blacs_int r = blx_kscopedid(I(ConTxt, "ConTxt"), scope, routine);
    blx_stack_end();
    return r;
}

BLX_API blacs_int Ckbrid(blacs_int ConTxt, const char *scope, blacs_int rsrc, blacs_int csrc)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "Ckbrid";
    (void)rsrc, (void)csrc;
    blacs_int r = blx_kscopedid(I(ConTxt, "ConTxt"), scope, routine);
    blx_stack_end();
    return r;
}

BLX_API blacs_int Csys2blacs_handle(MPI_Comm SysCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blacs_int r = blx_sys_register(SysCtxt);
    blx_stack_end();
    return r;
}

BLX_API MPI_Comm Cblacs2sys_handle(blacs_int BlacsCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    const char *routine = "Cblacs2sys_handle";
    MPI_Comm r = blx_sys_lookup(I(BlacsCtxt, "BlacsCtxt"), routine);
    blx_stack_end();
    return r;
}

BLX_API void Cfree_blacs_system_handle(blacs_int ISysCtxt)
{
    blx_stack_begin(BLX_STACK_SUPPORT);
    blx_sys_free(blx_int_or_none(ISysCtxt));
    blx_stack_end();
}
