#!/usr/bin/env bash
# sim/check.sh - `make sim-check`: a p = 16 smoke run of `make sim` (under a
# minute).  Small sizes and a few TOPs, laid out so that every memory mode
# runs: 8 B and 64 KiB private (every element checked), 3 MiB with partially
# shared vectors (the first element checked), 4 MiB with the library's
# buffers shared too (the broadcasts' first element checked, sums not).  Then:
#   - determinism: the same run again gives a byte-identical CSV;
#   - a corrupted element makes simbench print VERIFY FAILED and fail;
#   - the analysis writes its table and plots;
#   - nodes: p = 32 on sim/nodes16.xml, placed round robin (2 processes per
#     host), no BLACS_MODEL, the MPI collectives of three selectors, and
#     make sim-nodes' summary (sim/nodes-table.sh) keeps the fastest;
#   - blacs-tune on two hosts of sim/nodes16.xml finds the platform's alpha
#     and beta, and a grid reads its file (the set-up times are printed).
set -euo pipefail
cd "$(dirname "$0")/.."
export SIM_SIZES=8,64K,3M,4M SIM_TOPS=_IS1H SIM_PRIVATE_MAX=16M SIM_SHARED_ABOVE=56M SIM_REF=
. sim/common.sh

fail() { echo "sim-check: FAILED: $*" >&2; exit 1; }
[ -x "$BUILD/sim/simbench" ] || fail "$BUILD/sim/simbench is missing"
work=$BUILD/sim/check
rm -rf "$work"
mkdir -p "$work/a" "$work/b" "$work/fault" "$work/nodes"
t0=$SECONDS

sim_run "$work/a/ours-p16" 16 "$BUILD/sim/simbench" --mpi yes || fail "the smoke run"
sim_run "$work/b/ours-p16" 16 "$BUILD/sim/simbench" --mpi yes || fail "the second run"

# 4 sizes x 3 operations x (5 TOPs + MPI)
rows=$(($(wc -l <"$work/a/ours-p16.csv") - 1))
[ "$rows" = 72 ] || fail "expected 72 measurements, got $rows"
awk -F, 'NR > 1 && !($6 > 0) { bad = 1 } END { exit bad }' "$work/a/ours-p16.csv" ||
    fail "a time is not positive"
# what was checked, by size: 8 B and 64 KiB all, 3 MiB first, 4 MiB first (bcast) or none (sums)
awk -F, 'NR > 1 {
    want = $5 <= 65536 ? "all" : $5 == 3145728 ? "first" : $2 == "bcast" ? "first" : "none"
    if ($7 != want) { print "sim-check: " $0 ": check should be " want; bad = 1 } }
    END { exit bad }' "$work/a/ours-p16.csv" || fail "check column"
cmp -s "$work/a/ours-p16.csv" "$work/b/ours-p16.csv" ||
    { diff "$work/a/ours-p16.csv" "$work/b/ours-p16.csv" | head >&2; fail "two identical simulations gave different times"; }
echo "sim-check: determinism: two runs, $rows identical times"

SIM_SIZES=64K SIM_TOPS=_ SIM_OPS=bcast
if sim_run "$work/fault/ours-p16" 16 "$BUILD/sim/simbench" --mpi no --inject-fault 2>/dev/null; then
    fail "an injected fault went unnoticed"
fi
grep -q "VERIFY FAILED" "$work/fault/ours-p16.log" || fail "no VERIFY FAILED for an injected fault"
echo "sim-check: an injected fault is caught"

