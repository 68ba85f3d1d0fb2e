# tools/launcher.sh - the one place that knows the MPI launcher's command
# line.  Sourced (bash) by every script that starts MPI programs: the tests,
# the examples' tests, the conformance run, install-check, the benchmarks;
# run as a command it launches a program (`make demo` uses it that way):
#
#   MPIRUN=mpiexec.mpich bash tools/launcher.sh 4 build-mpich/examples/demo
#
# MPIRUN names the launcher (default mpirun).  Its family is detected from
# `$MPIRUN --version` (LAUNCHER_FAMILY=openmpi or hydra overrides it):
#   openmpi  Open MPI's mpirun/mpiexec/orterun ("Open MPI", "OpenRTE")
#   hydra    MPICH's Hydra: mpiexec.mpich, mpiexec.hydra, and the launchers of
#            MPICH-derived MPIs that use it ("HYDRA")
#
# What it provides:
#   launcher_cmd NP [VAR[=VALUE]]...
#       sets the array LAUNCH_CMD to the launcher and its options for NP
#       processes, more processes than cores allowed (oversubscribed), as
#       root where the launcher must be told, every VAR passed to every
#       process (its value here when no VALUE is given; an unset VAR is not
#       passed).  Append the program and its arguments.
#   launcher_direct DIR
#       after launcher_cmd: each process writes its stdout and stderr straight
#       into DIR/out.RANK and DIR/err.RANK instead of through the launcher
#       (launcher_collect gathers them).  Hydra drops what its processes
#       printed last when a job ends by MPI_Abort (3 runs in 40 here lost
#       even the line printed before the abort): the tests that look at an
#       abort's messages need the files.  Open MPI relays reliably: a no-op.
#   launcher_collect DIR OUT ERR
#       appends DIR's files, rank by rank, to OUT and ERR.
#   LAUNCH_ABORT_RE   grep -E pattern, on stderr, that proves an MPI_Abort
#   LAUNCH_EXIT_RE    grep -E pattern, on stderr, of a process that exited
#                     non-zero (or died) without MPI_Abort
#   LAUNCHER_VERSION  one line naming the launcher and its version
#   LAUNCH_PRELOAD    (from the environment) a library every process preloads,
#                     ahead of any LD_PRELOAD given to launcher_cmd: make sets
#                     it under MPI=mpich to build/tools/ucx_idle.so, which
#                     lets oversubscribed MPICH processes sleep while they
#                     wait (tools/ucx_idle.c); empty: nothing preloaded
#
# Exit statuses are alike in both families: MPI_Abort(comm, 1) gives 1,
# MPI_Abort(comm, -1) gives 255.

MPIRUN=${MPIRUN:-mpirun}

