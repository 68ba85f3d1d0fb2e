#!/usr/bin/env bash
# bench/compare.sh - `make bench-compare`: this library against the
# reference BLACS (Debian's ScaLAPACK), the same benchmark source built
# twice, run ALTERNATELY so that the machine's noise hits both alike:
#
#   for each process count, for round 1..TRIALS, for each series:
#       ours <series> (+ raw MPI), ref <series>      (odd rounds)
#       ref <series>, ours <series> (+ raw MPI)      (even rounds: who goes first alternates)
#
# Each run measures one trial of every size (variants alternate trial by
# trial inside it too); the sizes of index % 5 == 0 get ceil(RE_TRIALS /
# TRIALS) trials per run, so that LAWN's RE has about RE_TRIALS repeated
# points.  Raw MPI is measured in the runs of ours only.  Then the analysis.
#
# Options: those of bench/run.sh (NPROCS, SERIES, SIZES, LAWN, TOPS, TRIALS,
# RE_TRIALS, REPS, TARGET_MS, DAXPY, SCOPE, GRID, RESULTS, BENCH_ARGS).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh
need blacsbench blacsbench-ref

out=$(new_run_dir)
write_meta "$out" "make bench-compare (bench/compare.sh): ours and ref alternately, + raw MPI"
series=$("$BUILD/bench/blacsbench" --list-series --series "$SERIES" | tr '\n' ' ')
per_run=$(((RE_TRIALS + TRIALS - 1) / TRIALS))
echo "bench-compare: results in $out; processes $NPROCS; $TRIALS rounds of: $series"

t0=$SECONDS
for np in $NPROCS; do
    for ((round = 0; round < TRIALS; round++)); do
        echo "== $np processes, round $((round + 1))/$TRIALS ($((SECONDS - t0)) s)"
        for s in $series; do
            args=(--series "$s" --trials 1 --re-trials "$per_run" --round "$round" --quiet)
            ours() { run_bench "$np" "$BUILD/bench/blacsbench" "$out/ours-np$np" "${args[@]}" --mpi yes; }
            ref() { run_bench "$np" "$BUILD/bench/blacsbench-ref" "$out/ref-np$np" "${args[@]}" --mpi no; }
            if ((round % 2 == 0)); then ours && ref; else ref && ours; fi
            printf '   %-12s done (%d s)\n' "$s" $((SECONDS - t0))
        done
    done
done
echo "bench-compare: measured in $((SECONDS - t0)) s"

analyze_run "$out"
