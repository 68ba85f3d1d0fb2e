#!/usr/bin/env bash
# test/install-check.sh - 'make install PREFIX=... DESTDIR=...' of the MPI
# flavour at hand (MPI=openmpi or mpich, from make) puts the libraries, the
# header and the pkg-config file in place under the flavoured names, and
#   1. a C program built with plain cc from what was installed (the header,
#      the library and the MPI that pkg-config names) runs;
#   2. a program that reaches the BLACS only through ScaLAPACK
#      (test/scalapack_only.c), linked under -Wl,--as-needed with what
#      pkg-config gives, and with a plain -lblacs-$MPI, keeps the library
#      (NEEDED: the link name is a script with an object that keeps it) and
#      ScaLAPACK's BLACS calls bind to it (LD_DEBUG=bindings), none to the
#      reference inside ScaLAPACK; the control: the library's own file,
#      linked by path under --as-needed, is dropped (else this proves
#      nothing); ScaLAPACK linked first, the program stops at start-up with
#      the BLACS ERROR that says what to do (BLACS_QUIET=1: it runs);
#   3. the same program linked with the static archive inside
#      -Wl,--whole-archive: ScaLAPACK's BLACS calls bind to the program;
#      with the archive not whole (the program making its grid itself, so
#      that it takes a part), it stops at start-up with the BLACS ERROR;
#   4. the ILP64 library (libblacs64-$MPI, blacs64-$MPI.pc, blacs_ilp64.h)
#      installed beside it: a C program built with plain cc and its
#      pkg-config flags gets a 64-bit blacs_int and runs;
#   5. CMake (test/cmake/CMakeLists.txt), under --as-needed: find_package(blacs)
#      and blacs::blacs-$MPI before ScaLAPACK, and pkg-config's imported
#      targets of this library and of ScaLAPACK: ScaLAPACK's BLACS calls bind
#      to the library; pkg-config's target with a plain ScaLAPACK after it
#      (CMake puts the library after ScaLAPACK): the BLACS ERROR;
#   6. C++: a program using the header with string literals builds with
#      g++ -Wall -Wextra -pedantic-errors and the pkg-config line, and runs;
#   7. the manual pages are installed (man/, test/man-check.sh checks them);
#   8. blacs-tune, under its flavoured name, and the library look for the
#      tuning file under the prefix installed to.
#   9. the checks at start-up: BLACS_QUIET takes only switches; the library
#      preloaded into a program of the other MPI, and a program started by
#      the other MPI's launcher, stop with a BLACS ERROR (where the other MPI
#      is installed).
# 0. comes first: the install under test is a packager's two-step build.
# MPI, MPICC, MPIRUN, B (the build folder) and SCALAPACK come from make.
set -eu
MPI=${MPI:-openmpi}
MPICC=${MPICC:-mpicc}
B=${B:-build}
SCALAPACK=${SCALAPACK:--lscalapack-$MPI}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tools/launcher.sh"
name=blacs-$MPI
name64=blacs64-$MPI
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail() { echo "install-check: $*"; exit 1; }

# 0. a packager's two steps, in a build folder of their own: make with their
# flags (hardening: BIND_NOW, RELRO) and the install's prefix, then make
# install, which must rebuild nothing; an install under another prefix is
# refused (the tuning file's place is compiled in) and copies nothing.
pkgb=$stage/build
pkg=(MPI="$MPI" B="$pkgb" MPICC="$MPICC" PREFIX=/opt/blacs)
make -s all "${pkg[@]}" CFLAGS="-O2 -g" LDFLAGS="-Wl,-z,relro -Wl,-z,now" >"$stage/make.out" 2>&1 ||
    { cat "$stage/make.out"; fail "the packager's make (CFLAGS, LDFLAGS, PREFIX) failed"; }
make -s install "${pkg[@]}" DESTDIR="$stage" >"$stage/install.out" 2>&1 ||
    { cat "$stage/install.out"; fail "make install after the packager's make failed"; }
