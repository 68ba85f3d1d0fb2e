#!/usr/bin/env bash
# sim/scalapack/run.sh - `make sim-scalapack`: ScaLAPACK's own drivers under
# SMPI, linked once with ScaLAPACK's reference BLACS and once with this
# library (sim/scalapack/driver.c; sim/README.md, "ScaLAPACK at scale").
# For every platform, process count and driver asked: the reference's run,
# this library's run, (SIM_SL_STATS) this library's run again with
# BLACS_STATS, whose per-process CSV says where its BLACS time went, and
# (SIM_SL_CALLS) both runs again with each process's time inside its BLACS
# calls measured from outside either library (sim/scalapack/calls.c), and
# (SIM_SL_MPI) both runs again under SMPI's trace, whose MPI calls are
# counted as it is written.  Rows go to runs.csv; table.md gets the ratios,
# breakdown.md the statistics, calls.md the two libraries' times inside
# their calls side by side and mpi.md the MPI calls each made.
#
# Options (environment; make passes them on):
#   SIM_SL_DRIVERS="gesv potrf geqrf gemm"
#   SIM_SL_P="64 256"              process counts (the grid: the squarest P x Q, P <= Q)
#   SIM_SL_PLATFORMS="flat nodes16"   flat (sim/cluster.xml, one process a host),
#                                  nodes16, nodes64 (16 processes a host); a platform
#                                  too small for p is skipped
#   SIM_SL_PLACE=node              ranks on a node platform's hosts (node or rr)
#   SIM_SL_LOCAL=1024              each process's share: N = LOCAL x sqrt(p), rounded
#                                  down to a multiple of NB
#   SIM_SL_NB=128
#   SIM_SL_STATS=yes               the third run, with BLACS_STATS
#   SIM_SL_CALLS=no                yes: both runs again, timing every BLACS call
#   SIM_SL_MPI=no                  yes: both runs again, counting every MPI call
#   SIM_SL_GFLOPS=42 SIM_SL_GBPS=60   one core's rates (sim/lu_simblas.h)
#   SIM_SL_OUT=                    the folder (default results/sim-scalapack-<date-time>);
#                                  runs add to its runs.csv
#   SIM_SL_NET=real                latency: every bandwidth of the platform made
#                                  10^6 GB/s, its latencies kept; none: no latency
#                                  either.  What the drivers take where communication
#                                  costs only its latency, or nothing (the platform is
#                                  named PLATFORM/latency or PLATFORM/none)
#   SIM_SL_IMPLS="ref ours"        which libraries' timed runs (the simulation is
#                                  deterministic: a run already in a runs.csv of the
#                                  same ScaLAPACK need not be repeated; copy its row)
# The library runs as a user gets it: no BLACS_MODEL, no tuning file.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIM_SL_DRIVERS=${SIM_SL_DRIVERS:-gesv potrf geqrf gemm}
SIM_SL_P=${SIM_SL_P:-64 256}
SIM_SL_PLATFORMS=${SIM_SL_PLATFORMS:-flat nodes16}
SIM_SL_LOCAL=${SIM_SL_LOCAL:-1024}
SIM_SL_NB=${SIM_SL_NB:-128}
SIM_SL_STATS=${SIM_SL_STATS:-yes}
SIM_SL_CALLS=${SIM_SL_CALLS:-no}
SIM_SL_MPI=${SIM_SL_MPI:-no}
SIM_SL_IMPLS=${SIM_SL_IMPLS:-ref ours}
SIM_SL_NET=${SIM_SL_NET:-real}
case $SIM_SL_NET in
real | latency | none) ;;
*) echo "sim-scalapack: SIM_SL_NET=$SIM_SL_NET: real, latency or none" >&2; exit 2 ;;
esac
export LU_SIM_GFLOPS=${SIM_SL_GFLOPS:-42} LU_SIM_GBPS=${SIM_SL_GBPS:-60}
SIM_MODEL=none
. sim/common.sh
BIN=$BUILD/sim/scalapack
for v in ref ours; do
    [ -x "$BIN/driver-$v" ] || sim_die "$BIN/driver-$v is missing (make sim-scalapack)"
