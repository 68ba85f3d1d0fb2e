#!/usr/bin/env bash
# test/mangling.sh BUILD LIBNAME - every Fortran name mangling links and runs.
#
# test/mangling/mangling.F90 is compiled four ways, each against the shared
# library (and one also against the static archive):
#   underscore         (gfortran's default)   blacs_gridinit_  dgsum2d_
#   no-underscore      -fno-underscoring      blacs_gridinit   dgsum2d
#   second-underscore  -fsecond-underscore    blacs_gridinit__ dgsum2d_
#   upper              -DUPPER (BIND(C))      BLACS_GRIDINIT   DGSUM2D
# For each, the object file must ask for exactly the names of its mangling
# (nm: so that a compiler that ignored the option fails the test instead of
# passing it on the default names), link, and run on 4 processes with the
# verdict line "mangling VARIANT: passed on 4 processes".
# MPIFC, FFLAGS, FWARN, LDFLAGS and MPIRUN come from the environment (make).
set -u
b=$1
libname=$2
src=$(dirname "$0")/mangling/mangling.F90
MPIFC=${MPIFC:-mpifort}
. "$(dirname "$0")/../tools/launcher.sh" || exit 1
out=$b/test/mangling
mkdir -p "$out"
passed=0
failed=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# VARIANT FLAGS SUPPORT-NAME PER-TYPE-NAME TIMER-NAME: what the object must ask for
variants=(
    "underscore||blacs_gridinit_|dgsum2d_|dwalltime00_"
    "no-underscore|-fno-underscoring|blacs_gridinit|dgsum2d|dwalltime00"
    "second-underscore|-fsecond-underscore|blacs_gridinit__|dgsum2d_|dwalltime00_"
    "upper|-DUPPER|BLACS_GRIDINIT|DGSUM2D|DWALLTIME00"
)

check() { # NAME OK? (output in $log/out, $log/err)
    if [ "$2" = ok ]; then
        passed=$((passed + 1))
        printf '  ok    %s\n' "$1"
    else
        failed=$((failed + 1))
        printf '  FAIL  %s\n' "$1"
        sed 's/^/        | /' "$log/out" | tail -15
        sed 's/^/        ! /' "$log/err" | tail -15
    fi
}

run() { # VARIANT EXE : runs EXE on 4 processes, wants the verdict line
    launcher_cmd 4
    launcher_direct "$log/ranks"
    timeout -k 10 120 "${LAUNCH_CMD[@]}" "$2" "$1" >"$log/out" 2>"$log/err"
    local st=$?
    launcher_collect "$log/ranks" "$log/out" "$log/err"
    [ $st -eq 0 ] || echo "exit status $st" >>"$log/err"
    [ $st -eq 0 ] && grep -q "^mangling $1: passed on 4 processes" "$log/out"
}

echo "Fortran manglings ($MPIFC, $b/lib$libname)"
for v in "${variants[@]}"; do
    IFS='|' read -r name flags sup typed timer <<<"$v"
    obj=$out/$name.o
    : >"$log/out"
    # shellcheck disable=SC2086 # flag lists
    if ! $MPIFC ${FFLAGS:-} ${FWARN:-} $flags -J "$out" -c "$src" -o "$obj" 2>"$log/err"; then
        check "$name: compile ($MPIFC $flags)" bad
        continue
    fi
    # The names the object asks for: exactly this mangling's.
    undef=$(nm -u "$obj" | awk '{print $2}')
    bad=""
    for n in "$sup" "$typed" "$timer"; do
        printf '%s\n' "$undef" | grep -qx -- "$n" || bad+=" $n is not asked for;"
    done
    others=$(printf '%s\n' "$undef" | grep -i -E '^(blacs_gridinit|dgsum2d|dwalltime00)_*$' | grep -vx -e "$sup" -e "$typed" -e "$timer")
    [ -z "$others" ] || bad+=" also asks for $(echo $others);"
    if [ -n "$bad" ]; then
        echo "$obj:$bad" >"$log/err"
        check "$name: names in the object ($sup, $typed, $timer)" bad
        continue
    fi
    links=("shared:-L$b -l$libname -Wl,-rpath,$(readlink -f "$b")")
    [ "$name" = second-underscore ] && links+=("static:$b/lib$libname.a -lm")
    for l in "${links[@]}"; do
        kind=${l%%:*}
        exe=$out/$name-$kind
        # shellcheck disable=SC2086
        if ! $MPIFC ${FFLAGS:-} ${LDFLAGS:-} -o "$exe" "$obj" ${l#*:} >"$log/out" 2>"$log/err"; then
            check "$name ($kind): link" bad
            continue
        fi
        if run "$name" "$exe"; then
            check "$name ($kind): $MPIFC ${flags:-(default)} calls $sup, $typed, $timer: $(grep -o 'passed on .*' "$log/out")" ok
        else
            check "$name ($kind): run on 4 processes" bad
        fi
    done
done
echo "Fortran manglings: $passed passed, $failed failed"
[ $failed -eq 0 ]