launcher_detect() {
    local v
    v=$($MPIRUN --version 2>&1 </dev/null)
    if [ -z "${LAUNCHER_FAMILY:-}" ]; then
        case $v in
        *"Open MPI"* | *OpenRTE*) LAUNCHER_FAMILY=openmpi ;;
        *HYDRA*) LAUNCHER_FAMILY=hydra ;;
        *)
            echo "launcher.sh: cannot tell which launcher '$MPIRUN' is from its --version" \
                "(set LAUNCHER_FAMILY=openmpi or hydra): $(printf '%s' "$v" | head -1)" >&2
            return 1
            ;;
        esac
    fi
    case $LAUNCHER_FAMILY in
    openmpi)
        LAUNCHER_VERSION=$(printf '%s\n' "$v" | head -1)
        # An abort shows MPI_Abort's banner, relayed from the aborting process
        # to mpirun; that relay sometimes breaks while the job is torn down (a
        # few runs in a hundred here), leaving mpirun's ORTE_ERROR_LOG line
        # from show_help.c instead, which is also evidence of the abort
        # (nothing else in these programs sends mpirun a help message).  A
        # plain non-zero exit shows mpirun's own notice, which it prints
        # locally and so never loses.
        LAUNCH_ABORT_RE='MPI_ABORT was invoked on rank [0-9]+ in communicator MPI_COMM_WORLD|ORTE_ERROR_LOG: .*show_help\.c'
        LAUNCH_EXIT_RE='exited with non-zero status|returned a non-zero exit code'
        ;;
    hydra)
        LAUNCHER_VERSION="$MPIRUN (Hydra $(printf '%s\n' "$v" | sed -n 's/^ *Version: *//p' | head -1))"
        # MPICH's MPI_Abort prints, from the aborting process itself,
        #   Abort(1) on node 3 (rank 3 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3
        # A process that exits non-zero by itself makes Hydra print its
        # "BAD TERMINATION" box (and exit with the signal it then kills the
        # others with) - except exit(255), after which Hydra says nothing.
        LAUNCH_ABORT_RE='application called MPI_Abort\(MPI_COMM_WORLD, -?[0-9]+\) - process [0-9]+'
        LAUNCH_EXIT_RE='BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES'
        ;;
    *)
        echo "launcher.sh: LAUNCHER_FAMILY=$LAUNCHER_FAMILY: must be openmpi or hydra" >&2
        return 1
        ;;
    esac
}

launcher_cmd() { # NP [VAR[=VALUE]]...
    local np=$1 v vars=() pre=${LAUNCH_PRELOAD:-}
    shift
    for v in "$@"; do # LD_PRELOAD joins LAUNCH_PRELOAD
        case $v in
        LD_PRELOAD=*) pre="${pre:+$pre }${v#LD_PRELOAD=}" ;;
        *) vars+=("$v") ;;
        esac
    done
    [ -n "$pre" ] && vars+=("LD_PRELOAD=$pre")
    LAUNCH_CMD=("$MPIRUN")
    case $LAUNCHER_FAMILY in
    openmpi)
        LAUNCH_CMD+=(--oversubscribe)
        [ "$(id -u)" = 0 ] && LAUNCH_CMD+=(--allow-run-as-root)
        ;;
    esac
    LAUNCH_CMD+=(-np "$np")
    for v in "${vars[@]}"; do
        if [ "${v#*=}" = "$v" ]; then # a name alone: its value here, if set
            [ -n "${!v+set}" ] || continue
            v="$v=${!v}"
        fi
        case $LAUNCHER_FAMILY in
        openmpi) LAUNCH_CMD+=(-x "$v") ;;
        hydra) LAUNCH_CMD+=(-genv "${v%%=*}" "${v#*=}") ;;
        esac
    done
}

launcher_direct() { # DIR
    [ "$LAUNCHER_FAMILY" = hydra ] || return 0
    mkdir -p "$1"
    # shellcheck disable=SC2016 # expanded by the wrapper shell, per process
    LAUNCH_CMD+=(sh -c 'd=$1; shift; exec "$@" >>"$d/out.${PMI_RANK:-x}" 2>>"$d/err.${PMI_RANK:-x}"' sh "$1")
}

launcher_collect() { # DIR OUT ERR
    local f
    [ -d "$1" ] || return 0
    for f in $(cd "$1" && ls out.* 2>/dev/null | sort -t. -k2 -n); do cat "$1/$f" >>"$2"; done
    for f in $(cd "$1" && ls err.* 2>/dev/null | sort -t. -k2 -n); do cat "$1/$f" >>"$3"; done
    rm -rf "$1"
}

launcher_detect || { [ "${BASH_SOURCE[0]}" = "$0" ] && exit 1 || return 1; }

# As a command: launcher.sh NP PROG ARGS...
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    [ $# -ge 2 ] || { echo "usage: [MPIRUN=launcher] bash tools/launcher.sh NP PROG [ARGS...]" >&2; exit 2; }
    launcher_cmd "$1"
    shift
    exec "${LAUNCH_CMD[@]}" "$@"
fi
