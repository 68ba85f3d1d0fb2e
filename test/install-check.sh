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

make -s install MPI="$MPI" B="$B" MPICC="$MPICC" PREFIX=/opt/blacs DESTDIR="$stage" >/dev/null
root=$stage/opt/blacs
[ -e "$root/lib/pkgconfig/$name.pc" ] || fail "no $name.pc installed"
version=$(sed -n 's/^Version: //p' "$root/lib/pkgconfig/$name.pc")
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
    -e '^./lib/cmake/blacs/blacsConfig\(Version\)\?\.cmake$' -e '^./share/man/man3/blacs.*\.3$' || true)
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
echo "install-check:    ScaLAPACK linked first: the program stops at start-up with the BLACS ERROR;" \
    "BLACS_QUIET=1 runs it"

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
    grep -q "blacs found: 1.1.0 (" "$stage/cmake.log" || fail "find_package(blacs) did not report its version"
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
echo "install-check: 7. $(find "$root/share/man/man3" -name '*.3' | wc -l) manual pages in share/man/man3, blacs-tune.1 in man1"
echo "install-check: passed"
