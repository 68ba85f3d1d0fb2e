/*
 * blacs/f77_names.h - the one list of the Fortran entry points' names, and
 * the other manglings they answer to.
 *
 * The reference BLACS defines each Fortran routine once, as gfortran names
 * it by default: lower case and one trailing underscore (blacs_pinfo_,
 * dgesd2d_).  Other compilers and options mangle otherwise, so every such
 * routine also answers, in the same library, to
 *   name     lower case, no underscore (gfortran -fno-underscoring, IBM XL,
 *            HP)
 *   name__   two underscores for a name that contains one (f2c, g77,
 *            gfortran -ff2c or -fsecond-underscore): blacs_pinfo__; a name
 *            without one (dgesd2d) gets one underscore, the reference's
 *   NAME     upper case, no underscore (Cray, old Intel and Compaq
 *            conventions)
 * The extra names are aliases of the reference's (the same code and
 * address); test/abi-check.sh derives the same list by the same rule.
 *
 *   BLX_F77_SUPPORT(X)      X(name, NAME, underscored), the support routines
 *   BLX_F77_FAMILIES(X, v, V)
 *                           X(vfamily, VFAMILY, 0) for one type letter: the
 *                           communication routines, applied to every type of
 *                           BLX_FOR_EACH_TYPE (types.h)
 *   BLX_F77_EXT_FAMILIES(X, v, V)
 *                           the same for the extensions (vGERVA2D, vTRRVA2D,
 *                           vTUOP2D)
 * underscored is 1 when the name contains an underscore (it gets name__).
 */
#ifndef BLX_F77_NAMES_H
#define BLX_F77_NAMES_H

#define BLX_F77_SUPPORT(X)                   \
    X(blacs_pinfo, BLACS_PINFO, 1)           \
    X(blacs_setup, BLACS_SETUP, 1)           \
    X(blacs_get, BLACS_GET, 1)               \
    X(blacs_set, BLACS_SET, 1)               \
    X(blacs_gridinit, BLACS_GRIDINIT, 1)     \
    X(blacs_gridmap, BLACS_GRIDMAP, 1)       \
    X(blacs_gridinfo, BLACS_GRIDINFO, 1)     \
    X(blacs_gridexit, BLACS_GRIDEXIT, 1)     \
    X(blacs_freebuff, BLACS_FREEBUFF, 1)     \
    X(blacs_abort, BLACS_ABORT, 1)           \
    X(blacs_exit, BLACS_EXIT, 1)             \
    X(blacs_pnum, BLACS_PNUM, 1)             \
    X(blacs_pcoord, BLACS_PCOORD, 1)         \
    X(blacs_barrier, BLACS_BARRIER, 1)       \
    X(blacs_stats, BLACS_STATS, 1)           \
    X(blacs_version, BLACS_VERSION, 1)       \
    X(ksendid, KSENDID, 0)                   \
    X(krecvid, KRECVID, 0)                   \
    X(kbsid, KBSID, 0)                       \
    X(kbrid, KBRID, 0)                       \
    X(sys2blacs_handle, SYS2BLACS_HANDLE, 1) \
    X(blacs2sys_handle, BLACS2SYS_HANDLE, 1) \
    X(free_blacs_system_handle, FREE_BLACS_SYSTEM_HANDLE, 1)

/* The timers' Fortran names: defined in timers.c, not here, so their other
 * manglings are wrappers rather than aliases (an alias must be defined in
 * the file that defines its target). */
#define BLX_F77_TIMERS(X)        \
    X(dcputime00, DCPUTIME00, 0) \
    X(dwalltime00, DWALLTIME00, 0)

#define BLX_F77_FAMILIES(X, v, V) \
    X(v##gesd2d, V##GESD2D, 0)    \
    X(v##gerv2d, V##GERV2D, 0)    \
    X(v##trsd2d, V##TRSD2D, 0)    \
    X(v##trrv2d, V##TRRV2D, 0)    \
    X(v##gebs2d, V##GEBS2D, 0)    \
    X(v##gebr2d, V##GEBR2D, 0)    \
    X(v##trbs2d, V##TRBS2D, 0)    \
    X(v##trbr2d, V##TRBR2D, 0)    \
    X(v##gsum2d, V##GSUM2D, 0)    \
    X(v##gamx2d, V##GAMX2D, 0)    \
    X(v##gamn2d, V##GAMN2D, 0)

/* The extensions of LAWN 73 section 7.1 (api_comm.c), for one type letter;
 * no name contains an underscore. */
#define BLX_F77_EXT_FAMILIES(X, v, V) \
    X(v##gerva2d, V##GERVA2D, 0)      \
    X(v##trrva2d, V##TRRVA2D, 0)      \
    X(v##tuop2d, V##TUOP2D, 0)

/* X for every name above: NEWNAME is another name of TARGET, exported
 * like it; an alias must be defined in the file that defines its target. */
#define BLX_F77_ALIAS(newname, target) \
    BLX_API extern __typeof__(target) newname __attribute__((alias(#target)));
#define BLX_F77_SECOND_0(name)
#define BLX_F77_SECOND_1(name) BLX_F77_ALIAS(name##__, name##_)
#define BLX_F77_MANGLINGS(name, NAME, underscored) \
    BLX_F77_ALIAS(name, name##_)                   \
    BLX_F77_ALIAS(NAME, name##_)                   \
    BLX_F77_SECOND_##underscored(name)

#endif
