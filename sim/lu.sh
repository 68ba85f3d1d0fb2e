#!/usr/bin/env bash
# sim/lu.sh - `make sim-lu`: bench/hpl_lu.c (the HPL-style LU) at scale under SMPI, its BLAS
# replaced by their simulated time (sim/lu_simblas.h), for every platform,
# process count, row TOP, column TOP and look-ahead asked.  One simulation
# per combination, one after another; each adds a row to runs.csv.  See
# sim/README.md, "The LU at scale".
#
# Options (environment; make passes them on):
#   SIM_LU_P="256"                process counts; the grid is the squarest P x Q, P <= Q
#   SIM_LU_PLATFORMS="flat nodes16"   flat (sim/cluster.xml), nodes16, nodes64; a
#                                 platform with too few cores for p is skipped
#   SIM_LU_PLACE=node             ranks on a node platform's hosts (node or rr)
#   SIM_LU_N=                     the order; default 1024 x sqrt(p), rounded down to
#                                 a multiple of NB: every process holds about 1024 x 1024
#   SIM_LU_NB=64
#   SIM_LU_ROW_TOPS=_ISMNW        lu's --row-top letters ('_' = the blank TOP)
#   SIM_LU_COL_TOPS=_             lu's --col-top letters
#   SIM_LU_LOOKAHEAD="0 1"
#   SIM_LU_PIVOT=fused            or scalapack
#   SIM_LU_GFLOPS=42 SIM_LU_GBPS=60   one core's DGEMM rate and memory rate
#                                 (defaults: sim/lu_simblas.h, measured by sim/lu_rates.c)
#   SIM_LU_OUT=                   the folder (default results/sim-lu-<date-time>); runs
#                                 add to its runs.csv, so several calls can fill one table
#   SIM_MODEL                     as for make sim (flat: its cost model; nodes: none)
set -euo pipefail
cd "$(dirname "$0")/.."
SIM_LU_P=${SIM_LU_P:-256}
SIM_LU_PLATFORMS=${SIM_LU_PLATFORMS:-flat nodes16}
SIM_LU_PLACE=${SIM_LU_PLACE:-node}
SIM_LU_N=${SIM_LU_N:-}
SIM_LU_NB=${SIM_LU_NB:-64}
SIM_LU_ROW_TOPS=${SIM_LU_ROW_TOPS:-_ISMNW}
SIM_LU_COL_TOPS=${SIM_LU_COL_TOPS:-_}
SIM_LU_LOOKAHEAD=${SIM_LU_LOOKAHEAD:-0 1}
SIM_LU_PIVOT=${SIM_LU_PIVOT:-fused}
SIM_LU_GFLOPS=${SIM_LU_GFLOPS:-42}
SIM_LU_GBPS=${SIM_LU_GBPS:-60}
export LU_SIM_GFLOPS=$SIM_LU_GFLOPS LU_SIM_GBPS=$SIM_LU_GBPS
. sim/common.sh
# MPI_Test and MPI_Iprobe cost 100 ns, as in every make sim run
# (sim/common.sh's SIM_CFG): at SMPI's default (0.1 ms, growing with
# repeated failures) every row swap cost 0.2 ms or more, the library's sends
# polling for a receiver's ready note (blacs/p2p.c): 16 processes, N = 1024,
# 128 ms instead of 5.7; 10 ns or 1 ns changed the time by under 1% (p = 16,
# N = 2048).
# network/optim:Full only makes the simulation faster (most of its time went
# into re-solving the bandwidth sharing): on 64 processes, N = 8192, 22 s
# instead of 35-44, the LU's time 0.04% lower.  (cpu/optim:TI saved another
# 5% but aborts SimGrid 3.32 with "Invalid user bound" on row TOP 'N'.)
SIM_LU_CFG=(--cfg=network/optim:Full)

