#!/usr/bin/env bash
# bench/check.sh - `make bench-check`: tests of the benchmark suite (< 1 min).
#
#   1. the analysis' fits and LAWN's RE on synthetic data with known answers
#   2. every series, tiny sizes, 2 and 4 processes, this library and the
#      reference BLACS (+ raw MPI): exit 0 with every data check passing,
#      and the CSV complete; row/column scopes on 3 and 4 processes
#   3. the checks can fail: with --inject-fault (rank 0 corrupts what it
#      sends, the barrier skips synchronizing) every series must exit
#      non-zero with "VERIFY FAILED"
#   4. analyze on the tiny run: summary.md with its tables, every PNG
#   5. analyze's numbers on synthetic data with known fits, RE and ratios
#   6. make app-compare's parsing (bench/app_compare.py selftest): the
#      ScaLAPACK drivers' result lines, their failures, the report's numbers
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
bin=$BUILD/bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
t0=$SECONDS
. bench/common.sh
need blacsbench blacsbench-ref
analyze() { python3 bench/analyze.py "$@"; }

ok() { passed=$((passed + 1)); printf '  ok    %s\n' "$1"; }
bad() {
    failed=$((failed + 1))
    printf '  FAIL  %s\n' "$1"
    [ -n "${2:-}" ] && [ -f "$2" ] && tail -15 "$2" | sed 's/^/        | /'
}
mpi() { # NP PROGRAM ARGS... (output to $tmp/out; each process's own, in
    # the runs that end by MPI_Abort too: launcher_direct)
    local np=$1 st
    shift
    launcher_cmd "$np"
    launcher_direct "$tmp/ranks"
    timeout -k 5 120 "${LAUNCH_CMD[@]}" "$@" >"$tmp/out" 2>&1
    st=$?
    launcher_collect "$tmp/ranks" "$tmp/out" "$tmp/out"
    return $st
}
# lacks FILE WANT...: prints the WANTs that FILE does not contain
lacks() {
    local f=$1 w
    shift
    for w; do grep -qF -- "$w" "$f" 2>/dev/null || printf ' [%s]' "$w"; done
}

ALL=$("$bin/blacsbench" --list-series | tr '\n' ' ')
TINY=(--sizes 8,200,4K,64K --trials 1 --re-trials 2 --reps 2 --daxpy 100 --quiet)

echo "bench-check: 1. least-squares fits and RE on known data"
# One curve per case (op), N in doubles:
#   exact     T = 212 + 0.2049 N, N = 0..50000 every 1000 (LAWN's range)
#   negalpha  T = -159 + 1.4787 N (a negative alpha is a legal answer)
#   hand      N = 0,0,2,2,2, T = 1,3,5,7,9: mean N 1.2, mean T 5, Sxx 4.8, Sxy 12,
#             so beta 2.5, alpha 2; RE from N = 2 only (N = 0 never counts): 4/7
#   re        N = 0 x4 (wide spread, never counts), 1000 x3 (10,12,11: 18.2%),
#             5000 x4 (100,100,100,104: 4/101): RE uses the largest sets, 4.0
#   same      one N three times: no line, RE 0.0
fit=$tmp/fit
mkdir -p "$fit"
awk 'BEGIN {
    print "impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us"
    row = "ours,tc,%s,-,2,1x2,%d,1,%d,%.6f,\n"
    for (i = 0; i <= 50; i++) printf row, "exact", 8000 * i, 1, 212 + 0.2049 * 1000 * i
    for (i = 1; i <= 50; i++) printf row, "negalpha", 8000 * i, 1, -159 + 1.4787 * 1000 * i
    split("0 0 2 2 2", hx, " "); split("1 3 5 7 9", hy, " ")
    for (i = 1; i <= 5; i++) printf row, "hand", 8 * hx[i], i, hy[i]
    split("0 0 0 0 1000 1000 1000 2000 3000 5000 5000 5000 5000", rn, " ")
    split("1 50 9 30 10 12 11 20 30 100 100 100 104", rt, " ")
    for (i = 1; i <= 13; i++) printf row, "re", 8 * rn[i], i, rt[i]
    for (i = 1; i <= 3; i++) printf row, "same", 64, i, 7 }' >"$fit/fit.csv"