done
OUT=${SIM_SL_OUT:-$RESULTS/sim-scalapack-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/logs" "$OUT/stats"
CSV=$OUT/runs.csv
[ -s "$CSV" ] || echo "platform,place,driver,p,grid,n,nb,impl,time_s,gflops,blas_max_s,info,wall_s,cpu_s" >"$CSV"
{
    echo "make sim-scalapack"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:      $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "simgrid:   $($SMPIRUN -version 2>/dev/null | head -1)"
    echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
    echo "scalapack: $(cat "$BIN/source.txt" 2>/dev/null || echo unknown)"
    echo "smpi:      ${SIM_CFG[*]} --cfg=smpi/coll-selector:ompi --cfg=network/optim:Full"
    echo "blas:      $LU_SIM_GFLOPS GFLOP/s level 3, $LU_SIM_GBPS GB/s levels 1-2, per process"
    echo "network:   $SIM_SL_NET (SIM_SL_NET)"
} >>"$OUT/meta.txt"

# The MPI calls of SMPI's trace (Paje, read from a pipe as SMPI writes it):
# "mpi: fn=NAME calls=N" a function, "mpi: processes=P".  SMPI traces the
# calls that send, receive, wait, test and the collectives; not MPI_Iprobe,
# MPI_Cancel or the calls that only read state.
count_mpi() {
    awk '$1 == 5 { name[$2] = $4 } $1 == 6 && $6 ~ /^"rank-/ { np++ } $1 == 12 { n[$5]++ }
        END { for (v in n) printf "mpi: fn=%s calls=%d\n", (v in name ? name[v] : v), n[v]
              printf "mpi: processes=%d\n", np }' "$1"
}

# run IMPL P N -> one row of runs.csv (and its log); STATS=path adds
# BLACS_STATS, CALLS=1 the time inside each BLACS call, MPI=1 the count of
# its MPI calls (then no row)
run() {
    local impl=$1 p=$2 n=$3 hf log line wall cpu rc=0 hosts=$OUT/hosts/$SIM_PLATFORM-$SIM_PLACE-p$2 pipe='' counter=''
    local name=$SIM_PLATFORM${NET:+-$NET}
    local trace=()
    mkdir -p "$hosts" # (one a platform, placement and p: two runs into one folder may overlap)
    hf=$(hostfile "$hosts" "$p")
    log=$OUT/logs/$name-$SIM_PLACE-$drv-p$p-$impl${STATS:+-stats}${CALLS:+-calls}${MPI:+-mpi}.log
    if [ -n "${MPI:-}" ]; then
        pipe=$log.trace
        rm -f "$pipe"
        mkfifo "$pipe"
        count_mpi "$pipe" >"$log.mpi" &
        counter=$!
        trace=(-trace -trace-file "$pipe")
    fi
    env -u SIM_SL_CALLS ${STATS:+BLACS_STATS=$STATS} ${CALLS:+SIM_SL_CALLS=1} /usr/bin/time -f "%e %U %S" -o "$log.time" "$SMPIRUN" -quiet -np "$p" \
        "${trace[@]}" -platform "$PLATFORM" -hostfile "$hf" "${SIM_CFG[@]}" --cfg=smpi/coll-selector:ompi \
        --cfg=network/optim:Full "$BIN/driver-$impl" --driver "$drv" --n "$n" --nb "$SIM_SL_NB" >"$log" 2>&1 || rc=$?
    if [ -n "$pipe" ]; then
        [ "$rc" = 0 ] || kill "$counter" 2>/dev/null || true # (a run that failed may never have opened the pipe)
        wait "$counter" || true
        rm -f "$pipe"
        cat "$log.mpi" >>"$log"
        rm -f "$log.mpi"
    fi
    line=$(grep '^scalapack: ' "$log" || true)
    if [ "$rc" != 0 ] || [ -z "$line" ]; then
        echo "sim-scalapack: $drv on $p processes with $impl failed (exit $rc); $log:" >&2
        tail -5 "$log" >&2
        return 1
    fi
    read -r wall cpu < <(awk '{ print $1, $2 + $3 }' "$log.time")
    rm -f "$log.time"
    [ -n "${STATS:-}${CALLS:-}${MPI:-}" ] && return 0 # statistics, calls timed or traced: not a row
    echo "$line" | awk -v pl="$SIM_PLATFORM${NET:+/$NET}" -v place="$SIM_PLACE" -v impl="$impl" -v wall="$wall" -v cpu="$cpu" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", pl, place, v["driver"], v["p"], v["grid"], v["n"],
            v["nb"], impl, v["time_s"], v["gflops"], v["blas_max_s"], v["info"], wall, cpu }' >>"$CSV"
    local t=${line#*time_s=}
    printf '  %-8s %-6s p=%-5s n=%-6s %-5s %10.6f s simulated, %6.1f s wall\n' "$SIM_PLATFORM${NET:+/$NET}" "$drv" "$p" "$n" \
        "$impl" "${t%% *}" "$wall"
}

t0=$SECONDS
for SIM_PLATFORM in $SIM_SL_PLATFORMS; do
    SIM_PLACE=$([ "$SIM_PLATFORM" = flat ] && echo node || echo "${SIM_SL_PLACE:-node}")
    sim_platform # (with SIM_MODEL=none, set above)
    NET=''
    if [ "$SIM_SL_NET" != real ]; then # the same hosts, links that cost less
        NET=$SIM_SL_NET
        xml=$OUT/$SIM_PLATFORM-$NET.xml
        sed -E 's/(bw|limiter_link)="[^"]*"/\1="1000000GBps"/g' "$PLATFORM" >"$xml" # (bw= and every ..._bw=)
        [ "$NET" = latency ] || sed -i -E 's/lat="[^"]*"/lat="0us"/g' "$xml"
        PLATFORM=$xml
    fi
    for p in $SIM_SL_P; do
        if [ "$p" -gt $((SIM_HOSTS * SIM_CORES)) ]; then
            echo "sim-scalapack: p = $p does not fit $SIM_PLATFORM; skipped"
            continue
        fi
        n=$(awk -v p="$p" -v l="$SIM_SL_LOCAL" -v nb="$SIM_SL_NB" 'BEGIN { n = int(l * sqrt(p) / nb) * nb; print n < nb ? nb : n }')
        for drv in $SIM_SL_DRIVERS; do
            for impl in $SIM_SL_IMPLS; do
                run "$impl" "$p" "$n"
            done
            if [ "$SIM_SL_STATS" = yes ]; then
                st=$OUT/stats/$SIM_PLATFORM-$SIM_PLACE-$drv-p$p.csv
                STATS=$st run ours "$p" "$n"
            fi
            if [ "$SIM_SL_CALLS" = yes ]; then
                CALLS=1 run ref "$p" "$n"
                CALLS=1 run ours "$p" "$n"
            fi
            if [ "$SIM_SL_MPI" = yes ]; then
                MPI=1 run ref "$p" "$n"
                MPI=1 run ours "$p" "$n"
            fi
        done
    done
done
echo "sim-scalapack: simulated in $((SECONDS - t0)) s" | tee -a "$OUT/meta.txt"
bash sim/scalapack/table.sh "$OUT"
echo "sim-scalapack: $OUT/table.md"
