#!/bin/sh
# tools/man-aliases.sh - the public names whose manual page is a family's
# page, one "NAME FAMILY" a line: every C name (Cdgesd2d, Cblacs_gridinit)
# and every Fortran name of each type letter (dgesd2d, igsum2d), the timers,
# the handle conversions and the message IDs.  make install writes each as a
# one-line page, `.so man3/FAMILY.3`, so that `man dgesd2d` opens
# blacs_gesd2d(3); test/man-check.sh checks that every name the library
# exports has a page (in man/ or here) and that every name here is exported.
# In the lists, a leading v (or Cv) stands for each of i, s, d, c, z.
set -eu
list() { # FAMILY NAME...
    fam=$1
    shift
    for n in "$@"; do
        case $n in
        v*) for t in i s d c z; do echo "$t${n#v} $fam"; done ;;
        Cv*) for t in i s d c z; do echo "C$t${n#Cv} $fam"; done ;;
        *) echo "$n $fam" ;;
        esac
    done
}
list blacs_gesd2d vgesd2d vgerv2d vtrsd2d vtrrv2d Cvgesd2d Cvgerv2d Cvtrsd2d Cvtrrv2d
list blacs_gebs2d vgebs2d vgebr2d vtrbs2d vtrbr2d Cvgebs2d Cvgebr2d Cvtrbs2d Cvtrbr2d
list blacs_gsum2d vgsum2d vgamx2d vgamn2d Cvgsum2d Cvgamx2d Cvgamn2d
list blacs_gerva2d vgerva2d vtrrva2d vtuop2d Cvgerva2d Cvtrrva2d Cvtuop2d
list blacs_gridinit Cblacs_gridinit Cblacs_pinfo Cblacs_setup Cblacs_get Cblacs_set Cblacs_gridmap \
    Cblacs_gridinfo Cblacs_gridexit Cblacs_exit Cblacs_abort Cblacs_barrier Cblacs_freebuff Cblacs_pnum \
    Cblacs_pcoord Cblacs_stats Cblacs_version \
    sys2blacs_handle blacs2sys_handle free_blacs_system_handle \
    Csys2blacs_handle Cblacs2sys_handle Cfree_blacs_system_handle \
    dcputime00 dwalltime00 Cdcputime00 Cdwalltime00 ksendid krecvid kbsid kbrid Cksendid Ckrecvid Ckbsid Ckbrid
