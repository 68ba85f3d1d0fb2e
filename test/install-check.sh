#!/usr/bin/env bash
# test/install-check.sh - 'make install PREFIX=... DESTDIR=...' puts the
# libraries, the header and a pkg-config file in place, and a C program built
# only from what was installed (through pkg-config) runs.
set -eu
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
make -s install PREFIX=/opt/blacs DESTDIR="$stage" >/dev/null
root=$stage/opt/blacs
for f in include/blacs.h lib/libblacs.a lib/libblacs.so lib/libblacs.so.1 lib/pkgconfig/blacs.pc; do
    [ -e "$root/$f" ] || { echo "install-check: $f missing"; exit 1; }
done
[ "$(readlink "$root/lib/libblacs.so")" = libblacs.so.1 ] || { echo "install-check: bad libblacs.so link"; exit 1; }
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
# the .pc file names /opt/blacs; point a copy of it at the staging area
mkdir -p "$stage/pc"
sed "s|/opt/blacs|$root|g" "$root/lib/pkgconfig/blacs.pc" >"$stage/pc/blacs.pc"
grep -q '^libdir=/opt/blacs/lib$' "$root/lib/pkgconfig/blacs.pc" || { echo "install-check: bad libdir in blacs.pc"; exit 1; }
flags=$(PKG_CONFIG_PATH=$stage/pc pkg-config --cflags --libs blacs)
cc "$stage/prog.c" -o "$stage/prog" $flags -Wl,-rpath,"$root/lib"
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
out=$(mpirun $root_flag --oversubscribe -np 3 "$stage/prog")
[ "$out" = "sum=6" ] || { echo "install-check: program printed '$out'"; exit 1; }
echo "install-check: passed (installed, built with pkg-config, ran: $out)"