! grep -E '^  (CC|CC-64|LD|AR) ' "$stage/install.out" || fail "make install rebuilt what make had built"
root=$stage/opt/blacs
version=$(sed -n 's/^Version: //p' "$root/lib/pkgconfig/$name.pc")
for f in "lib/lib$name.so.$version" "lib/lib$name64.so.$version" "bin/blacs-tune-$MPI"; do
    readelf -d "$root/$f" | grep -q -E 'FLAGS.*\bNOW\b|BIND_NOW' || fail "$f: no BIND_NOW (the packager's LDFLAGS lost)"
    readelf -l "$root/$f" | grep -q GNU_RELRO || fail "$f: no RELRO segment"
done
readelf -d "$B/lib$name.so.$version" | grep -q -E 'FLAGS.*\bNOW\b|BIND_NOW' ||
    echo "install-check:    (the control: $B/'s library, built without -z now, has no BIND_NOW)"
if make -s install "${pkg[@]}" PREFIX=/usr DESTDIR="$stage/wrong" >"$stage/wrong.out" 2>&1; then
    fail "make install PREFIX=/usr of a build made for /opt/blacs ran"
fi
grep -q "SYSCONFDIR=/opt/blacs/etc.*this install has SYSCONFDIR=/usr/etc.*make install does not rebuild" \
    "$stage/wrong.out" || { cat "$stage/wrong.out"; fail "the refused install does not say why"; }
[ ! -e "$stage/wrong" ] || fail "the refused install copied something"
[ -d "$root/etc/blacs" ] || fail "make install did not make etc/blacs (where blacs-tune -o writes)"
echo "install-check: 0. make with a packager's flags, then make install: nothing rebuilt; BIND_NOW and RELRO" \
    "kept; an install under another prefix refused"
[ -e "$root/lib/pkgconfig/$name.pc" ] || fail "no $name.pc installed"
for f in include/blacs.h lib/lib$name.a lib/lib$name.so lib/lib$name.so.1 lib/lib$name.so.$version \
    lib/pkgconfig/$name.pc include/blacs_ilp64.h lib/lib$name64.a lib/lib$name64.so lib/lib$name64.so.1 \
    lib/lib$name64.so.$version lib/pkgconfig/$name64.pc lib/lib$name-keep.o lib/lib$name64-keep.o \
    lib/cmake/blacs/blacsConfig.cmake lib/cmake/blacs/blacsConfigVersion.cmake \
    lib/cmake/blacs/blacs-$MPI-targets.cmake; do
    [ -e "$root/$f" ] || fail "$f missing"
done
grep -q "^INPUT(lib$name-keep.o lib$name.so.1)$" "$root/lib/lib$name.so" ||
    fail "lib$name.so is not the linker script naming lib$name-keep.o and lib$name.so.1"
# Only the Open MPI install makes the unflavoured links (the two installs never fight over them).
if [ "$MPI" = openmpi ]; then
    [ "$(readlink "$root/lib/libblacs.so")" = "lib$name.so" ] || fail "libblacs.so is not a link to lib$name.so"
    [ "$(readlink "$root/lib/pkgconfig/blacs.pc")" = "$name.pc" ] || fail "blacs.pc is not a link to $name.pc"
    [ "$(readlink "$root/lib/libblacs64.so")" = "lib$name64.so" ] || fail "libblacs64.so is not a link to lib$name64.so"
    [ "$(readlink "$root/lib/pkgconfig/blacs64.pc")" = "$name64.pc" ] || fail "blacs64.pc is not a link to $name64.pc"
else
    [ ! -e "$root/lib/libblacs.so" ] && [ ! -e "$root/lib/pkgconfig/blacs.pc" ] && [ ! -e "$root/lib/libblacs64.so" ] ||
        fail "the $MPI install made unflavoured names"
fi
# blacs-tune, flavoured, and looking for its file under the prefix (it says where in --help)
"$root/bin/blacs-tune-$MPI" --help 2>/dev/null | grep -q "^  /opt/blacs/etc/blacs/model$" ||
    fail "bin/blacs-tune-$MPI --help does not name /opt/blacs/etc/blacs/model"
strings "$root/lib/lib$name.so.$version" | grep -qx /opt/blacs/etc/blacs/model ||
    fail "lib$name.so does not look for its tuning file under the prefix"
