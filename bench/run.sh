#!/usr/bin/env bash
# bench/run.sh - `make bench`: this library and raw MPI, on each process
# count of NPROCS, every series; then the analysis.  Results go to
# results/<date-time>/ (results/latest points at the newest run):
#
#   ours-npN.csv  the measurements     ours-npN.log  the progress log
#   meta.txt      how the run was made summary.md, *.png, data/, plots/
#
# Options from the environment (or make variables):
#   NPROCS="2 4"  SERIES=all  SIZES=8,1K,16K,64K,256K,1M,8M  LAWN=1 (LAWN 73's
#   0..50000 doubles every 1000, instead of SIZES)  TOPS=_ISH1F  TRIALS=3
#   RE_TRIALS=10  REPS=auto  TARGET_MS=10  DAXPY=10000,1000000  SCOPE=A
#   GRID=PxQ  RESULTS=results  BENCH_ARGS="further blacsbench options"
#   MPIRUN=mpirun  BUILD=build
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh
need blacsbench

out=$(new_run_dir)
write_meta "$out" "make bench (bench/run.sh): ours + raw MPI"
echo "bench: results in $out (processes: $NPROCS; ${#SIZE_ARGS[@]} size options; series $SERIES)"

t0=$SECONDS
for np in $NPROCS; do
    echo "== $np processes"
    run_bench "$np" "$BUILD/bench/blacsbench" "$out/ours-np$np" --series "$SERIES" --mpi yes \
        --trials "$TRIALS" --re-trials "$RE_TRIALS"
done
echo "bench: measured in $((SECONDS - t0)) s"

analyze_run "$out"
