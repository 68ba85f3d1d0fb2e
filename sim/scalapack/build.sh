#!/usr/bin/env bash
# sim/scalapack/build.sh SRC OUT - ScaLAPACK's double-precision drivers and
# its reference BLACS, compiled by SimGrid's smpicc and smpif90, for
# `make sim-scalapack` (sim/scalapack/run.sh).
#
# SRC is a ScaLAPACK source tree (the vendored subset that
# sim/scalapack/source.sh unpacks, or a whole checkout); OUT receives
#   libscalapack-sim.a  TOOLS, PBLAS and the double-precision SRC, without BLACS
#   libblacs-ref-sim.a  the reference BLACS of the same release (BLACS/SRC)
# Objects are compiled once (OUT/obj, by file), in parallel.  Flags: ScaLAPACK's
# own (SLmake.inc.example: -DAdd_, -O3 there; -O1 here, since computation
# takes no simulated time and a shorter compile matters more), plus gfortran
# 12's -fallow-argument-mismatch, without which its Fortran does not compile.
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
SMPICC=${SMPICC:-smpicc}
SMPIF90=${SMPIF90:-smpif90}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

# the files, by library; a file that a subset lacks is skipped
list() { (cd "$src" && for g in "$@"; do for f in $g; do [ ! -e "$f" ] || echo "$f"; done; done); }
mapfile -t blacs < <(list 'BLACS/SRC/*.c')
mapfile -t -O "${#blacs[@]}" blacs < <(printf '%s\n' "${blacs[@]}" | sed -n 's/_\.c$/_-C/p')
mapfile -t sl < <(list 'TOOLS/*.f' 'TOOLS/*.c' 'TOOLS/LAPACK/*.f' 'PBLAS/SRC/*.c' 'PBLAS/SRC/PTOOLS/*.c' \
    'PBLAS/SRC/PBBLAS/*.f' 'PBLAS/SRC/PTZBLAS/*.f' 'PBLAS/SRC/*.f' \
    'SRC/pd*.f' 'SRC/pi*.f' 'SRC/pj*.f' 'SRC/pm*.f' 'SRC/d*.f' 'SRC/bd*.f' 'SRC/pd*.c' 'SRC/dlamov.c' \
    'SRC/getpbbuf.c' 'SRC/pbchkvect.c')

# BLACS/SRC's entry points (NAME_.c) are compiled twice, as ScaLAPACK's
# build does: NAME_.o, the Fortran interface, and NAME_-C.o, the C interface
# (-DCallFromC: Cdgesd2d, Cblacs_gridinfo, ...), which PBLAS calls.  SMPI
# lacks MPI_Type_match_size, which the reference BLACS calls: ours
# (sim/scalapack/match_size.h, included ahead of each file) stands in for it.
match=$(cd "$(dirname "$0")" && pwd)/match_size.h
compile() { # one source file -> OUT/obj/<path>.o
    local f=$1 o=$out/obj/${1%.*}.o
    case $f in *-C) f=${f%-C}.c o=$out/obj/${f%.*}-C.o ;; esac
    [ "$o" -nt "$src/$f" ] && return 0
    mkdir -p "$(dirname "$o")"
    case $1 in
    *.f) "$SMPIF90" -O1 -fallow-argument-mismatch -w -c "$src/$f" -o "$o" ;;
    *-C) "$SMPICC" -O1 -w -DAdd_ -DCallFromC -include "$match" -I"$src/BLACS/SRC" -c "$src/$f" -o "$o" ;;
    BLACS/*) "$SMPICC" -O1 -w -DAdd_ -include "$match" -I"$src/BLACS/SRC" -c "$src/$f" -o "$o" ;;
    *) "$SMPICC" -O1 -w -DAdd_ -I"$src/PBLAS/SRC" -I"$src/PBLAS/SRC/PTOOLS" -c "$src/$f" -o "$o" ;;
    esac
}
export -f compile
export src out SMPICC SMPIF90 match
printf '%s\n' "${blacs[@]}" "${sl[@]}" | xargs -P "$JOBS" -I{} bash -c 'compile {}' ||
    { echo "sim/scalapack/build.sh: compiling failed" >&2; exit 1; }

archive() { # archive NAME FILES...
    local a=$out/$1
    shift
    rm -f "$a"
    (cd "$out/obj" && printf '%s\n' "$@" | sed 's/\.[fc]$/.o/; s/-C$/-C.o/' | xargs ar rcs "$a")
}
archive libblacs-ref-sim.a "${blacs[@]}"
archive libscalapack-sim.a "${sl[@]}"
echo "sim/scalapack/build.sh: $out/libscalapack-sim.a (${#sl[@]} files)," \
    "$out/libblacs-ref-sim.a (${#blacs[@]} objects)"
