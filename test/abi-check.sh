#!/usr/bin/env bash
# test/abi-check.sh LIB - the shared library exports exactly the 156 public
# BLACS names of the reference (78 C, 78 Fortran; spec section 1), plus the
# documented extension, and nothing else.  The 156 are also checked against
# what Debian's reference library exports (libscalapack-openmpi, or -mpich,
# installed by tools/install-deps.sh; point REFERENCE_BLACS at another copy):
# without it the check fails.
#
# The extension: the other manglings of the 78 Fortran names (doc/guide.md, "Fortran
# compilers"; blacs/f77_names.h), derived here by the same rule from the
# reference's name_: name (no underscore), NAME (upper case, no underscore),
# and name__ when name contains an underscore.  173 names: 78 + 78 + 17.
# And the library's own routines, Cblacs_stats and Cblacs_version (blacs.h),
# with blacs_stats_, blacs_version_ and their three other manglings each:
# 10 names.
# And LAWN 73's extensions (blacs.h, "Extensions"): vGERVA2D, vTRRVA2D and
# vTUOP2D for the five types, C and Fortran, with the Fortran names' other
# manglings (name, NAME): 15 + 15 + 30 = 60 names, none of them the
# reference's.
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

manglings() { # the Fortran names name_ of the reference -> their other manglings
    local f n
    for f in $(expected | grep -v '^C'); do
        n=${f%_}
        echo "$n"
        echo "$n" | tr 'a-z' 'A-Z'
        case $n in *_*) echo "${n}__" ;; esac
    done
}

lawn73() {
    local v r
    for v in i s d c z; do
        for r in gerva2d trrva2d tuop2d; do
            echo "C$v$r"; echo "$v${r}_"; echo "$v$r"; echo "$v$r" | tr 'a-z' 'A-Z'
        done
    done
}

ref156=$(expected | sort)
ext=$(manglings | sort)
own="Cblacs_stats blacs_stats_ blacs_stats BLACS_STATS blacs_stats__
     Cblacs_version blacs_version_ blacs_version BLACS_VERSION blacs_version__"
lawn=$(lawn73 | sort)
want=$(printf '%s\n%s\n%s\n' "$ref156" "$ext" "$lawn"; printf '%s\n' $own)
want=$(printf '%s\n' "$want" | sort)
have=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRV]$/ {print $3}' | sort)
nwant=$(printf '%s\n' "$ref156" | wc -l)
next=$(printf '%s\n' "$ext" | wc -l)
nc=$(printf '%s\n' "$have" | grep -c '^C[a-z]')
nf=$(comm -12 <(printf '%s\n' "$have") <(printf '%s\n' "$ref156" | grep -v '^C') | wc -l)
nx=$(comm -12 <(printf '%s\n' "$have") <(printf '%s\n' "$ext") | wc -l)
missing=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
extra=$(comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
status=0
echo "exported by $lib: $(printf '%s\n' "$have" | wc -l) names ($nc C, $nf Fortran name_, $nx other Fortran manglings);" \
    "expected $nwant + $next + 10 (Cblacs_stats, Cblacs_version) + $(printf '%s\n' "$lawn" | wc -l) (LAWN 73 extensions)"
[ -z "$missing" ] || { echo "MISSING: $missing" | tr '\n' ' '; echo; status=1; }
[ -z "$extra" ] || { echo "NOT PUBLIC BLACS NAMES: $extra" | tr '\n' ' '; echo; status=1; }
[ "$nwant" -eq 156 ] || { echo "the expected list has $nwant names, not 156"; status=1; }
[ "$next" -eq 173 ] || { echo "the extension list has $next names, not 173"; status=1; }
[ "$(printf '%s\n' "$lawn" | wc -l)" -eq 60 ] || { echo "the LAWN 73 list is not 60 names"; status=1; }
# The extension is only other names of the reference's routines: each is the
# same address as its name_ (the timers excepted: wrappers, see api_f77.c).
addr() { nm -D --defined-only "$lib" | awk -v n="$1" '$3 == n { print $1 }'; }
notalias=""
for n in $(printf '%s\n' "$ext" | grep -v -i -x -E 'dcputime00|dwalltime00'); do
    base=$(echo "${n%__}" | tr 'A-Z' 'a-z')_
    [ "$(addr "$n")" = "$(addr "$base")" ] || notalias+=" $n"
done
for o in stats version; do
    for n in blacs_$o BLACS_$(echo "$o" | tr 'a-z' 'A-Z') blacs_${o}__; do
        [ "$(addr "$n")" = "$(addr "blacs_${o}_")" ] || notalias+=" $n"
    done
done
for n in $(printf '%s\n' "$lawn" | grep -v -e '^C' -e '_$'); do
    [ "$(addr "$n")" = "$(addr "$(echo "$n" | tr 'A-Z' 'a-z')_")" ] || notalias+=" $n"
done
[ -z "$notalias" ] || { echo "not aliases of their name_:$notalias"; status=1; }

if [ -r "$ref" ]; then
    refhave=$(nm -D --defined-only "$ref" | awk '{print $3}' | sort)
    notref=$(comm -23 <(printf '%s\n' "$ref156") <(printf '%s\n' "$refhave"))
    [ -z "$notref" ] || { echo "names the reference does not export: $notref"; status=1; }
    [ -z "$notref" ] && echo "all $nwant reference names are exported by the reference ($ref) too"
    clash=$(comm -12 <(printf '%s\n' "$lawn" $own | sort) <(printf '%s\n' "$refhave"))
    [ -z "$clash" ] || { echo "extension names the reference exports too: $clash"; status=1; }
else
    echo "reference library $ref not readable: install libscalapack-openmpi (tools/install-deps.sh) or set REFERENCE_BLACS"
    status=1
fi
[ $status -eq 0 ] && echo "abi-check: passed"
exit $status