want=("| ours | exact | - | 2 | 1x2 | 212 | 0.2049 | - | 51 |" "| ours | negalpha | - | 2 | 1x2 | -159 | 1.479 | - | 50 |"
      "| ours | hand | - | 2 | 1x2 | 2 | 2.5 | 57.1 | 5 |" "| ours | re | - | 2 | 1x2 | 8.02 | 0.01688 | 4.0 | 13 |"
      "| ours | same | - | 2 | 1x2 | - | - | 0.0 | 3 |")
if analyze "$fit" --no-plots >"$tmp/out" 2>&1; then
    missing=$(lacks "$fit/summary.md" "${want[@]}")
    if [ -z "$missing" ]; then ok "alpha, beta and RE of 5 known cases"; else bad "fit table lacks:$missing" "$fit/summary.md"; fi
    # the comparison itself must catch a wrong answer (beta 0.2048)
    if [ -n "$(lacks "$fit/summary.md" "${want[0]/0.2049/0.2048}")" ]; then ok "a wrong expected value is caught"
    else bad "a wrong expected value went unnoticed"; fi
else
    bad "analyze on the known cases" "$tmp/out"
fi

echo "bench-check: 2. every series on tiny sizes, data verified"
run=$tmp/run
mkdir -p "$run"
for np in 2 4; do
    for impl in ours ref; do
        exe=$bin/blacsbench
        extra=(--mpi yes)
        [ $impl = ref ] && exe=$bin/blacsbench-ref && extra=(--mpi no)
        csv=$run/$impl-np$np.csv
        if mpi "$np" "$exe" "${TINY[@]}" "${extra[@]}" --csv "$csv"; then
            cp "$tmp/out" "$run/$impl-np$np.log"
            # every series has rows, except those that cannot run here
            missing=""
            for s in $ALL; do
                case "$np/$s" in 2/contention | 2/transpose) continue ;; esac
                # uop compares two BLACS routines, one of them this library's own
                [ $impl = ref ] && [ $s = uop ] && continue
                grep -q "^$impl,$s," "$csv" || missing+=" $s"
                [ $impl = ours ] && [ $s != tm ] && [ $s != uop ] && ! grep -q "^mpi,$s," "$csv" && missing+=" mpi:$s"
            done
            # every row: 11 fields, a non-negative time
            badrows=$(awk -F, 'NR > 1 && (NF != 11 || $10 !~ /^[0-9.]+$/)' "$csv" | wc -l)
            if [ -z "$missing" ] && [ "$badrows" = 0 ]; then
                ok "$impl, np=$np: $(($(wc -l <"$csv") - 1)) rows, all series verified"
            else
                bad "$impl, np=$np: missing series:${missing:- none}; malformed rows: $badrows"
            fi
        else
            bad "$impl, np=$np: exit status $?" "$tmp/out"
        fi
    done
done
# Broadcast and combine on process rows (1 x 3: a row of 3) and columns (2 x 2).
if mpi 3 "$bin/blacsbench" "${TINY[@]}" --series bcast,comb,guard,shift --scope R --csv "$tmp/scope.csv" &&
    mpi 4 "$bin/blacsbench" "${TINY[@]}" --series bcast,comb --scope C --csv "$tmp/scope.csv" &&
    grep -q ",bcast,row,.*,3,1x3," "$tmp/scope.csv" && grep -q ",comb,reduce_col,.*,4,2x2," "$tmp/scope.csv"; then
    ok "scopes Row (np=3, grid 1x3) and Column (np=4, grid 2x2)"
else
    bad "scopes Row and Column" "$tmp/out"
fi

# BLACS_SET 11-14 (rings of M, branches of T) applied by --set, both libraries, data verified.
setok=1
for exe in blacsbench blacsbench-ref; do
    mpi 4 "$bin/$exe" "${TINY[@]}" --series bcast,comb --tops MT --set 11=2,12=3,13=-2,14=2 --mpi no \
        --csv "$tmp/set-$exe.csv" && grep -q ",bcast,.*,M,4,1x4," "$tmp/set-$exe.csv" || setok=0
