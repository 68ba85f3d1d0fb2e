# bench/common.sh - sourced by the scripts of bench/: the options from the
# environment, the run directory, the analysis, and the one place where the
# mpirun command line is built (launch).

BUILD=${BUILD:-build}
RESULTS=${RESULTS:-results}
NPROCS=${NPROCS:-"2 4"}
SERIES=${SERIES:-all}
TOPS=${TOPS:-_ISH1F}
TRIALS=${TRIALS:-3}
RE_TRIALS=${RE_TRIALS:-10}
REPS=${REPS:-auto}
TARGET_MS=${TARGET_MS:-10}
DAXPY=${DAXPY:-10000,1000000}
SCOPE=${SCOPE:-A}
MPIRUN=${MPIRUN:-mpirun}
. "$(dirname "${BASH_SOURCE[0]}")/../tools/launcher.sh" || exit 1

if [ "${LAWN:-0}" = 1 ]; then
    SIZE_ARGS=(--lawn)
else
    SIZE_ARGS=(--sizes "${SIZES:-8,1K,16K,64K,256K,1M,8M}")
fi

# Options every blacsbench run gets.
COMMON_ARGS=("${SIZE_ARGS[@]}" --tops "$TOPS" --reps "$REPS" --target-ms "$TARGET_MS" --daxpy "$DAXPY"
             --scope "$SCOPE")
[ -n "${GRID:-}" ] && COMMON_ARGS+=(--grid "$GRID")
# shellcheck disable=SC2206 # word splitting wanted
[ -n "${BENCH_ARGS:-}" ] && COMMON_ARGS+=($BENCH_ARGS)

# launch NP PROGRAM ARGS... : runs PROGRAM on NP processes; LAUNCH_TIMEOUT=S
# kills the run after S seconds; LAUNCH_ENV="VAR=VALUE ..." passes variables.
launch() {
    local np=$1 pre=() env=()
    shift
    [ -n "${LAUNCH_TIMEOUT:-}" ] && pre=(timeout -k 5 "$LAUNCH_TIMEOUT")
    # shellcheck disable=SC2206 # split on purpose
    [ -n "${LAUNCH_ENV:-}" ] && env=($LAUNCH_ENV)
    launcher_cmd "$np" "${env[@]}"
    "${pre[@]}" "${LAUNCH_CMD[@]}" "$@"
}

need() { # BINARY... of $BUILD/bench, and python3 for the analysis
    local bin
    for bin in "$@"; do
        [ -x "$BUILD/bench/$bin" ] || { echo "bench: $BUILD/bench/$bin is missing (make bench-build)" >&2; exit 1; }
    done
    command -v python3 >/dev/null || { echo "bench: python3 is missing (the analysis needs it)" >&2; exit 1; }
}

# results/<date-time>, and results/latest -> it
new_run_dir() {
    local stamp dir
    stamp=$(date +%Y%m%d-%H%M%S)
    dir=$RESULTS/$stamp
    [ -e "$dir" ] && dir=$dir-$$ && stamp=$stamp-$$
    mkdir -p "$dir"
    ln -sfn "$stamp" "$RESULTS/latest"
    echo "$dir"
}

write_meta() { # DIR WHAT
    {
        echo "$2"
        echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "host:      $(uname -n) ($(uname -sr)), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
        echo "load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
        echo "mpi:       $LAUNCHER_VERSION${LAUNCH_PRELOAD:+ (preloaded: $LAUNCH_PRELOAD)}"
        echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
        echo "processes: $NPROCS (more processes than cores are oversubscribed)"
        echo "options:   series $SERIES; ${COMMON_ARGS[*]}; trials $TRIALS (every fifth size: $RE_TRIALS)"
    } >"$1/meta.txt"
}

# run_bench NP BINARY OUTBASE ARGS... : one blacsbench run, rows appended to
# OUTBASE.csv, progress to the terminal and OUTBASE.log
run_bench() {
    local np=$1 bin=$2 base=$3
    shift 3
    launch "$np" "$bin" "${COMMON_ARGS[@]}" --csv "$base.csv" "$@" 2>&1 | tee -a "$base.log" >&2
}

analyze_run() { # DIR
    python3 bench/analyze.py "$1"
    echo
    echo "summary: $1/summary.md"
    echo "plots:   $(cd "$1" && ls ./*.png 2>/dev/null | sed "s|^\./|$1/|" | tr '\n' ' ')"
}
