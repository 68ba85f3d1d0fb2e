#!/usr/bin/env bash
# test/abi-check.sh LIB - the shared library exports exactly the 156 public
# BLACS names of the reference (78 C, 78 Fortran; spec section 1) and nothing
# else.  The list is also checked against what Debian's reference library
# exports (libscalapack-openmpi, installed by tools/install-deps.sh; point
# REFERENCE_BLACS at another copy): without it the check fails.
set -u
lib=$1
ref=${REFERENCE_BLACS:-/usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so.2.2}

support="pinfo setup get set gridinit gridmap gridinfo gridexit freebuff abort exit pnum pcoord barrier"
expected() {
    for s in $support; do echo "Cblacs_$s"; echo "blacs_${s}_"; done
    for k in sendid recvid bsid brid; do echo "Ck$k"; echo "k${k}_"; done
    for t in dcputime00 dwalltime00; do echo "C$t"; echo "${t}_"; done
    echo Csys2blacs_handle; echo sys2blacs_handle_
    echo Cblacs2sys_handle; echo blacs2sys_handle_
    echo Cfree_blacs_system_handle; echo free_blacs_system_handle_
    for v in i s d c z; do
        for r in gesd2d gerv2d trsd2d trrv2d gebs2d gebr2d trbs2d trbr2d gsum2d gamx2d gamn2d; do
            echo "C$v$r"; echo "$v${r}_"
        done
    done
}

want=$(expected | sort)
have=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRV]$/ {print $3}' | sort)
nwant=$(printf '%s\n' "$want" | wc -l)
nc=$(printf '%s\n' "$have" | grep -c '^C')
nf=$(printf '%s\n' "$have" | grep -vc '^C')
missing=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
extra=$(comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
status=0
echo "exported by $lib: $(printf '%s\n' "$have" | wc -l) names ($nc C, $nf Fortran); expected $nwant"
[ -z "$missing" ] || { echo "MISSING: $missing" | tr '\n' ' '; echo; status=1; }
[ -z "$extra" ] || { echo "NOT PUBLIC BLACS NAMES: $extra" | tr '\n' ' '; echo; status=1; }
[ "$nwant" -eq 156 ] || { echo "the expected list has $nwant names, not 156"; status=1; }

if [ -r "$ref" ]; then
    refhave=$(nm -D --defined-only "$ref" | awk '{print $3}' | sort)
    notref=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$refhave"))
    [ -z "$notref" ] || { echo "names the reference does not export: $notref"; status=1; }
    [ -z "$notref" ] && echo "all $nwant names are exported by the reference ($ref) too"
else
    echo "reference library $ref not readable: install libscalapack-openmpi (tools/install-deps.sh) or set REFERENCE_BLACS"
    status=1
fi
[ $status -eq 0 ] && echo "abi-check: passed"
exit $status
