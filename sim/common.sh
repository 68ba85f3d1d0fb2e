# shellcheck shell=bash
# sim/common.sh - sourced by sim/run.sh, sim/nodes.sh and sim/check.sh:
# options, the platforms, the SMPI command line, one simulated run, one
# campaign (every p of SIM_P on one platform and placement).

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
# The platform (sim_platform below): flat (sim/cluster.xml, one process per
# host), nodes16 or nodes64 (sim/nodesN.xml, 16 processes per host), and how
# ranks are placed on the hosts of a node platform: node (ranks 0-15 on
# host 0, 16-31 on host 1, ...) or rr (round robin: rank r on host r mod H).
SIM_PLATFORM=${SIM_PLATFORM:-flat}
SIM_PLACE=${SIM_PLACE:-node}
# SIM_MODEL: the library's cost model (BLACS_MODEL) for the simulated
# processes; none: BLACS_MODEL unset, the library as a user gets it.  Node
# platforms always run with none.
SIM_MODEL=${SIM_MODEL:-}
# SMPI's collective selectors for the MPI reference: the first one's
# collectives run in the library's simulation, every other one's alone, and
# the tables compare with the fastest.  Default: ompi on the flat cluster,
# ompi mpich mvapich2 on node platforms.
SIM_SELECTORS=${SIM_SELECTORS:-}
# The library's cost model of the flat cluster (alpha 1 us, 10 GB/s, every
# link shared by the messages in flight; no computation), read by each
# simulated grid from the environment (doc/guide.md: BLACS_MODEL), unless
# BLACS_MODEL or SIM_MODEL says otherwise.
FLAT_MODEL=alpha=1e-6,beta=1e-10,gamma=0,overhead=0,window=1,overlap=1
SIM_ENV_MODEL=${BLACS_MODEL:-}

# The simulation: CM02 (pure alpha-beta flows, no correction factors) with
# independent directions (no 5% of each flow charged to the reverse link for
# TCP acknowledgements), no computation (the combine arithmetic and memory
# copies cost no simulated time), warnings only.  An MPI_Test or
# MPI_Iprobe costs 0.1 us, as on a real machine, not SMPI's default 100 us
# (growing when repeated), which is meant for programs that spin on them:
# the library tests its send buffers in every call and a broadcast's
# source its ready notes, and SMPI's default made a 4 KiB broadcast on 16
# processes of one simulated node take 400 us instead of 2.  sim_run adds the
# collective selector (smpi/coll-selector: SIM_COLL, default ompi, Open MPI's
# choice of algorithms).
SIM_CFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/simulate-computation:no
         --cfg=smpi/test:1e-7 --cfg=smpi/iprobe:1e-7 --cfg=smpi/grow-injected-times:no
         --log=root.thres:warning)

sim_die() {
    echo "sim: $*" >&2
    exit 1
}

# sim_platform: from SIM_PLATFORM, SIM_PLACE and SIM_MODEL, sets PLATFORM (the
# XML file), SIM_HOSTS and SIM_CORES (processes per host at most), SIM_SEL
# (the selectors), SIM_MODEL_USED, SIM_ALPHA_US and SIM_GBPS (the inter-host
# alpha and bandwidth, for the lower bounds of sim/analyze.sh), and exports
# or unsets BLACS_MODEL.  Called again when these options change.
sim_platform() {
    case $SIM_PLATFORM in
    flat) PLATFORM=sim/cluster.xml SIM_HOSTS=1024 SIM_CORES=1 SIM_GBPS=10 ;;
    nodes16 | nodes64) PLATFORM=sim/$SIM_PLATFORM.xml SIM_HOSTS=${SIM_PLATFORM#nodes} SIM_CORES=16 SIM_GBPS=12.5 ;;
    *) sim_die "SIM_PLATFORM=$SIM_PLATFORM: flat, nodes16 or nodes64" ;;
    esac
    SIM_ALPHA_US=1
    case $SIM_PLACE in
    node | rr) ;;
    *) sim_die "SIM_PLACE=$SIM_PLACE: node or rr" ;;
    esac
    if [ "$SIM_PLATFORM" = flat ]; then
        SIM_MODEL_USED=${SIM_MODEL:-${SIM_ENV_MODEL:-$FLAT_MODEL}}
        SIM_SEL=${SIM_SELECTORS:-ompi}
    else
        # the library as a user gets it: no model set, whatever the environment says
        [ -z "$SIM_MODEL" ] || [ "$SIM_MODEL" = none ] ||
            sim_die "SIM_MODEL=$SIM_MODEL: node platforms run without a model (SIM_MODEL=none)"
        SIM_MODEL_USED=none
        SIM_SEL=${SIM_SELECTORS:-"ompi mpich mvapich2"}
    fi
    if [ "$SIM_MODEL_USED" = none ]; then
        unset BLACS_MODEL
    else
        export BLACS_MODEL=$SIM_MODEL_USED
    fi
}
sim_platform

bytes_of() { # 8, 64K, 1M, 2G -> bytes
    awk -v s="$1" 'BEGIN { m = 1; u = toupper(substr(s, length(s)))
        if (u == "K") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824
        if (m > 1) s = substr(s, 1, length(s) - 1)
        printf "%.0f\n", s * m }'
}