if [ "$MPI" = openmpi ]; then
    [ "$(readlink "$root/bin/blacs-tune")" = "blacs-tune-$MPI" ] || fail "bin/blacs-tune is not a link to blacs-tune-$MPI"
fi
others=$(cd "$root" && find . -type f -o -type l | grep -v -e "$name" -e "$name64" -e '^./include/blacs.h$' \
    -e "^./bin/blacs-tune\(-$MPI\)\?$" -e '^./share/man/man1/blacs-tune\.1$' \
    -e '^./include/blacs_ilp64.h$' -e '^./lib/libblacs\(64\)\?\.\(so\|a\)$' -e '^./lib/pkgconfig/blacs\(64\)\?\.pc$' \
    -e '^./lib/cmake/blacs/blacsConfig\(Version\)\?\.cmake$' -e '^./share/man/man3/blacs.*\.3$' |
    grep -v -x -F -f <(sh "$here/../tools/man-aliases.sh" | awk '{print "./share/man/man3/" $1 ".3"}') || true)
[ -z "$others" ] || fail "installed names without the flavour: $others"
grep -q '^libdir=/opt/blacs/lib$' "$root/lib/pkgconfig/$name.pc" || fail "bad libdir in $name.pc"

# the .pc file names /opt/blacs; point a copy of it at the staging area
mkdir -p "$stage/pc"
sed "s|/opt/blacs|$root|g" "$root/lib/pkgconfig/$name.pc" >"$stage/pc/$name.pc"
pc() { PKG_CONFIG_PATH=$stage/pc pkg-config "$@" "$name"; }
pc --exists || fail "pkg-config does not accept $name.pc: $(pc --exists 2>&1)"
echo "install-check: $name.pc: Requires: $(sed -n 's/^Requires: *//p' "$root/lib/pkgconfig/$name.pc")" \
    "| pkg-config --libs: $(pc --libs)"

# 1. plain cc, the installed header and library, MPI as pkg-config says
cat >"$stage/prog.c" <<'PROG'
#include <stdio.h>
#include "blacs.h"
int main(void)
{
    int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    double x = me + 1;
    Cdgsum2d(ctxt, "All", " ", 1, 1, &x, 1, -1, -1);
    if (me == 0)
        printf("sum=%g\n", x);
    Cblacs_exit(0);
    return x == np * (np + 1) / 2.0 ? 0 : 1;
}
PROG
# shellcheck disable=SC2046 # pkg-config's flags
cc "$stage/prog.c" -o "$stage/prog" $(pc --cflags --libs) -Wl,-rpath,"$root/lib"
launcher_cmd 3
out=$("${LAUNCH_CMD[@]}" "$stage/prog")
[ "$out" = "sum=6" ] || fail "program printed '$out'"
echo "install-check: 1. built with cc and pkg-config, ran: $out"

