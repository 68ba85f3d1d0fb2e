#!/usr/bin/env bash
# bench/lu-compare.sh [TRIALS] [N] [NB] [P] [Q] - bench/hpl_lu (the HPL-style LU) against
# ScaLAPACK's own PDGESV on the same machine, grid, N, NB and BLAS, run
# alternately in one session; prints every trial, the medians and the ratios.
#   scalapack (ref BLACS): PDGESV from Debian's libscalapack-openmpi (or
#                          -mpich), with the reference BLACS inside it
#   scalapack (our BLACS): the same binary with this library preloaded
#   lu:                    bench/hpl_lu on this library (LU_ARGS: more options
#                          of lu, e.g. "--row-top N --lookahead 1")
# LU_BLAS_DIR: a folder holding another libblas.so.3 / liblapack.so.3 (e.g.
# /usr/lib/x86_64-linux-gnu/openblas-serial), put first on the library path
# of all three runs, with OPENBLAS_NUM_THREADS=1: one thread a process.
set -eu
. "$(dirname "$0")/common.sh" # launch
trials=${1:-5} n=${2:-2000} nb=${3:-64} p=${4:-2} q=${5:-2}
b=$BUILD
lib=$(readlink -f "${BLACS_LIB:?the library to preload (make lu-compare sets it)}")
np=$((p * q))
args=(--n "$n" --nb "$nb" --p "$p" --q "$q")
blas_env=""
if [ -n "${LU_BLAS_DIR:-}" ]; then
    [ -e "$LU_BLAS_DIR/libblas.so.3" ] || { echo "lu-compare: no libblas.so.3 in LU_BLAS_DIR=$LU_BLAS_DIR" >&2; exit 1; }
    blas_env="LD_LIBRARY_PATH=$LU_BLAS_DIR OPENBLAS_NUM_THREADS=1"
fi
# shellcheck disable=SC2206 # split on purpose
lu_args=(${LU_ARGS:-})
declare -A all
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
gf() { grep -Eo 'gflops=[0-9.]+' | cut -d= -f2; }
echo "N=$n NB=$nb grid=${p}x${q}, $trials trials, alternating${LU_BLAS_DIR:+, BLAS from $LU_BLAS_DIR}${LU_ARGS:+, lu $LU_ARGS}"
for t in $(seq "$trials"); do
    r1=$(LAUNCH_ENV="$blas_env" launch "$np" "$b/bench/pdgesv_lu" "${args[@]}" | tee /dev/stderr | gf)
    r2=$(LAUNCH_ENV="$blas_env LD_PRELOAD=$lib" launch "$np" "$b/bench/pdgesv_lu" "${args[@]}" | tee /dev/stderr | gf)
    r3=$(LAUNCH_ENV="$blas_env" launch "$np" "$b/bench/hpl_lu" "${args[@]}" "${lu_args[@]}" | tail -1 | tee /dev/stderr | gf)
    all[ref]+="$r1 " all[ours]+="$r2 " all[lu]+="$r3 "
done 2>&1
m1=$(median ${all[ref]}) m2=$(median ${all[ours]}) m3=$(median ${all[lu]})
echo
echo "median GFLOPS: scalapack (ref BLACS) $m1 | scalapack (our BLACS) $m2 | lu $m3"
awk -v a="$m1" -v b="$m2" -v c="$m3" 'BEGIN {
    printf "ratio lu / scalapack (ref BLACS) = %.2f\n", c / a
    printf "ratio scalapack on our BLACS / on the reference BLACS = %.2f\n", b / a }'
