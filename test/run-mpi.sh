#!/usr/bin/env bash
# test/run-mpi.sh DIR - runs the MPI test programs found in DIR under mpirun.
#
# The cases are test/mpi-cases.sh, or the file MPI_CASES names.  Each case
# names a program, a process count and what must happen:
#   pass  NP PROG [ARGS]           exit 0 and the verdict line
#                                   "PROG: passed on NP processes" on stdout
#   warn  NP 'REGEX' PROG [ARGS]   exit 0, with REGEX (grep -E) on stderr
#   fail  NP 'REGEX' PROG [ARGS]   a BLACS error: MPI_Abort with error code 1,
#                                   so exit status exactly 1, an abort by the
#                                   launcher's account and REGEX on stderr
#   abort NP 'REGEX' PROG [ARGS]   BLACS_ABORT(-1): the same with exit status 255
#   hang  NP SECS 'REGEX' PROG [ARGS]  still running after SECS seconds (then
#                                   stopped), REGEX on stderr: a hang reported
# In warn/fail/abort, several patterns joined by ' && ' must all match.  Pass
# cases have TEST_TIMEOUT seconds (300), the others FAIL_TIMEOUT (60): an
# error must end the job quickly, not hang.  A program that is not built is a
# failure, and the full run (not SANITIZED, not VALGRIND) also fails when a
# program built in DIR is named by no case.
# Processes beyond the machine's cores are oversubscribed.  SANITIZED=1 runs
# the subset that the AddressSanitizer/UBSan build covers; MPI_ENV="VAR=VALUE ..."
# (set for one case) passes more variables to its processes, STRESS_ENV to
# every case's (make stress: the testing aid BLACS_PERTURB); VALGRIND=1 (with
# VALGRIND_CMD="valgrind OPTIONS") the subset run under memcheck.
# MPIRUN names the launcher (Open MPI's mpirun by default, or MPICH's
# mpiexec.mpich): tools/launcher.sh knows its options and how it shows an
# MPI_Abort (LAUNCH_ABORT_RE) and a plain non-zero exit (LAUNCH_EXIT_RE).
set -u
dir=$1
limit=${TEST_TIMEOUT:-300}
fail_limit=${FAIL_TIMEOUT:-60}
. "$(dirname "$0")/../tools/launcher.sh" || exit 1
export OMPI_MCA_rmaps_base_oversubscribe=1
# Sanitized runs: MPI itself leaks by design at exit, and UBSan must stop on error.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
# (under MPICH, tools/ucx_idle.so is preloaded ahead of ASan's runtime: it
# replaces no allocation function, so ASan's link-order check may be skipped)
[ -n "${LAUNCH_PRELOAD:-}" ] && ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

passed=0
failed=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
declare -A named # the programs the cases name