# hostfile DIR P: the hosts of P processes in rank order, one a line, in
# DIR/hostfile.  Hosts node-0 .. node-(SIM_HOSTS-1) of SIM_PLATFORM; SIM_PLACE
# node: SIM_CORES consecutive ranks on each host (on the flat cluster: rank r
# on node-r); rr: rank r on host r mod SIM_HOSTS.
hostfile() {
    local f=$1/hostfile p=$2
    [ "$p" -le $((SIM_HOSTS * SIM_CORES)) ] ||
        sim_die "$p processes do not fit $SIM_PLATFORM ($SIM_HOSTS hosts x $SIM_CORES)"
    awk -v p="$p" -v place="$SIM_PLACE" -v hosts="$SIM_HOSTS" -v cores="$SIM_CORES" 'BEGIN {
        for (r = 0; r < p; r++) print "node-" (place == "rr" ? r % hosts : int(r / cores)) }' >"$f"
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
            "${SIM_CFG[@]}" "--cfg=smpi/coll-selector:${SIM_COLL:-ompi}" "${extra[@]}" "$bin" \
            --sizes "$sizes" --tops "$SIM_TOPS" --ops "$SIM_OPS" --private-max "$SIM_PRIVATE_MAX" \
            --csv "$prefix.csv" "${args[@]}" >"$log" 2>&1 &
        local job=$! pss=0 polls=0
        while kill -0 "$job" 2>/dev/null; do
            pss=$(max_pss "$hf" "$pss")
            # often at first (short runs), then every 2 s
            sleep "$( ((polls++ < 20)) && echo 0.2 || echo 2)"
        done
        wait "$job" || rc=$?
        # a failed check exits non-zero; the marker catches any other early end
        [ "$rc" != 0 ] || grep -q "^simbench: done" "$log" || rc=incomplete
        read -r wall rss < <(tail -1 "$prefix.time") || { wall=0; rss=0; }
        rm -f "$prefix.time"
        cat "$log" >>"$prefix.log"
        rm -f "$log"
        printf 'p=%s sizes=%s %s%s: %.0f s, peak memory %.2f GiB resident, %.2f GiB proportional%s\n' \
            "$p" "$sizes" "$(basename "$bin")" "${SIM_COLL:+ ($SIM_COLL)}" "$wall" "$(awk -v k="$rss" 'BEGIN { print k / 1048576 }')" \
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

# sim_campaign DIR TITLE: on the current platform and placement, every p of
# SIM_P: simbench with the library (and the reference BLACS when SIM_REF
# names its simbench) and the MPI collectives of the first selector of
# SIM_SEL, then the MPI collectives alone under each other selector; then
# sim/analyze.sh.  DIR gets meta.txt, the CSV and log of every simulation
# (ours-pP, ref-pP, mpi-SELECTOR-pP), table.md and the plots.  With one
# selector the MPI rows are impl "mpi", with several "mpi-SELECTOR".
sim_campaign() {
    local out=$1 title=$2 p sel first rest mpi_impl
    first=${SIM_SEL%% *}
    rest=$(echo "$SIM_SEL" | cut -s -d' ' -f2-)
    mpi_impl=mpi${rest:+-$first}
    for bin in "$BUILD/sim/simbench" ${SIM_REF:+"$SIM_REF"}; do
        [ -x "$bin" ] || sim_die "$bin is missing (make sim-build)"
    done
    for p in $SIM_P; do
        [ "$p" -le $((SIM_HOSTS * SIM_CORES)) ] ||
            sim_die "p = $p does not fit $SIM_PLATFORM ($SIM_HOSTS hosts x $SIM_CORES)"
    done
    mkdir -p "$out"
    {
        echo "$title"
        echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "host:      $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "simgrid:   $($SMPIRUN -version 2>/dev/null | head -1)"
        echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
        if [ "$SIM_PLATFORM" = flat ]; then
            echo "platform:  flat ($PLATFORM, $SIM_HOSTS hosts, one process each)"
        else
            echo "platform:  $SIM_PLATFORM ($PLATFORM, $SIM_HOSTS hosts x $SIM_CORES processes), placement $SIM_PLACE"
        fi
        echo "model:     BLACS_MODEL=${BLACS_MODEL-(unset)}"
        echo "blacs env: $(env | grep '^BLACS_' | tr '\n' ' ')"
        echo "smpi:      ${SIM_CFG[*]}"
        echo "selectors: $SIM_SEL (MPI reference: the fastest)"
        echo "p:         $SIM_P"
        echo "sizes:     $SIM_SIZES; tops $SIM_TOPS; ops $SIM_OPS"
        echo "memory:    private up to p x bytes = $SIM_PRIVATE_MAX; library buffers shared above $SIM_SHARED_ABOVE"
        echo "reference: ${SIM_REF:-none}"
    } >"$out/meta.txt"
    echo "sim: results in $out ($SIM_PLATFORM, placement $SIM_PLACE, p = $SIM_P)"
    local t0=$SECONDS t1
    for p in $SIM_P; do
        t1=$SECONDS
        SIM_COLL=$first sim_run "$out/ours-p$p" "$p" "$BUILD/sim/simbench" --mpi yes --mpi-impl "$mpi_impl"
        [ -z "$SIM_REF" ] || SIM_COLL=$first sim_run "$out/ref-p$p" "$p" "$SIM_REF" --mpi no
        for sel in $rest; do
            SIM_COLL=$sel sim_run "$out/mpi-$sel-p$p" "$p" "$BUILD/sim/simbench" --mpi only --mpi-impl "mpi-$sel"
        done
        echo "wall p=$p: $((SECONDS - t1)) s" >>"$out/meta.txt"
    done
    echo "sim: simulated in $((SECONDS - t0)) s" | tee -a "$out/meta.txt"
    SIM_ALPHA_US=$SIM_ALPHA_US SIM_GBPS=$SIM_GBPS bash sim/analyze.sh "$out"
}