# 2. and 3.: ScaLAPACK's BLACS calls, seen by the dynamic linker
bindings() { # EXE TO-PATTERN: runs EXE on 2 processes with LD_DEBUG=bindings;
    # prints "OURS REFERENCE": how many BLACS bindings from libscalapack went to
    # TO-PATTERN, how many stayed in libscalapack
    rm -f "$stage"/ld.*
    launcher_cmd 2 LD_DEBUG=bindings LD_DEBUG_OUTPUT="$stage/ld"
    "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1 || { cat "$stage/run.out"; fail "$1 failed"; }
    grep -q "scalapack_only: x = 1 on 2 processes" "$stage/run.out" || { cat "$stage/run.out"; fail "$1: no result"; }
    local blacs="normal symbol \`(C?blacs_[a-z]+_?|C?[isdcz](ge|tr)(sd|rv|bs|br)2d_?|C?[isdcz]g(sum|amx|amn)2d_?)'"
    cat "$stage"/ld.* | grep -E "binding file [^ ]*libscalapack[^ ]* \[0\] to .*: $blacs" >"$stage/bind" || true
    echo "$(grep -c -E " to $2 \[0\]" "$stage/bind") $(grep -c -E " to [^ ]*libscalapack[^ ]* \[0\]" "$stage/bind")"
}
stops() { # EXE WHAT [QUIET]: EXE must stop at start-up with the BLACS ERROR; with QUIET, run with BLACS_QUIET=1
    launcher_cmd 2
    if "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1; then cat "$stage/run.out"; fail "$2: it ran"; fi
    grep -q "BLACS ERROR: this program's BLACS calls would go to another BLACS" "$stage/run.out" ||
        { cat "$stage/run.out"; fail "$2: no BLACS ERROR"; }
    [ "$(grep -c "BLACS ERROR" "$stage/run.out")" = 1 ] || fail "$2: the BLACS ERROR more than once"
    grep -q -- "-Wl,--whole-archive" "$stage/run.out" || fail "$2: the BLACS ERROR does not say what to do"
    [ -n "${3:-}" ] || return 0
    launcher_cmd 2 BLACS_QUIET=1
    "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1 || { cat "$stage/run.out"; fail "$2: BLACS_QUIET=1 did not run"; }
    launcher_cmd 2 BLACS_QUIET=Yes
    "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1 || { cat "$stage/run.out"; fail "$2: BLACS_QUIET=Yes did not run"; }
    launcher_cmd 2 BLACS_QUIET=off
    if "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1; then fail "$2: BLACS_QUIET=off ran it"; fi
    grep -q "would go to another BLACS" "$stage/run.out" || { cat "$stage/run.out"; fail "$2: BLACS_QUIET=off: no BLACS ERROR"; }
    launcher_cmd 2 BLACS_QUIET=bogus
    if "${LAUNCH_CMD[@]}" "$1" >"$stage/run.out" 2>&1; then fail "$2: BLACS_QUIET=bogus ran it"; fi
    grep -q "BLACS_QUIET: 'bogus' is not a switch: 1, yes, true, on; or 0, no, false, off, empty" "$stage/run.out" ||
        { cat "$stage/run.out"; fail "$2: BLACS_QUIET=bogus: no error naming it"; }
}
ours_bound() { # EXE WHAT: ScaLAPACK's BLACS calls bind to the installed library
    readelf -d "$1" | grep -q "NEEDED.*\[lib$name\.so\.1\]" || fail "$2: lib$name.so.1 was dropped"
    read -r ours ref <<<"$(bindings "$1" "[^ ]*lib$name\.so\.1")"
    [ "$ours" -gt 0 ] && [ "$ref" -eq 0 ] ||
        fail "$2: ScaLAPACK's BLACS calls: $ours bound to lib$name.so.1, $ref to the reference (want >0 and 0)"
    echo "install-check: $2: lib$name.so.1 NEEDED; $ours BLACS bindings from libscalapack to it, $ref to the reference"
}
SL="$here/scalapack_only.c"
# shellcheck disable=SC2046,SC2086
cc -Wl,--as-needed "$SL" -o "$stage/sl_pc" $(pc --cflags --libs) $SCALAPACK -llapack -lblas -lm -Wl,-rpath,"$root/lib"
ours_bound "$stage/sl_pc" "2. ScaLAPACK-only program, --as-needed, pkg-config's line"
# shellcheck disable=SC2086
$MPICC -Wl,--as-needed "$SL" -o "$stage/sl_plain" -L"$root/lib" -l$name $SCALAPACK -llapack -lblas -lm -Wl,-rpath,"$root/lib"
ours_bound "$stage/sl_plain" "   the same with a plain -l$name"
# the control: the library's own file, without the script's object, is dropped
# shellcheck disable=SC2086
$MPICC -Wl,--as-needed "$SL" -o "$stage/sl_file" "$root/lib/lib$name.so.1" $SCALAPACK -llapack -lblas -lm \
    -Wl,-rpath,"$root/lib"
readelf -d "$stage/sl_file" | grep -q "NEEDED.*lib$name" &&
    fail "control: lib$name.so.1 linked by path under --as-needed was kept: this test cannot tell"
echo "install-check:    control: lib$name.so.1 itself, by path, under --as-needed is dropped"
# shellcheck disable=SC2086
$MPICC -Wl,--as-needed "$SL" -o "$stage/sl_rev" $SCALAPACK -L"$root/lib" -l$name -llapack -lblas -lm -Wl,-rpath,"$root/lib"
stops "$stage/sl_rev" "ScaLAPACK linked before -l$name" quiet
echo "install-check:    ScaLAPACK linked first: the program stops at start-up with the BLACS ERROR" \
    "(BLACS_QUIET=off too); BLACS_QUIET=1 and =Yes run it; =bogus is an error"
