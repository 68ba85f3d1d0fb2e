# sim/common.sh - sourced by sim/run.sh and sim/check.sh: options, the SMPI
# command line, one simulated run.

BUILD=${BUILD:-build}
RESULTS=${RESULTS:-results}
SMPIRUN=${SMPIRUN:-smpirun}
SIM_P=${SIM_P:-"16 64 256"}
SIM_SIZES=${SIM_SIZES:-8,64K,1M,8M}
SIM_TOPS=${SIM_TOPS:-_IDSMFH123456789T}
SIM_OPS=${SIM_OPS:-bcast,allreduce,reduce}
SIM_PRIVATE_MAX=${SIM_PRIVATE_MAX:-2G}
SIM_SHARED_ABOVE=${SIM_SHARED_ABOVE:-16G}
SIM_REF=${SIM_REF:-}
PLATFORM=sim/cluster.xml
# The library's cost model of this cluster (alpha 1 us, 10 GB/s, every link
# shared by the messages in flight; no computation), read by each simulated
# grid from the environment (README: BLACS_MODEL).
export BLACS_MODEL=${BLACS_MODEL:-alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1}

# The simulation: CM02 (pure alpha-beta flows, no correction factors) with
# independent directions (no 5% of each flow charged to the reverse link for
# TCP acknowledgements), no computation (the combine arithmetic and memory
# copies cost no simulated time), Open MPI's choice of collective algorithms
# for the MPI reference times, warnings only.
SIM_CFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/simulate-computation:no
         --cfg=smpi/coll-selector:ompi --log=root.thres:warning)

bytes_of() { # 8, 64K, 1M, 2G -> bytes
    awk -v s="$1" 'BEGIN { m = 1; u = toupper(substr(s, length(s)))
        if (u == "K") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824
        if (m > 1) s = substr(s, 1, length(s) - 1)
        printf "%.0f\n", s * m }'
}

# hostfile DIR P: node-0 .. node-(P-1), the hosts of sim/cluster.xml
hostfile() {
    local f=$1/hostfile i
    : >"$f"
    for ((i = 0; i < $2; i++)); do echo "node-$i" >>"$f"; done
    echo "$f"
}

# max_pss HOSTFILE KIB: the larger of KIB and the proportional set size (KiB)
# of the simulator started with HOSTFILE.  Unlike the resident set, PSS counts
# the shared-malloc block once, not once per mapping.
max_pss() {
    local pid v
    pid=$(pgrep -f -- "smpi/hostfile:$1" | head -1)
    v=$( [ -n "$pid" ] && awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null)
    echo $(( ${v:-0} > $2 ? ${v:-0} : $2 ))
}

# sim_run OUT_PREFIX P BINARY [simbench options...]
# Runs BINARY on P simulated processes with the sizes of SIM_SIZES, appending
# to OUT_PREFIX.csv.  Sizes whose p x bytes exceed SIM_SHARED_ABOVE run in a
# second simulation in which every allocation of 1 MiB or more, the library's
# included, is shared memory (their combines cannot be checked).  Wall time
# and peak memory (resident and proportional) of each simulation go to
# OUT_PREFIX.log.
sim_run() {
    local prefix=$1 p=$2 bin=$3
    shift 3
    local dir hf small="" big="" s b limit
    dir=$(dirname "$prefix")
    hf=$(hostfile "$dir" "$p")
    limit=$(bytes_of "$SIM_SHARED_ABOVE")
    # simbench's own vectors must be partially shared wherever the library's
    # buffers are shared, or the broadcasts' private edges would be shared too
    if [ "$limit" -lt "$(bytes_of "$SIM_PRIVATE_MAX")" ]; then
        echo "sim: SIM_SHARED_ABOVE ($SIM_SHARED_ABOVE) must be at least SIM_PRIVATE_MAX ($SIM_PRIVATE_MAX)" >&2
        return 1
    fi
    for s in ${SIM_SIZES//,/ }; do
        b=$(bytes_of "$s")
        if awk -v p="$p" -v b="$b" -v l="$limit" 'BEGIN { exit !(p * b > l) }'; then
            big=${big:+$big,}$s
        else
            small=${small:+$small,}$s
        fi
    done
    local sizes extra args rc wall rss log=$prefix.log.part
    for sizes in "$small" "$big"; do
        [ -n "$sizes" ] || continue
        extra=()
        args=("$@")
        if [ "$sizes" = "$big" ]; then
            extra=(--cfg=smpi/auto-shared-malloc-thresh:1048576)
            args+=(--unchecked-combines)
        fi
        rc=0
        /usr/bin/time -f "%e %M" -o "$prefix.time" \
            "$SMPIRUN" -quiet -np "$p" -platform "$PLATFORM" -hostfile "$hf" \
            "${SIM_CFG[@]}" "${extra[@]}" "$bin" \
            --sizes "$sizes" --tops "$SIM_TOPS" --ops "$SIM_OPS" --private-max "$SIM_PRIVATE_MAX" \
            --csv "$prefix.csv" "${args[@]}" >"$log" 2>&1 &
        local job=$! pss=0 polls=0
        while kill -0 "$job" 2>/dev/null; do
            pss=$(max_pss "$hf" "$pss")
            # often at first (short runs), then every 2 s
            sleep $( ((polls++ < 20)) && echo 0.2 || echo 2)
        done
        wait "$job" || rc=$?
        # a failed check exits non-zero; the marker catches any other early end
        [ "$rc" != 0 ] || grep -q "^simbench: done" "$log" || rc=incomplete
        read -r wall rss < <(tail -1 "$prefix.time") || { wall=0; rss=0; }
        rm -f "$prefix.time"
        cat "$log" >>"$prefix.log"
        rm -f "$log"
        printf 'p=%s sizes=%s %s: %.0f s, peak memory %.2f GiB resident, %.2f GiB proportional%s\n' \
            "$p" "$sizes" "$(basename "$bin")" "$wall" "$(awk -v k="$rss" 'BEGIN { print k / 1048576 }')" \
            "$(awk -v k="$pss" 'BEGIN { print k / 1048576 }')" "${extra[*]:+ (library buffers shared)}" |
            tee -a "$prefix.log"
        # (proportional: sampled every 2 s, so a lower bound of the peak)
        if [ "$rc" != 0 ]; then
            echo "sim: $(basename "$bin") failed on $p processes (exit $rc); see $prefix.log:" >&2
            grep -m5 -E 'VERIFY|simbench:|rror' "$prefix.log" >&2 || tail -5 "$prefix.log" >&2
            return 1
        fi
    done
}