BIN=$BUILD/sim/lu
[ -x "$BIN" ] || sim_die "$BIN is missing (make $BIN)"
OUT=${SIM_LU_OUT:-$RESULTS/sim-lu-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/logs"
CSV=$OUT/runs.csv
[ -s "$CSV" ] ||
    echo "platform,place,p,grid,n,nb,row_top,col_top,lookahead,pivot,gflops_core,gbps_core,time_s,gflops,peak_frac,wall_s,rss_gib" >"$CSV"
{
    echo "make sim-lu"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:      $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "simgrid:   $($SMPIRUN -version 2>/dev/null | head -1)"
    echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
    echo "p:         $SIM_LU_P on $SIM_LU_PLATFORMS (placement $SIM_LU_PLACE)"
    echo "lu:        N ${SIM_LU_N:-1024 sqrt(p)} NB $SIM_LU_NB row TOPs $SIM_LU_ROW_TOPS col TOPs $SIM_LU_COL_TOPS look-ahead $SIM_LU_LOOKAHEAD pivot $SIM_LU_PIVOT"
    echo "core:      DGEMM/DTRSM $SIM_LU_GFLOPS GFLOP/s, level 1-2 $SIM_LU_GBPS GB/s"
    echo "smpi:      ${SIM_CFG[*]} ${SIM_LU_CFG[*]}"
} >>"$OUT/meta.txt"

top_arg() { echo "$1"; } # '_': the blank TOP (smpirun would drop a ' ')

t0=$SECONDS
for platform in $SIM_LU_PLATFORMS; do
    SIM_PLATFORM=$platform SIM_PLACE=$SIM_LU_PLACE
    sim_platform
    for p in $SIM_LU_P; do
        if [ "$p" -gt $((SIM_HOSTS * SIM_CORES)) ]; then
            echo "sim-lu: p = $p does not fit $platform ($SIM_HOSTS hosts x $SIM_CORES): skipped" | tee -a "$OUT/meta.txt"
            continue
        fi
        P=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (p % r) r--; print r }')
        Q=$((p / P))
        n=${SIM_LU_N:-$(awk -v p="$P" -v q="$Q" -v nb="$SIM_LU_NB" 'BEGIN { n = 1024 * sqrt(p * q); print int(n / nb) * nb }')}
        hf=$(hostfile "$OUT" "$p")
        mv "$hf" "$OUT/hostfile-$platform-$p"
        hf=$OUT/hostfile-$platform-$p
        for la in $SIM_LU_LOOKAHEAD; do
            for ((i = 0; i < ${#SIM_LU_ROW_TOPS}; i++)); do
                rt=${SIM_LU_ROW_TOPS:i:1}
                for ((k = 0; k < ${#SIM_LU_COL_TOPS}; k++)); do
                    ct=${SIM_LU_COL_TOPS:k:1}
                    tag=$platform-$SIM_LU_PLACE-p$p-n$n-nb$SIM_LU_NB-r$rt-c$ct-la$la-$SIM_LU_PIVOT
                    log=$OUT/logs/$tag.log
                    rc=0
                    /usr/bin/time -f "%e %M" -o "$log.time" \
                        "$SMPIRUN" -quiet -np "$p" -platform "$PLATFORM" -hostfile "$hf" \
                        "${SIM_CFG[@]}" "--cfg=smpi/coll-selector:ompi" "${SIM_LU_CFG[@]}" "$BIN" \
                        --n "$n" --nb "$SIM_LU_NB" --p "$P" --q "$Q" --row-top "$(top_arg "$rt")" \
                        --col-top "$(top_arg "$ct")" --lookahead "$la" --pivot "$SIM_LU_PIVOT" >"$log" 2>&1 || rc=$?
                    read -r wall rss <"$log.time" || { wall=0; rss=0; }
                    rm -f "$log.time"
                    line=$(grep '^lu: N=' "$log" || true)
                    if [ "$rc" != 0 ] || [ -z "$line" ] || ! grep -q 'not checked (simulated)$' <<<"$line"; then
                        echo "sim-lu: $tag failed (exit $rc); see $log:" >&2
                        tail -5 "$log" >&2
                        exit 1
                    fi
                    read -r t g < <(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(time|gflops)=/) {
                        split($i, kv, "="); sub(/s$/, "", kv[2]); v[kv[1]] = kv[2] } print v["time"], v["gflops"] }' <<<"$line")
                    frac=$(awk -v g="$g" -v p="$p" -v r="$SIM_LU_GFLOPS" 'BEGIN { printf "%.3f", g / (p * r) }')
                    echo "$platform,$SIM_LU_PLACE,$p,${P}x$Q,$n,$SIM_LU_NB,$rt,$ct,$la,$SIM_LU_PIVOT,$SIM_LU_GFLOPS,$SIM_LU_GBPS,$t,$g,$frac,$wall,$(awk -v k="$rss" 'BEGIN { printf "%.2f", k / 1048576 }')" >>"$CSV"
                    printf 'sim-lu: %-40s time %9.6f s  %8.1f GFLOP/s  %.3f of peak  (%.0f s wall)\n' "$tag" "$t" "$g" "$frac" "$wall"
                done
            done
        done
    done
done
echo "sim-lu: $((SECONDS - t0)) s; $CSV" | tee -a "$OUT/meta.txt"
bash sim/lu-table.sh "$CSV" >"$OUT/table.md"
echo "sim-lu: $OUT/table.md"
