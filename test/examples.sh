#!/usr/bin/env bash
# test/examples.sh EXDIR BENCHDIR - runs the examples as tests.
#   mvmult (C, Fortran, and Fortran with 64-bit INTEGER on the ILP64 library:
#   mvmult_f64) must match its serial computation;
#   extensions (C and Fortran) must check its fan-in, norms and xor;
#   lu must pass HPL's residual check (< 16) on grids 1x1, 1x4, 4x1, 2x2 and
#   2x3, with N not a multiple of NB, N < NB, and every broadcast TOP letter
#   for the row and the column broadcasts; lu_ref, the same source on the
#   reference BLACS (Debian's ScaLAPACK), too (the same residual where no
#   sum has more than two terms);
#   BENCHDIR's hpl_lu (bench/hpl_lu.c) the same with look-ahead and without,
#   both pivot searches, and HPL's modified rings (--row-top N, W), which
#   must follow HPL's schedules.
#   MPIRUN names the launcher (tools/launcher.sh).
set -u
ex=$1 bench=$2
. "$(dirname "$0")/../tools/launcher.sh" || exit 1
passed=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() { # NP PROG ARGS... : expects exit 0 and a PASSED line
    local np=$1
    shift
    launcher_cmd "$np"
    local prog=$ex/$1
    [ "$1" != hpl_lu ] || prog=$bench/hpl_lu
    shift
    if timeout -k 5 300 "${LAUNCH_CMD[@]}" "$prog" "$@" >"$out" 2>&1 &&
        grep -q "PASSED" "$out"; then
        passed=$((passed + 1))
        printf '  ok    %-58s %s\n' "$(basename "$prog") $* (np=$np)" "$(grep -Eo 'residual=[^ ]+|b_serial\| / \|b\| = [^ ]+|max rel diff of b = [^ ]+' "$out" | head -1)"
    else
        failed=$((failed + 1))
        printf '  FAIL  %s %s (np=%d)\n' "$(basename "$prog")" "$*" "$np"
        sed 's/^/        | /' "$out" | tail -20
    fi
}

echo "examples in $ex"
run 4 mvmult
run 6 mvmult 7 5
run 1 mvmult_f
run 4 mvmult_f 30 20
run 1 mvmult_f64
run 4 mvmult_f64 30 20
run 9 mvmult 11 13

# LAWN 73's extensions: a fan-in with the receive from any process, a
# scaled 2-norm and an exclusive or with the user-defined combine
run 1 extensions
run 4 extensions
run 6 extensions 40000
run 1 extensions_f
run 4 extensions_f
run 5 extensions_f 3000
run 4 extensions_f64

run 1 lu --n 300 --nb 32 --p 1 --q 1
run 4 lu --n 301 --nb 32 --p 1 --q 4
run 4 lu --n 299 --nb 17 --p 4 --q 1
run 4 lu --n 500 --nb 48 --p 2 --q 2
run 6 lu --n 403 --nb 24 --p 2 --q 3
run 6 lu --n 37 --nb 64 --p 2 --q 3
run 4 lu --n 1 --nb 8 --p 2 --q 2
run 4 lu --n 200 --nb 16 --p 2 --q 2 --seed 7
# the example on the reference BLACS (it calls nothing the reference lacks):
# both pass; on grids of 1 and 2 process columns every sum has at most two
# terms, whose order cannot change a bit, so the residuals are the same
for g in "1 1 300 32 same" "2 2 301 32 same" "2 3 403 24 pass"; do
    set -- $g
    launcher_cmd $(($1 * $2))
    res=()
    for prog in lu lu_ref; do
        res+=("$(timeout -k 5 300 "${LAUNCH_CMD[@]}" "$ex/$prog" --n "$3" --nb "$4" --p "$1" --q "$2" 2>&1 |
            grep -Eo 'residual=[^ ]+ PASSED')")
    done
    if [ -n "${res[0]}" ] && [ -n "${res[1]}" ] && { [ "$5" = pass ] || [ "${res[0]}" = "${res[1]}" ]; }; then
        passed=$((passed + 1))
        printf '  ok    %-58s %s\n' "lu and lu_ref (the reference BLACS), $1 x $2, N=$3" "${res[0]}, ${res[1]}"
    else
        failed=$((failed + 1))
        printf '  FAIL  lu on %s x %s: this library (%s), the reference BLACS (%s)\n' "$1" "$2" "${res[0]}" "${res[1]}"
    fi