mpi() { # SECONDS NP PROG ARGS... -> status; output in $log/out, $log/err
    local secs=$1 np=$2
    shift 2
    local runner=() prog=$1 st
    shift
    # shellcheck disable=SC2206 # VALGRIND_CMD="valgrind OPTIONS": split on purpose
    [ "${VALGRIND:-0}" = 1 ] && runner=(${VALGRIND_CMD:-valgrind})
    # shellcheck disable=SC2086 # MPI_ENV, STRESS_ENV="VAR=VALUE ...": more variables for the processes
    launcher_cmd "$np" ASAN_OPTIONS UBSAN_OPTIONS ${STRESS_ENV:-} ${MPI_ENV:-}
    launcher_direct "$log/ranks"
    timeout -k 10 "$secs" "${LAUNCH_CMD[@]}" "${runner[@]}" "$dir/$prog" "$@" >"$log/out" 2>"$log/err"
    st=$?
    launcher_collect "$log/ranks" "$log/out" "$log/err"
    return $st
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

built() { # PROG: true if DIR has it; a missing program is a failed case
    named[$1]=1
    [ -x "$dir/$1" ] && return 0
    : >"$log/out"
    echo "        $dir/$1 is not built" >"$log/err"
    report bad "$1 (not built)"
    return 1
}

pass() { # NP PROG ARGS...
    local np=$1 t0=$SECONDS
    built "$2" || return
    mpi "$limit" "$@"
    local st=$?
    local name="$2 ${*:3} (np=$np, $((SECONDS - t0)) s)"
    if [ $st -ne 0 ]; then
        local why=""
        [ $st -eq 124 ] || [ $st -eq 137 ] && why=" (timed out after $limit s)"
        echo "        exit status $st$why" >>"$log/err"
        report bad "$name"
    elif ! grep -q "^$2: passed on $np processes" "$log/out"; then
        echo "        exit status 0 but no verdict line '$2: passed on $np processes' on stdout" >>"$log/err"
        report bad "$name"
    else
        report ok "$name"
    fi
}

# Whether every pattern of REGEX (joined by ' && ') is on the case's stderr;
# each one missing is noted there.
on_stderr() { # REGEX
    local rest=$1 pat found=0
    while [ -n "$rest" ]; do
        pat=${rest%% && *}
        [ "$pat" = "$rest" ] && rest="" || rest=${rest#* && }
        grep -Eq -- "$pat" "$log/err" || { found=1; echo "        not on stderr: /$pat/" >>"$log/err"; }
    done
    return $found
}

# Runs PROG and checks its exit status (WANT: 0, 1 or 255) and stderr against
# REGEX (patterns joined by ' && ' must all match); a non-zero WANT must also
# be an MPI_Abort by the launcher's account: a plain exit or a crash is not.
expect() { # WANT NP REGEX PROG ARGS...
    local want=$1 np=$2 re=$3 t0=$SECONDS
    shift 3
    built "$1" || return
    mpi "$fail_limit" "$np" "$@"
    local st=$? ok=1 rest=$re
    [ "$want" -ne 0 ] && rest="$rest && $LAUNCH_ABORT_RE"
    on_stderr "$rest" || ok=0
    if [ "$want" -ne 0 ] && grep -Eq -- "$LAUNCH_EXIT_RE" "$log/err"; then
        ok=0
        echo "        a process exited with a non-zero status instead of calling MPI_Abort" >>"$log/err"
    fi
    [ $st -eq "$want" ] || ok=0
    local name="$1 ${*:2} (np=$np, expect exit $want with /$re/, $((SECONDS - t0)) s)"
    if [ $ok = 1 ]; then
        report ok "$name"
    else
        local why=""
        [ $st -eq 124 ] || [ $st -eq 137 ] && why=" (timed out after $fail_limit s)"
        echo "        exit status $st, expected $want$why" >>"$log/err"
        report bad "$name"
    fi
}
warn() { expect 0 "$@"; }
fail() { expect 1 "$@"; }
abort() { expect 255 "$@"; }

# A hang that the library reports and waits on: PROG must still be running
# after SECS seconds (the launcher is then stopped: exit status 124), with
# REGEX on stderr (patterns joined by ' && ').
hang() { # NP SECS REGEX PROG ARGS...
    local np=$1 secs=$2 re=$3 t0=$SECONDS
    shift 3
    built "$1" || return
    mpi "$secs" "$np" "$@"
    local st=$? ok=1
    on_stderr "$re" || ok=0
    [ $st -eq 124 ] || { ok=0; echo "        exit status $st: it should still wait after $secs s (124)" >>"$log/err"; }
    local name="$1 ${*:2} (np=$np, still waiting after $secs s with /$re/, $((SECONDS - t0)) s)"
    [ $ok = 1 ] && report ok "$name" || report bad "$name"
}

echo "MPI tests in $dir"
. "${MPI_CASES:-$(dirname "$0")/mpi-cases.sh}"

# Every test program built here must be run by some case (the SANITIZED and
# VALGRIND lists are subsets on purpose).
if [ "${SANITIZED:-0}" = 0 ] && [ "${VALGRIND:-0}" = 0 ]; then
    for f in "$dir"/*; do
        p=${f##*/}
        [ -f "$f" ] && [ -x "$f" ] && [ -z "${named[$p]:-}" ] || continue
        : >"$log/out"
        echo "        $f is built but no case in test/mpi-cases.sh runs it" >"$log/err"
        report bad "$p (never run)"
    done
fi

echo "MPI tests: $passed passed, $failed failed"
[ $failed -eq 0 ]
