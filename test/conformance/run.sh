#!/usr/bin/env bash
# test/conformance/run.sh LIB TOPO_TABLE - the official ScaLAPACK BLACS tester
# (xCbtest and xFbtest, Debian package scalapack-mpi-test) run against LIB
# instead of the reference BLACS it was linked with, by LD_PRELOAD.
#
# The input files here widen Debian's: every TOP letter for broadcasts and
# combines (the registry's list, from `TOPO_TABLE --letters`, written into
# the lines marked TOP), 4 point-to-point pairs, grids up to 8 processes with idle
# processes and non-power-of-two scopes (2x4 4x2 1x8 8x1 3x2, and 2x2 4x1 1x4
# 3x2 2x3 1x6 for point-to-point).
#
# The tester always ends in a deliberate BLACS_ABORT (exit status 255) and its
# upstream wrapper only greps "DONE BLACS_GRIDEXIT", so the output is parsed:
# every summary line must report 0 FAILED and exactly the PASSED count these
# inputs give on 8 processes (so that an input or tester change that skips
# cases is noticed), every AUX test must pass (the timing-dependent
# REPEATABLE SUM test may report SKIPPED), the abort must be an MPI_Abort
# that ends every process, and the banner must show this library's debug
# level (1; the reference reports 0), proving the preload took effect.
#
# BLACS_TESTER_DIR is the testers' folder (Debian: .../scalapack/openmpi-tests,
# or mpich-tests for MPICH's); MPIRUN the launcher (tools/launcher.sh);
# CONFORMANCE_ENV="VAR=VALUE ..." more variables for the processes (make
# stress: the testing aid BLACS_PERTURB).
set -u
lib=$(readlink -f "$1")
letters=$("$2" --letters)
[ ${#letters} -ge 17 ] || { echo "conformance: no TOP letters from $2"; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tools/launcher.sh" || exit 1
# the tester's TOP lines: a count, then the letters quoted
top_lines() {
    local k quoted=""
    for ((k = 0; k < ${#letters}; k++)); do quoted+="'${letters:k:1}' "; done
    printf '%-24sNumber of topologies\n%s  TOP\n' "${#letters}" "$quoted"
}
bindir=${BLACS_TESTER_DIR:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
np=${CONFORMANCE_NP:-8}
# PASSED per summary line of each kind: SDRV, BSBR, combines (SUM/AMX/AMN),
# as these inputs give them on 8 processes (the tester SKIPs the cases whose
# source, destination or scope the grid at hand does not have).  Another
# process count needs its own counts.
if [ -n "${CONFORMANCE_PASSED:-}" ]; then
    read -r want_sdrv want_bsbr want_comb <<<"$CONFORMANCE_PASSED"
elif [ "$np" = 8 ]; then
    want_sdrv=300 want_bsbr=15300 want_comb=5202
else
    echo "conformance: PASSED counts are pinned for 8 processes; on $np set CONFORMANCE_PASSED='SDRV BSBR COMBINE'"
    exit 1
fi
status=0

for tester in xCbtest xFbtest; do
    if [ ! -x "$bindir/$tester" ]; then
        echo "conformance: $bindir/$tester not found (apt-get install scalapack-mpi-test)"
        exit 1
    fi
    work=$(mktemp -d)
    cp "$here"/*.dat "$work"/
    for f in bsbr.dat comb.dat; do # the two lines before "TOP" come from the registry
        awk -v tops="$(top_lines)" '/Number of topologies/ { next } / TOP$/ { print tops; next } { print }' \
            "$here/$f" >"$work/$f"
        grep -q "^${#letters} *Number of topologies" "$work/$f" || { echo "conformance: $f not rewritten"; exit 1; }
    done
    t0=$SECONDS
    # shellcheck disable=SC2086 # CONFORMANCE_ENV="VAR=VALUE ...": split on purpose
    launcher_cmd "$np" GFORTRAN_UNBUFFERED_PRECONNECTED=y LD_PRELOAD="$lib" ${CONFORMANCE_ENV:-}
    launcher_direct "$work/ranks"
    (cd "$work" && timeout -k 10 900 "${LAUNCH_CMD[@]}" "$bindir/$tester" >out.txt 2>err.txt)
    rc=$?
    launcher_collect "$work/ranks" "$work/out.txt" "$work/err.txt"
    out=$work/out.txt
    err=$work/err.txt
    problems=()
    grep -q "BLACS DEBUG LEVEL = 1" "$out" || problems+=("banner does not show this library (debug level 1): was it preloaded?")
    summaries=$(grep -E "(SDRV|BSBR|SUM|AMX|AMN) TESTS:" "$out" | grep -v "BEGIN")
    nsum=$(printf '%s\n' "$summaries" | grep -c .)
    [ "$nsum" -eq 22 ] || problems+=("expected 22 summary lines (5 SDRV, 5 BSBR, 12 combine), found $nsum")
    bad=$(printf '%s\n' "$summaries" | grep -Ev "( 0 FAILED\.|PASSED ALL [0-9]+ TESTS\.)$")
    [ -z "$bad" ] || problems+=("summary lines with failures: $bad")
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        case $line in
        *" SDRV TESTS:"*) want=$want_sdrv ;;
        *" BSBR TESTS:"*) want=$want_bsbr ;;
        *) want=$want_comb ;;
        esac
        # "N TESTS; P PASSED, S SKIPPED, F FAILED." or "PASSED ALL N TESTS."
        got=$(printf '%s\n' "$line" | sed -nE 's/.*[;:] *([0-9]+) PASSED,.*/\1/p; s/.*PASSED ALL ([0-9]+) TESTS\..*/\1/p')
        [ "$got" = "$want" ] || problems+=("expected $want PASSED, found ${got:-none}: $line")
    done <<<"$summaries"
    for t in "BLACS_PNUM/BLACS_PCOORD TEST" "BLACS_GRIDMAP TEST" \
             "LOCALLY-BLOCKING CONTIGUOUS SEND TEST" "LOCALLY-BLOCKING NON-CONTIGUOUS SEND TEST" \
             "BLACS_SET/BLACS_GET TESTS"; do
        grep -q "PASSED  $t" "$out" || problems+=("AUX: $t did not pass")
    done
    grep -Eq "(PASSED |SKIPPED) REPEATABLE SUM TEST" "$out" || problems+=("AUX: REPEATABLE SUM TEST failed")
    for t in BLACS_FREEBUFF BARRIER BLACS_GRIDEXIT; do
        grep -q "DONE $t" "$out" || problems+=("AUX: $t not done")
    done
    grep -q "FAILED " "$out" && grep "FAILED " "$out" | grep -qv " 0 FAILED" && problems+=("a test reported FAILED")
    grep -q "killed other procs, exiting with error #-1" "$err" || problems+=("BLACS_ABORT message missing")
    # Exit status 255 alone does not tell MPI_Abort from a process exiting
    # with -1 (the launcher then ends the others itself): an abort shows the
    # launcher's evidence of it (tools/launcher.sh), a plain exit its notice.
    grep -Eq "$LAUNCH_ABORT_RE" "$err" ||
        problems+=("no MPI_Abort shown on stderr: BLACS_ABORT did not call MPI_Abort")
    grep -Eq "$LAUNCH_EXIT_RE" "$err" &&
        problems+=("a process exited with a non-zero status instead of calling MPI_Abort")
    [ "$rc" -eq 255 ] || problems+=("launcher exit status $rc, expected 255 from BLACS_ABORT(-1) (124: timeout)")

    echo "== $tester on $np processes ($((SECONDS - t0)) s, exit status $rc)"
    printf '%s\n' "$summaries" | sed 's/^/   /'
    grep -E "^ (PASSED|SKIPPED|FAILED|DONE) " "$out" | sed 's/^/   /'
    if [ ${#problems[@]} -eq 0 ]; then
        echo "   conformance: $tester passed"
    else
        status=1
        printf '   PROBLEM: %s\n' "${problems[@]}"
        echo "   (output kept in $work)"
        continue
    fi
    rm -rf "$work"
done
exit $status