done
tops=$("$(dirname "$ex")/tools/topo_table" --letters) # every TOP letter
[ ${#tops} -ge 17 ] || { echo "examples: no TOP letters from topo_table"; exit 1; }
for ((k = 0; k < ${#tops}; k++)); do
    t=${tops:k:1}
    c=${tops:$(( (k + 5) % ${#tops} )):1}
    run 6 lu --n 150 --nb 12 --p 2 --q 3 --row-top "$t" --col-top "$c"
    run 6 lu --n 150 --nb 12 --p 3 --q 2 --row-top "$c" --col-top "$t"
done

# HPL's modified rings: their schedules (who receives from whom, and the
# sends in order: the next panel's owner first) and a factorization on each.
schedule() { # Q EXPECTED-LINES...
    local q=$1 got
    shift
    launcher_cmd 1
    got=$("${LAUNCH_CMD[@]}" "$bench/hpl_lu" --ring-schedule "$q" 2>&1)
    if [ "$got" = "$(printf '%s\n' "$@")" ]; then
        passed=$((passed + 1))
        printf '  ok    %-58s\n' "hpl_lu --ring-schedule $q"
    else
        failed=$((failed + 1))
        printf '  FAIL  hpl_lu --ring-schedule %s: got\n%s\n' "$q" "$got"
    fi
}
schedule 5 "lu: ring 'N' q=5: 1<-0 2<-0 3<-2 4<-3 | sends: 0->1 0->2 2->3 3->4" \
           "lu: ring 'W' q=5: 1<-0 2<-0 3<-0 4<-3 | sends: 0->1 0->2 0->3 3->4"
schedule 8 "lu: ring 'N' q=8: 1<-0 2<-0 3<-2 4<-3 5<-4 6<-5 7<-6 | sends: 0->1 0->2 2->3 3->4 4->5 5->6 6->7" \
           "lu: ring 'W' q=8: 1<-0 2<-0 3<-2 4<-0 5<-4 6<-5 7<-6 | sends: 0->1 0->2 0->4 2->3 4->5 5->6 6->7"
schedule 2 "lu: ring 'N' q=2: 1<-0 | sends: 0->1" "lu: ring 'W' q=2: 1<-0 | sends: 0->1"
for t in N W; do
    run 6 hpl_lu --n 203 --nb 16 --p 1 --q 6 --row-top $t
    run 6 hpl_lu --n 150 --nb 12 --p 2 --q 3 --row-top $t --lookahead 0
    run 5 hpl_lu --n 97 --nb 8 --p 1 --q 5 --row-top $t --reps 2
done
run 4 hpl_lu --n 300 --nb 16 --p 2 --q 2 --row-top I --lookahead 0
run 4 hpl_lu --n 301 --nb 16 --p 2 --q 2 --panel-nb 5 --swap rows # blocks of 5, 5, 5, 1
run 6 hpl_lu --n 299 --nb 24 --p 3 --q 2 --panel-nb 1
run 6 hpl_lu --n 403 --nb 24 --p 2 --q 3
run 4 hpl_lu --n 200 --nb 16 --p 2 --q 2 --reps 2 --seed 7
# Both pivot searches (the fused one unblocked: --panel-nb 16 = NB) and
# both ways to move a panel's rows out of the panel (one message per
# process row, or one exchange per interchange): the same rows end in the
# same places, so the residual must be the same.
for g in "2 2" "4 1" "3 2" "3 1"; do
    set -- $g
    launcher_cmd $(($1 * $2))
    res=()
    for opts in "--pivot fused --panel-nb 16 --swap block" "--pivot scalapack --swap block" \
        "--pivot fused --panel-nb 16 --swap rows"; do
        # shellcheck disable=SC2086 # split on purpose
        res+=("$(timeout -k 5 300 "${LAUNCH_CMD[@]}" "$bench/hpl_lu" --n 311 --nb 16 --p "$1" --q "$2" $opts 2>&1 |
            grep -Eo 'residual=[^ ]+ PASSED')")
    done
    if [ -n "${res[0]}" ] && [ "${res[0]}" = "${res[1]}" ] && [ "${res[0]}" = "${res[2]}" ]; then
        passed=$((passed + 1))
        printf '  ok    %-58s %s\n' "hpl_lu --pivot fused = scalapack, --swap block = rows, $1 x $2" "${res[0]}"
    else
        failed=$((failed + 1))
        printf '  FAIL  hpl_lu on %s x %s: fused+block (%s), scalapack+block (%s), fused+rows (%s) differ\n' \
            "$1" "$2" "${res[0]}" "${res[1]}" "${res[2]}"
    fi
done

echo "examples: $passed passed, $failed failed"
[ $failed -eq 0 ]
