#!/usr/bin/env bash
# test/run-mpi.sh DIR - runs the MPI test programs found in DIR under mpirun.
#
# Each case names a program, a process count and what must happen:
#   pass  NP PROG [ARGS]           exit 0
#   warn  NP 'REGEX' PROG [ARGS]   exit 0, with REGEX (grep -E) on stderr
#   fail  NP 'REGEX' PROG [ARGS]   non-zero exit, within the time limit, with
#                                   REGEX (grep -E) on stderr; several patterns
#                                   joined by ' && ' must all match
# Processes beyond the machine's cores are oversubscribed.  SANITIZED=1 runs
# the subset that the AddressSanitizer/UBSan build covers; VALGRIND=1 (with
# MPIRUN="mpirun valgrind OPTIONS") the subset run under memcheck.
set -u
dir=$1
MPIRUN=${MPIRUN:-mpirun}
limit=${TEST_TIMEOUT:-300}
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
export OMPI_MCA_rmaps_base_oversubscribe=1
# Sanitized runs: MPI itself leaks by design at exit, and UBSan must stop on error.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

passed=0
failed=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

mpi() { # NP PROG ARGS... -> status; output in $log/out, $log/err
    local np=$1; shift
    local runner=() prog=$1
    shift
    if [ "${VALGRIND:-0}" = 1 ]; then # MPIRUN="mpirun valgrind ...": split launcher and tool
        runner=(${MPIRUN#* })
    fi
    timeout -k 10 "$limit" ${MPIRUN%% *} $root_flag --oversubscribe -np "$np" \
        -x ASAN_OPTIONS -x UBSAN_OPTIONS "${runner[@]}" "$dir/$prog" "$@" >"$log/out" 2>"$log/err"
}

report() { # VERDICT NAME
    if [ "$1" = ok ]; then
        passed=$((passed + 1))
        printf '  ok    %s\n' "$2"
    else
        failed=$((failed + 1))
        printf '  FAIL  %s\n' "$2"
        sed 's/^/        | /' "$log/out" | tail -15
        sed 's/^/        ! /' "$log/err" | tail -25
    fi
}

pass() { # NP PROG ARGS...
    local np=$1 t0=$SECONDS
    [ -x "$dir/$2" ] || { echo "  skip  $2 (not built)"; return; }
    mpi "$@"
    local st=$?
    local name="$2 ${*:3} (np=$np, $((SECONDS - t0)) s)"
    [ $st -eq 0 ] && report ok "$name" || { echo "        exit status $st" >>"$log/err"; report bad "$name"; }
}

# Runs PROG and checks its exit status (WANT: ok or failed) and stderr
# against REGEX (patterns joined by ' && ' must all match).
expect() { # WANT NP REGEX PROG ARGS...
    local want=$1 np=$2 re=$3 t0=$SECONDS
    shift 3
    [ -x "$dir/$1" ] || { echo "  skip  $1 (not built)"; return; }
    mpi "$np" "$@"
    local st=$? ok=1 pat rest=$re
    while [ -n "$rest" ]; do
        pat=${rest%% && *}
        [ "$pat" = "$rest" ] && rest="" || rest=${rest#* && }
        grep -Eq -- "$pat" "$log/err" || ok=0
    done
    if [ "$want" = ok ]; then
        [ $st -eq 0 ] || ok=0
    else # a failure of its own: not a timeout (124) nor a kill (137)
        [ $st -ne 0 ] && [ $st -ne 124 ] && [ $st -ne 137 ] || ok=0
    fi
    local name="$1 ${*:2} (np=$np, expect $want with /$re/, $((SECONDS - t0)) s)"
    if [ $ok = 1 ]; then
        report ok "$name"
    else
        echo "        exit status $st" >>"$log/err"
        report bad "$name"
    fi
}
warn() { expect ok "$@"; }
fail() { expect failed "$@"; }

echo "MPI tests in $dir"
. "$(dirname "$0")/mpi-cases.sh"

echo "MPI tests: $passed passed, $failed failed"
[ $failed -eq 0 ]
