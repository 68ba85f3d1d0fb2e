#!/usr/bin/env bash
# bench/lu-compare.sh [TRIALS] [N] [NB] [P] [Q] - examples/lu against
# ScaLAPACK's own PDGESV on the same machine, grid, N, NB and BLAS, run
# alternately in one session; prints every trial, the medians and the ratios.
#   scalapack (ref BLACS): PDGESV from Debian's libscalapack-openmpi (or
#                          -mpich), with the reference BLACS inside it
#   scalapack (our BLACS): the same binary with this library preloaded
#   lu:                    examples/lu on this library
set -eu
. "$(dirname "$0")/common.sh" # launch
trials=${1:-5} n=${2:-2000} nb=${3:-64} p=${4:-2} q=${5:-2}
b=$BUILD
lib=$(readlink -f "${BLACS_LIB:?the library to preload (make lu-compare sets it)}")
np=$((p * q))
args=(--n "$n" --nb "$nb" --p "$p" --q "$q")
declare -A all
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
gf() { grep -Eo 'gflops=[0-9.]+' | cut -d= -f2; }
echo "N=$n NB=$nb grid=${p}x${q}, $trials trials, alternating"
for t in $(seq "$trials"); do
    r1=$(launch "$np" "$b/bench/pdgesv_lu" "${args[@]}" | tee /dev/stderr | gf)
    r2=$(LAUNCH_ENV="LD_PRELOAD=$lib" launch "$np" "$b/bench/pdgesv_lu" "${args[@]}" | tee /dev/stderr | gf)
    r3=$(launch "$np" "$b/examples/lu" "${args[@]}" | tail -1 | tee /dev/stderr | gf)
    all[ref]+="$r1 " all[ours]+="$r2 " all[lu]+="$r3 "
done 2>&1
m1=$(median ${all[ref]}) m2=$(median ${all[ours]}) m3=$(median ${all[lu]})
echo
echo "median GFLOPS: scalapack (ref BLACS) $m1 | scalapack (our BLACS) $m2 | lu $m3"
awk -v a="$m1" -v b="$m2" -v c="$m3" 'BEGIN {
    printf "ratio lu / scalapack (ref BLACS) = %.2f\n", c / a
    printf "ratio scalapack on our BLACS / on the reference BLACS = %.2f\n", b / a }'