# the report comes whatever the timing: with a core kept busy, rank 1 stopping
# first once let the launcher tear the job down while rank 0 wrote it
# (MPICH: rank 0 died of SIGPIPE, nothing printed, in 3 of 30 runs)
yes >/dev/null &
busy=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
    launcher_cmd 2
    "${LAUNCH_CMD[@]}" "$stage/sl_rev" >"$stage/run.out" 2>&1 && { kill "$busy"; fail "run $i of the stop: it ran"; }
    grep -q "would go to another BLACS" "$stage/run.out" ||
        { kill "$busy"; cat "$stage/run.out"; fail "run $i of the stop, a core busy: no BLACS ERROR"; }
done
kill "$busy"
echo "install-check:    the same 10 times with a core busy: the BLACS ERROR every time"

# 3. the static archive, whole, under --as-needed; and not whole
# shellcheck disable=SC2086
$MPICC -Wl,--as-needed "$SL" -o "$stage/sl_static" \
    -Wl,--whole-archive "$root/lib/lib$name.a" -Wl,--no-whole-archive $SCALAPACK -llapack -lblas -lm -ldl
read -r ours ref <<<"$(bindings "$stage/sl_static" "[^ ]*sl_static")"
[ "$ours" -gt 0 ] && [ "$ref" -eq 0 ] ||
    fail "static: ScaLAPACK's BLACS calls: $ours bound to the program, $ref to the reference (want >0 and 0)"
echo "install-check: 3. the same with -Wl,--whole-archive lib$name.a: $ours BLACS bindings from libscalapack" \
    "to the program, $ref to the reference"
# shellcheck disable=SC2086
$MPICC -DGRID_BY_BLACS "$SL" -o "$stage/sl_part" "$root/lib/lib$name.a" $SCALAPACK -llapack -lblas -lm -ldl
stops "$stage/sl_part" "the static archive, not whole"
echo "install-check:    lib$name.a not whole (the program takes a part): it stops at start-up with the BLACS ERROR"

# 4. the ILP64 library, from its own pkg-config file and header
sed "s|/opt/blacs|$root|g" "$root/lib/pkgconfig/$name64.pc" >"$stage/pc/$name64.pc"
pc64() { PKG_CONFIG_PATH=$stage/pc pkg-config "$@" "$name64"; }
pc64 --cflags | grep -q -- '-DBLACS_ILP64' || fail "$name64.pc: no -DBLACS_ILP64 in its Cflags"
cat >"$stage/prog64.c" <<'PROG'
#include <stdio.h>
#include "blacs_ilp64.h"
int main(void)
{
    blacs_int me, np, ctxt, v[2];
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    v[0] = ((blacs_int)1 << 40) * (me + 1), v[1] = me;
    Cigsum2d(ctxt, "All", " ", 2, 1, v, 2, -1, -1);
    if (me == 0)
        printf("sizeof=%zu sum=%lld\n", sizeof(blacs_int), (long long)v[0]);
    Cblacs_exit(0);
    return v[0] == ((blacs_int)1 << 40) * np * (np + 1) / 2 && v[1] == np * (np - 1) / 2 ? 0 : 1;
}
PROG
# shellcheck disable=SC2046 # pkg-config's flags
cc "$stage/prog64.c" -o "$stage/prog64" $(pc64 --cflags --libs) -Wl,-rpath,"$root/lib"
readelf -d "$stage/prog64" | grep -q "NEEDED.*\[lib$name64\.so\.1\]" || fail "prog64 does not need lib$name64.so.1"
launcher_cmd 3
out=$("${LAUNCH_CMD[@]}" "$stage/prog64")
[ "$out" = "sizeof=8 sum=6597069766656" ] || fail "ILP64 program printed '$out'"
echo "install-check: 4. ILP64: built with cc and $name64.pc (-DBLACS_ILP64), lib$name64.so.1, ran: $out"
# 5. CMake: the config package, and pkg-config's imported targets
if command -v cmake >/dev/null; then
    mkdir -p "$stage/pc2" "$stage/cmake"
    sed "s|/opt/blacs|$root|g" "$root/lib/pkgconfig/$name.pc" >"$stage/pc2/$name.pc"
    PKG_CONFIG_PATH=$stage/pc2 cmake -S "$here/cmake" -B "$stage/cmake" -DCMAKE_C_COMPILER="$MPICC" \
        -DCMAKE_PREFIX_PATH="$root" -DBLACS_MPI="$MPI" -DSL_SOURCE="$SL" -DCMAKE_EXE_LINKER_FLAGS=-Wl,--as-needed \
        >"$stage/cmake.log" 2>&1 || { cat "$stage/cmake.log"; fail "cmake could not configure test/cmake"; }
    cmake --build "$stage/cmake" >>"$stage/cmake.log" 2>&1 || { cat "$stage/cmake.log"; fail "cmake build failed"; }
    grep -q "blacs found: $version (" "$stage/cmake.log" || fail "find_package(blacs) did not report its version"
    ours_bound "$stage/cmake/sl_config" "5. CMake, find_package(blacs) and blacs::$name, --as-needed"
    ours_bound "$stage/cmake/sl_pkgconfig" "   CMake, pkg-config's imported targets of $name and scalapack-$MPI"
    stops "$stage/cmake/sl_pkgconfig_plain" "CMake, pkg-config's target and a plain ScaLAPACK after it" quiet
    echo "install-check:    CMake, pkg-config's target with a plain ScaLAPACK (CMake links it after):" \
        "the BLACS ERROR at start-up"
