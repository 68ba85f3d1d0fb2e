#!/usr/bin/env bash
# sim/sweep.sh - every algorithm on platforms nobody tuned for: deadlock
# freedom and correctness under SMPI, whose deadlock detection is exact (the
# simulation ends, with an error, when every process waits for a message
# that no process will send).
#
# For each seed of SIM_SWEEP_SEEDS, sim/platform.sh draws a cluster of
# multi-core nodes and a process count (hosts of 1-64 processes, placed by
# node or round robin, cards, latencies and memories in wide ranges), and
# simbench runs on it, no BLACS_MODEL (the library as a user gets it):
#   - the default TOP ' ' and the letters of SIM_SWEEP_TOPS (fewer from
#     SIM_SWEEP_BIG processes up: ' ' alone);
#   - SIM_SWEEP_FORCED runs with BLACS_ALGORITHM forcing one algorithm of
#     the table for each operation: the candidates of every operation (every
#     row that provides it, with each number it takes: branches, rings, a
#     radix) taken in turn from seed to seed, so that the sweep meets them all;
# every operation (broadcast, sum to all, sum to one), sizes across the cut
# points: 8 bytes, one double a process less and more than the process count
# (where a vector can be cut among them or not), 64 KiB + 8 and 1 MiB + 8
# (pieces of the pipelines; 256 KiB + 8 from SIM_SWEEP_BIG processes up).
# simbench checks every element (sim/README.md) and ends with a marker; a
# run that deadlocks, checks a wrong element or ends early fails the sweep.
#
# Options: SIM_SWEEP_SEEDS ("1 2 ... 30"), SIM_SWEEP_PMIN/PMAX (16, 1024),
# SIM_SWEEP_TOPS (_IDSMFH1T), SIM_SWEEP_FORCED (3), SIM_SWEEP_BIG (512),
# SIM_SWEEP_OUT (results/sim-sweep-DATE), SIM_SWEEP_ARGS (more simbench
# options: sim-check passes --inject-hang once, which must be caught).
# Writes OUT/summary.md: one row a platform.
set -uo pipefail
cd "$(dirname "$0")/.."
. sim/common.sh
seeds=${SIM_SWEEP_SEEDS:-$(seq -s ' ' 1 30)}
pmin=${SIM_SWEEP_PMIN:-16} pmax=${SIM_SWEEP_PMAX:-1024}
tops=${SIM_SWEEP_TOPS:-_IDSMFH1T}
nforced=${SIM_SWEEP_FORCED:-3}
big=${SIM_SWEEP_BIG:-512}
out=${SIM_SWEEP_OUT:-$RESULTS/sim-sweep-$(date -u +%Y%m%d-%H%M%S)}
bin=$BUILD/sim/simbench
[ -x "$bin" ] || sim_die "$bin is missing (make sim-build)"
unset BLACS_MODEL BLACS_ALGORITHM
mkdir -p "$out"

# The candidates of each operation, as BLACS_ALGORITHM items (the library's
# own parser says which it takes: topo_table --forcings).
forcings() { "$BUILD/tools/topo_table" --forcings "$1" | tr '\n' ' '; }
read -r -a bcasts <<<"$(forcings bcast)"
read -r -a reduces <<<"$(forcings reduce)"
read -r -a allreduces <<<"$(forcings allreduce)"
[ ${#bcasts[@]} -gt 4 ] && [ ${#reduces[@]} -gt 4 ] && [ ${#allreduces[@]} -gt 4 ] ||
    sim_die "topo_table --forcings gave too few candidates (make $BUILD/tools/topo_table)"

# one simulation: 0 passed, else why (in $why)
run() { # DIR LABEL P TOPS SIZES [BLACS_ALGORITHM]
    local dir=$1 label=$2 p=$3 t=$4 sizes=$5 forced=${6:-} rc=0 log=$1/$2.log
    if [ -n "$forced" ]; then export BLACS_ALGORITHM=$forced; else unset BLACS_ALGORITHM; fi
    "$SMPIRUN" -quiet -np "$p" -platform "$dir/platform.xml" -hostfile "$dir/hostfile" "${SIM_CFG[@]}" \
        --cfg=smpi/coll-selector:ompi "$bin" --sizes "$sizes" --tops "$t" --ops bcast,allreduce,reduce \
        --private-max 4G --mpi no --csv "$dir/$label.csv" ${SIM_SWEEP_ARGS:-} >"$log" 2>&1 || rc=$?
    unset BLACS_ALGORITHM
    why=""
    if grep -qi "deadlock" "$log"; then
        why="DEADLOCK"
    elif grep -q "VERIFY FAILED" "$log"; then
        why="a wrong element: $(grep -m1 "VERIFY FAILED" "$log")"
    elif [ "$rc" != 0 ] || ! grep -q "^simbench: done" "$log"; then
        why="ended early (exit $rc): $(grep -m1 -iE "error|abort" "$log")"
    fi
    [ -z "$why" ]
}

echo "| seed | platform | runs | simulated | result | wall |" >"$out/summary.md"
echo "|---:|---|---:|---:|---|---:|" >>"$out/summary.md"
failed=0 k=0 t0=$SECONDS
for s in $seeds; do
    dir=$out/seed-$s
    desc=$(bash sim/platform.sh "$s" "$dir" "$pmin" "$pmax")
    p=$(sed -n 's/.* p=\([0-9]*\) .*/\1/p' "$dir/platform.txt")
    top=1048584
    [ "$p" -lt "$big" ] || top=262152
    sizes="8,$((8 * (p - 1))),$((8 * (p + 1))),65544,$top"
    t=$tops
    [ "$p" -lt "$big" ] || t=_
    t1=$SECONDS runs=0 result=ok
    if run "$dir" default "$p" "$t" "$sizes"; then runs=$((runs + 1)); else result="default: $why"; fi
    for ((j = 0; j < nforced && ${#result} == 2; j++, k++)); do
        f="${bcasts[k % ${#bcasts[@]}]},${reduces[k % ${#reduces[@]}]},${allreduces[k % ${#allreduces[@]}]}"
        if run "$dir" "forced-$j" "$p" _ "$sizes" "$f"; then runs=$((runs + 1)); else result="$f: $why"; fi
        echo "$f" >>"$dir/forced.txt"
    done
    measured=$(cat "$dir"/*.csv 2>/dev/null | grep -vc '^impl,')
    [ "$result" = ok ] || failed=$((failed + 1))
    printf '| %s | %s | %d | %d | %s | %d s |\n' "$s" "${desc#seed=* }" "$runs" "$measured" "$result" \
        $((SECONDS - t1)) | tee -a "$out/summary.md"
done
echo "sweep: $(echo "$seeds" | wc -w) platforms, $failed failed, in $((SECONDS - t0)) s; $out/summary.md"
[ "$failed" -eq 0 ]