bash sim/analyze.sh "$work/a" >/dev/null
grep -q "^| 16 | reduce | 'H' | 4194304 | none |" "$work/a/table.md" || fail "table.md lacks a row"
[ "$(ls "$work"/a/*.png | wc -l)" = 12 ] || fail "expected 12 plots"
echo "sim-check: analysis: $work/a/table.md and 12 plots"
# the hostfiles of both placements
(SIM_PLATFORM=nodes16 SIM_PLACE=node && sim_platform && hostfile "$work/nodes" 40 >/dev/null) &&
    [ "$(sort "$work/nodes/hostfile" | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "node-0:16 node-1:16 node-2:8 " ] ||
    fail "placement by node"
(SIM_PLATFORM=nodes16 SIM_PLACE=rr && sim_platform && hostfile "$work/nodes" 40 >/dev/null) &&
    [ "$(sed -n '1p;16p;17p;40p' "$work/nodes/hostfile" | tr '\n' ' ')" = "node-0 node-15 node-0 node-7 " ] ||
    fail "round-robin placement"
rm -f "$work/nodes/hostfile"
# shellcheck disable=SC2034 # read by sim_platform, sim_campaign and sim_run
SIM_PLATFORM=nodes16 SIM_PLACE=rr SIM_P=32 SIM_SIZES=8,64K SIM_TOPS=_I SIM_OPS=bcast,reduce
sim_platform
[ -z "${BLACS_MODEL+set}" ] || fail "BLACS_MODEL is set on a node platform"
sim_campaign "$work/nodes/nodes16-rr" "make sim-check, nodes" >/dev/null || fail "the nodes16 run"
for f in ours mpi-mpich mpi-mvapich2; do
    [ -s "$work/nodes/nodes16-rr/$f-p32.csv" ] || fail "no $f-p32.csv"
done
grep -q "^model: *BLACS_MODEL=(unset)" "$work/nodes/nodes16-rr/meta.txt" || fail "meta.txt: a model on nodes16"
bash sim/nodes-table.sh "$work/nodes" >/dev/null
# the reference is the fastest selector: every MPI time of the three simulations, per op and size
awk -F, 'FILENAME ~ /ratios/ { if (FNR > 1) { k = $3 SUBSEP $6; best[k] = $8 + 0; n++ } next }
    $1 ~ /^mpi-/ { k = $2 SUBSEP $5; if (!(k in m) || $6 + 0 < m[k]) m[k] = $6 + 0 }
    END { for (k in best) if (best[k] != sprintf("%.6f", m[k]) + 0) { print "sim-check: best MPI " best[k] " != " m[k]; bad = 1 }
          exit bad || n != 8 }' "$work"/nodes/nodes16-rr/*.csv "$work/nodes/ratios.csv" || fail "ratios.csv: the best MPI"
grep -q "^| 'I' |" "$work/nodes/table.md" || fail "nodes table.md lacks a row"
# a run of one selector writes its MPI rows as plain "mpi": the table names
# them as meta.txt does (here mpich), not ompi
mkdir -p "$work/one/nodes16-rr"
sed 's/^mpi-ompi,/mpi,/' "$work/nodes/nodes16-rr/ours-p32.csv" >"$work/one/nodes16-rr/ours-p32.csv"
sed 's/^selectors:.*/selectors: mpich (MPI reference: the fastest)/' "$work/nodes/nodes16-rr/meta.txt" \
    >"$work/one/nodes16-rr/meta.txt"
bash sim/nodes-table.sh "$work/one" >/dev/null
[ "$(awk -F, 'FNR > 1 { print $9 }' "$work/one/ratios.csv" | sort -u)" = mpich ] ||
    fail "nodes table: a run of one selector, mpich, is not labelled so"
echo "sim-check: nodes16, round robin, p = 32: three selectors, $work/nodes/table.md"
# blacs-tune on nodes16 (two hosts, by node): the platform's own values
# (sim/nodes16.xml: 12.5 GB/s and 1 us between hosts, a loopback of 20 GB/s);
# a grid that reads its file measures nothing
mkdir -p "$work/tune"
SIM_PLACE=node
sim_platform
hf=$(hostfile "$work/tune" 32)
"$SMPIRUN" -quiet -np 32 -platform "$PLATFORM" -hostfile "$hf" "${SIM_CFG[@]}" "$BUILD/sim/blacs-tune" \
    -o "$work/tune/model" 2>"$work/tune/log" || { cat "$work/tune/log" >&2; fail "blacs-tune"; }
for v in net.alpha=1e-06 net.beta=8e-11 node.beta=5e-11 net.window=1; do
    grep -qx "$v" "$work/tune/model" || { cat "$work/tune/model" >&2; fail "blacs-tune: no $v"; }
done
took=()
for f in "" "$work/tune/model"; do
    BLACS_MODEL_FILE=$f "$SMPIRUN" -quiet -np 32 -platform "$PLATFORM" -hostfile "$hf" "${SIM_CFG[@]}" \
        "$BUILD/sim/simbench" --sizes 8 --tops _ --ops bcast --mpi no >/dev/null 2>"$work/tune/init.log" ||
        fail "simbench after blacs-tune"
    took[${#took[@]}]=$(sed -n 's/^simbench: Cblacs_gridinit took \([0-9.]*\) us.*/\1/p' "$work/tune/init.log")
done
echo "sim-check: blacs-tune found nodes16's alpha and beta; Cblacs_gridinit on 32 processes: ${took[0]} us measuring, ${took[1]} us with its file"
# every algorithm forced on random platforms (sim/sweep.sh), short: two
# platforms of 16 to 32 processes (by node and round robin), the default
# and two forced runs each, no deadlock and no wrong element
SIM_SWEEP_SEEDS="104 105" SIM_SWEEP_PMAX=32 SIM_SWEEP_FORCED=2 SIM_SWEEP_TOPS=_IS SIM_SWEEP_OUT="$work/sweep" \
    bash sim/sweep.sh >"$work/sweep.log" 2>&1 || { cat "$work/sweep.log" >&2; fail "the sweep"; }
[ "$(grep -c '| ok |' "$work/sweep/summary.md")" = 2 ] || fail "the sweep: expected 2 platforms"
# and it catches a deadlock (the last process waits for a message no one sends)
if SIM_SWEEP_SEEDS=104 SIM_SWEEP_PMAX=32 SIM_SWEEP_FORCED=0 SIM_SWEEP_TOPS=_ SIM_SWEEP_ARGS=--inject-hang \
    SIM_SWEEP_OUT="$work/sweep-hang" bash sim/sweep.sh >"$work/sweep-hang.log" 2>&1; then
    fail "an injected deadlock went unnoticed"
fi
grep -q ": DEADLOCK |" "$work/sweep-hang/summary.md" || fail "the injected deadlock is not reported as one"
echo "sim-check: $(tail -1 "$work/sweep.log")"
# ' ' against MPI's three selectors on a random platform (sim/sweep-times.sh),
# short: 16 to 32 processes, 8 B and 64 KiB; every cell a ratio
SIM_TIMES_SEEDS=104 SIM_TIMES_PMIN=16 SIM_TIMES_PMAX=32 SIM_TIMES_SIZES=8,64K SIM_TIMES_OUT="$work/times" \
    bash sim/sweep-times.sh >"$work/times.log" 2>&1 || { cat "$work/times.log" >&2; fail "sweep-times"; }
[ "$(awk -F, '$1 == 104 && $7 > 0 && ($8 == "ok" || $8 == "MISS")' "$work/times/cells.csv" | wc -l)" = 6 ] &&
    grep -q '^| 104 | nodes=' "$work/times/summary.md" || { cat "$work/times.log" >&2; fail "sweep-times: expected 6 cells"; }
echo "sim-check: sweep-times: $(grep '^| 104 ' "$work/times/summary.md" | cut -d'|' -f4-7)"
echo "sim-check: all passed in $((SECONDS - t0)) s"