done
if [ $setok = 1 ]; then ok "--set 11=2,12=3,13=-2,14=2 with TOPs M and T (ours and ref, np=4)"; else bad "--set" "$tmp/out"; fi
if ! mpi 2 "$bin/blacsbench" --set 15=1 --csv "$tmp/bad.csv" && grep -q "bad --set '15=1'" "$tmp/out"; then
    ok "--set 15=1 refused with a message"
else
    bad "--set 15=1 was not refused" "$tmp/out"
fi

echo "bench-check: 3. wrong data must fail the run"
for s in $ALL; do
    [ "$s" = tm ] && continue # T_m moves no data between processes
    variants=(no)
    case $s in echo | guard | comb) variants+=(only) ;; esac # the raw MPI checks too, sampled
    for m in "${variants[@]}"; do
        name="$s (--inject-fault, $([ $m = no ] && echo BLACS || echo MPI), np=4)"
        mpi 4 "$bin/blacsbench" --series "$s" --sizes 64 --trials 1 --reps 2 --daxpy 100 --mpi "$m" \
            --quiet --inject-fault --csv "$tmp/inject.csv"
        st=$?
        if [ $st -ne 0 ] && [ $st -ne 124 ] && grep -q "VERIFY FAILED" "$tmp/out"; then
            ok "$name: exit $st, $(grep -o 'VERIFY FAILED: .* wrong values' "$tmp/out" | head -1 | sed 's/.*: //')"
        else
            bad "$name: exit status $st, expected a verification failure" "$tmp/out"
        fi
    done
done

echo "bench-check: 4. analysis of the tiny run"
if analyze "$run" >"$tmp/out" 2>&1; then
    ok "analyze exits 0"
else
    bad "analyze" "$tmp/out"
fi
sum=$run/summary.md
missing=$(lacks "$sum" "## Key numbers" "### T_c (one-way" "### Broadcast: source and maximum" "### Combine: DGSUM2D" \
    "## Least-squares fits" "### tc" "### bcast" "### comb" "### overlap" "### transpose" "## Ratios ours/ref" \
    "## Ratios ours/mpi" "#### bcast all, np=4, grid 1x4: ours/ref" "#### echo, np=4, grid 1x4: ours/mpi" \
    "| 4 | ' ' | 64 KiB |" "skipped (the grid is not square")
if [ -s "$sum" ] && [ -z "$missing" ]; then ok "summary.md: key, fit and ratio tables"; else bad "summary.md lacks:$missing"; fi
missing=""
for np in 2 4; do
    for p in tc ts bcast bcast1 comb comet ratio-ref ratio-mpi; do
        f=$run/$p-np$np.png
        [ -s "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = PNG ] || missing+=" $p-np$np.png"
    done
done
if [ -z "$missing" ]; then ok "16 PNG plots"; else bad "plots missing or not PNG:$missing" "$run/plots/gnuplot.log"; fi

echo "bench-check: 5. analysis numbers on synthetic data"
# tc on 2 processes: ours = 1 + N, ref = 2 + 2N, mpi = 0.5 + 0.5N (us, N
# doubles).  Sizes 0 and 5 (N = 1 and 8192) repeated three times, 20%
# spread around the line (symmetric, so the fits stay exact): RE = 20.0.
syn=$tmp/syn
mkdir -p "$syn"
awk 'BEGIN {
    print "impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us"
    split("1 1000 2000 3000 4000 8192", N, " ")
    split("ours ref mpi", I, " "); a["ours"] = 1; a["ref"] = 2; a["mpi"] = 0.5
    for (k = 1; k <= 3; k++) for (i = 1; i <= 6; i++) {
        impl = I[k]; t = a[impl] * (1 + N[i]); rep = (impl != "mpi" && (i == 1 || i == 6))
        for (d = -rep; d <= rep; d++)
            printf "%s,tc,tc,-,2,1x2,%d,10,%d,%.6f,\n", impl, 8 * N[i], d + 2, t * (1 + 0.1 * d)
    } }' >"$syn/synthetic.csv"
