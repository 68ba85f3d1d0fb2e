#!/usr/bin/env bash
# sim/lu-check.sh - make sim-check's part for make sim-lu (a few seconds):
# the simulated LU (build/sim/lu) on 16 processes of the flat cluster,
# N = 1024, through sim/lu.sh and sim/lu-table.sh, and what is guaranteed:
#   - every run completes with its line, "not checked (simulated)", time > 0;
#   - determinism: the same run twice gives the same time to the last digit;
#   - the BLAS are charged: no run beats p x the core's DGEMM rate (every
#     flop of the LU is charged at that rate or slower), also with the rate
#     halved through SIM_LU_GFLOPS (so the option reaches the processes);
#   - the table has a row per row TOP.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
fail() { echo "sim-check: lu: FAILED: $*" >&2; exit 1; }
[ -x "$BUILD/sim/lu" ] || fail "$BUILD/sim/lu is missing"
work=$BUILD/sim/check/lu
rm -rf "$work"
mkdir -p "$work"
t0=$SECONDS
common=(SIM_LU_P=16 SIM_LU_PLATFORMS=flat SIM_LU_N=1024 SIM_LU_NB=64 SIM_LU_COL_TOPS=_ SIM_LU_OUT="$work/a")
env "${common[@]}" SIM_LU_ROW_TOPS=_IN SIM_LU_LOOKAHEAD="0 1" bash sim/lu.sh >/dev/null || fail "the runs"
env "${common[@]}" SIM_LU_ROW_TOPS=_ SIM_LU_LOOKAHEAD=1 SIM_LU_OUT="$work/b" bash sim/lu.sh >/dev/null ||
    fail "the second run"
env "${common[@]}" SIM_LU_ROW_TOPS=_ SIM_LU_LOOKAHEAD=1 SIM_LU_OUT="$work/slow" SIM_LU_GFLOPS=21 bash sim/lu.sh >/dev/null ||
    fail "the run at half the rate"
csv=$work/a/runs.csv
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" = 6 ] || fail "expected 6 runs, got $rows"
# columns: ... 11 gflops_core, 13 time_s, 14 gflops, 15 peak_frac
for f in "$csv" "$work/slow/runs.csv"; do
    awk -F, 'NR > 1 && !($13 > 0 && $14 > 0 && $14 <= 16 * $11) { print "sim-check: lu: " $0; bad = 1 }
        END { exit bad }' "$f" || fail "a time is not positive or beats the peak ($f)"
done
a=$(awk -F, '$7 == "_" && $9 == 1 { print $13 }' "$csv")
b=$(awk -F, 'NR == 2 { print $13 }' "$work/b/runs.csv")
if [ -z "$a" ] || [ "$a" != "$b" ]; then fail "two identical simulations gave $a s and $b s"; fi
grep -q "^| 'N' |" "$work/a/table.md" || fail "table.md lacks row TOP 'N'"
echo "sim-check: lu: 16 processes, N = 1024: 8 runs, $rows in the table, deterministic ($a s), under the peak, $((SECONDS - t0)) s"