else
    fail "cmake is missing (sh tools/install-deps.sh installs it)"
fi

# 6. C++: the header compiles cleanly and links with the pkg-config line
cat >"$stage/prog.cc" <<'PROG'
#include <cstdio>
#include "blacs.h"
int main()
{
    blacs_int me, np, ctxt, major, minor, patch;
    Cblacs_pinfo(&me, &np);
    Cblacs_version(&major, &minor, &patch);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    double x = me + 1.0;
    Cdgsum2d(ctxt, "All", "I", 1, 1, &x, 1, -1, -1);
    if (me == 0)
        std::printf("c++ sum=%g version=%d.%d.%d\n", x, (int)major, (int)minor, (int)patch);
    Cblacs_exit(0);
    return x == np * (np + 1) / 2.0 && major == BLACS_VERSION_MAJOR && minor == BLACS_VERSION_MINOR ? 0 : 1;
}
PROG
# shellcheck disable=SC2046 # pkg-config's flags
g++ -Wall -Wextra -pedantic-errors -Werror "$stage/prog.cc" -o "$stage/progxx" $(pc --cflags --libs) \
    -Wl,-rpath,"$root/lib" || fail "a C++ program did not build with g++ -Wall -Wextra -pedantic-errors"
launcher_cmd 3
out=$("${LAUNCH_CMD[@]}" "$stage/progxx")
[ "$out" = "c++ sum=6 version=$(pc --modversion)" ] || fail "C++ program printed '$out'"
echo "install-check: 6. C++ with g++ -Wall -Wextra -pedantic-errors and pkg-config, ran: $out"

# 7. the manual pages
for m in blacs blacs_gesd2d blacs_gebs2d blacs_gsum2d blacs_gridinit blacs_gerva2d blacs_gamx2d; do
    [ -e "$root/share/man/man3/$m.3" ] || fail "man page $m.3 not installed"
done
[ -e "$root/share/man/man1/blacs-tune.1" ] || fail "man page blacs-tune.1 not installed"
while read -r n f; do
    [ "$(cat "$root/share/man/man3/$n.3" 2>/dev/null)" = ".so man3/$f.3" ] || fail "man page $n.3 is not '.so man3/$f.3'"
done < <(sh "$here/../tools/man-aliases.sh")
if command -v man >/dev/null 2>&1; then
    for n in dgesd2d Cdgesd2d blacs_gridinit Cblacs_gridinit dwalltime00 blacs-tune blacs; do
        MANPATH=$root/share/man man -w "$n" >/dev/null 2>&1 || fail "man $n finds no page"
    done
    what=", and man finds dgesd2d, Cdgesd2d, blacs_gridinit, dwalltime00, blacs-tune"