if analyze "$syn" >"$tmp/out" 2>&1; then
    missing=$(lacks "$syn/summary.md" "| ours | tc | - | 2 | 1x2 | 1 | 1 | 20.0 | 10 |" \
        "| ref | tc | - | 2 | 1x2 | 2 | 2 | 20.0 | 10 |" "| mpi | tc | - | 2 | 1x2 | 0.5 | 0.5 | - | 6 |" \
        "| 2 | 8 B | 2.00 | 4.00 | 1.00 | 0.50 | 2.00 | 0.50 |" "| 8000 B | 0.50 |" "| 8000 B | 2.00 |" "| 64 KiB | 0.50 |")
    for png in tc-np2 ratio-ref-np2 ratio-mpi-np2; do # a run of one series plots too
        [ -s "$syn/$png.png" ] || missing+=" $png.png"
    done
    # ... and its key table has no empty sections for series it did not run
    grep -q "### Broadcast\|### Combine" "$syn/summary.md" && missing+=" [no empty bcast/comb key tables]"
    if [ -z "$missing" ]; then ok "fits, RE, key table, ratios match the known answers; plots of a partial run"
    else bad "synthetic run lacks:$missing" "$syn/summary.md"; fi
else
    bad "analyze on synthetic data" "$tmp/out"
fi

# The sender's verdicts: bcast on 2 processes, 9 trials a size, the
# reference 10, 11, ..., 18 us at every size; ours at 64 KiB twice that
# (slower), at 256 KiB the same trials (same), at 1 MiB half (faster); at
# 8 KiB nothing (below 64 KiB).  The source's time is what counts: at
# 256 KiB ours' slowest process is twice the reference's (max: slower).
ver=$tmp/ver
mkdir -p "$ver"
awk 'BEGIN {
    print "impl,series,op,top,np,grid,bytes,reps,trial,t_us,t_src_us"
    split("8192 65536 262144 1048576", B, " "); split("2 2 1 0.5", F, " ")
    for (i = 1; i <= 4; i++) for (k = 1; k <= 9; k++) {
        r = 9 + k; o = r * F[i]
        printf "ref,bcast,all,_,2,1x2,%d,10,%d,%g,%g\n", B[i], k, r, r
        printf "ours,bcast,all,_,2,1x2,%d,10,%d,%g,%g\n", B[i], k, (i == 3 ? 2 * r : o), o
    } }' >"$ver/synthetic.csv"
if analyze "$ver" --no-plots >"$tmp/out" 2>&1; then
    missing=
    for want in "65536,sender,2.0000,.*,slower" "65536,max,2.0000,.*,slower" "262144,sender,1.0000,.*,same" \
        "262144,max,2.0000,.*,slower" "1048576,sender,0.5000,.*,faster" "1048576,max,0.5000,.*,faster"; do
        grep -q "^bcast,2,_,$want\$" "$ver/verdicts.csv" || missing+=" [$want]"
    done
    grep -q ",8192," "$ver/verdicts.csv" && missing+=" [no cell below 64 KiB]"
    missing+=$(lacks "$ver/summary.md" "| bcast | 2 | sender | 3 | 1 | 1 | 1 | 1.00 | 1.00 |" \
        "| bcast | 2 | ' ' | 64 KiB | sender | 2.00 | ")
    missing+=$(lacks "$tmp/out" "6 cells from 64 KiB: 2 faster, 1 within the noise, 3 slower")
    if [ -z "$missing" ]; then ok "sender verdicts: slower, same and faster found; nothing below 64 KiB"
    else bad "sender verdicts lack:$missing" "$ver/verdicts.csv"; fi
else
    bad "analyze on synthetic sender data" "$tmp/out"
fi

echo "bench-check: 6. make app-compare's parsing and analysis on the drivers' printed formats"
if python3 bench/app_compare.py selftest >"$tmp/out" 2>&1; then
    ok "app_compare.py selftest: $(grep -c '^  ok' "$tmp/out") checks"
else
    bad "app_compare.py selftest" "$tmp/out"
fi

echo "bench-check: $passed passed, $failed failed ($((SECONDS - t0)) s)"
[ $failed -eq 0 ]