fi
echo "install-check: 7. $(find "$root/share/man/man3" -name '*.3' | wc -l) manual pages in share/man/man3," \
    "blacs-tune.1 in man1${what:-}"
# 9. the other MPI: its program with this library preloaded; this library's
# program under its launcher
if [ "$MPI" = openmpi ]; then
    other=mpich other_name=MPICH other_run=(mpiexec.mpich -n 2)
else
    other=openmpi other_name="Open MPI" other_run=(mpirun.openmpi --allow-run-as-root --oversubscribe -n 2)
fi
other_prog=/usr/lib/x86_64-linux-gnu/scalapack/$other-tests/xslu
if [ -x "$other_prog" ]; then
    if LD_PRELOAD=$root/lib/lib$name.so.1 "$other_prog" >"$stage/run.out" 2>&1 </dev/null; then
        fail "this library preloaded into $other's $other_prog ran"
    fi
    grep -q "BLACS ERROR: this BLACS library is built for .*, but $other_name is in this program too" \
        "$stage/run.out" || { cat "$stage/run.out"; fail "preloaded into $other's program: no BLACS ERROR"; }
    echo "install-check: 9. preloaded into $other's xslu: $(head -c 120 "$stage/run.out")..."
else
    echo "install-check: 9. ($other's ScaLAPACK tests not installed: the preloaded mix not tried)"
fi
if command -v "${other_run[0]}" >/dev/null 2>&1; then
    if timeout 120 "${other_run[@]}" "$stage/prog" >"$stage/run.out" 2>&1; then
        fail "this library's program under $other's launcher ran"
    fi
    grep -q "MPI_COMM_WORLD has 1 process, but the launcher started 2" "$stage/run.out" ||
        { cat "$stage/run.out"; fail "under $other's launcher: no BLACS ERROR"; }
    [ "$(grep -c "BLACS ERROR" "$stage/run.out")" = 1 ] || fail "under $other's launcher: the error more than once"
    echo "install-check:    under ${other_run[0]}: the BLACS ERROR, once"
else
    echo "install-check:    (${other_run[0]} not installed: the launcher mix not tried)"
fi
# 10. make uninstall takes away what install put there, and nothing else
echo ".TH FOREIGN 3" >"$root/share/man/man3/foreign.3"
make -s uninstall "${pkg[@]}" DESTDIR="$stage" >/dev/null 2>&1 || fail "make uninstall failed"
[ -e "$root/share/man/man3/foreign.3" ] || fail "make uninstall removed another package's manual page"
left=$(cd "$root" && find . -type f -o -type l | grep -v '^./share/man/man3/foreign.3$' || true)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install-check: 10. make uninstall removed every file it installed, and no other"
# 11. make dist in a git checkout, and again in the unpacked tarball (no
# git there): the same files; a tarball only where it succeeded
if [ -e "$here/../.git" ]; then
    (cd "$here/.." && make -s dist MPI="$MPI") >"$stage/dist.out" 2>&1 || { cat "$stage/dist.out"; fail "make dist failed"; }
    tarball=$(sed -n 's/^dist: \([^ ]*\.tar\.gz\) .*/\1/p' "$stage/dist.out")
    mkdir "$stage/dist" && mv "$here/../$tarball" "$stage/dist/" && tar -xzf "$stage/dist/$tarball" -C "$stage/dist"
    top=$stage/dist/${tarball%.tar.gz}
    (cd "$top" && make -s dist MPI="$MPI") >"$stage/dist2.out" 2>&1 || { cat "$stage/dist2.out"; fail "make dist in the unpacked $tarball failed"; }
    [ "$(tar -tzf "$top/$tarball" | sort)" = "$(tar -tzf "$stage/dist/$tarball" | sort)" ] ||
        fail "make dist in the unpacked tarball packed other files than git's"
    echo "install-check: 11. make dist: $tarball, and the same files from the unpacked tarball (no git)"
fi
echo "install-check: passed"
