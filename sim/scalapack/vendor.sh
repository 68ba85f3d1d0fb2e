#!/usr/bin/env bash
# sim/scalapack/vendor.sh GITDIR - remakes sim/scalapack/scalapack-2.2.1-subset.tar.xz
# from a clone of https://github.com/Reference-ScaLAPACK/scalapack: the files
# of release v2.2.1 (the one Debian 12 ships; commit below) that the four
# simulated drivers (sim/scalapack/driver.c: PDGESV, PDPOTRF, PDGEQRF, PDGEMM)
# link, the whole reference BLACS (BLACS/SRC: make sim's SIM_REF_LIB can use
# it too), the headers and LICENSE.  Which files of TOOLS, PBLAS and SRC:
# every archive member the linker took (its map file), from a build of the
# double-precision TOOLS, PBLAS, SRC and BLACS/SRC (sim/scalapack/build.sh).
# Needs smpicc and smpif90; about two minutes.
set -euo pipefail
git_dir=$1
here=$(cd "$(dirname "$0")" && pwd)
commit=1cad194b1e9e0d4f0731cf0dab52144eb4492d41 # tag v2.2.1 (tag object 0ce96dc)
[ "$(git -C "$git_dir" rev-parse 'v2.2.1^{commit}')" = "$commit" ] ||
    { echo "vendor.sh: $git_dir: v2.2.1 is not commit $commit" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$git_dir" archive "$commit" | tar -x -C "$work" --one-top-level=src
bash "$here/build.sh" "$work/src" "$work/build" >/dev/null
smpicc -O1 -I"$here/.." -o "$work/driver" "$here/driver.c" "$here/simblas.c" "$work/build/libscalapack-sim.a" \
    "$work/build/libblacs-ref-sim.a" -llapack -lgfortran -lm -Wl,-Map="$work/map.txt"
members=$(grep -oE '^[^ ]*libscalapack-sim\.a\([^)]*\)' "$work/map.txt" | sed 's/.*(\(.*\)\.o)/\1/' | sort -u)
cd "$work/src"
for m in $members; do
    f=$(ls TOOLS/"$m".[fc] TOOLS/LAPACK/"$m".f PBLAS/SRC/"$m".[fc] PBLAS/SRC/PTOOLS/"$m".c \
        PBLAS/SRC/PBBLAS/"$m".f PBLAS/SRC/PTZBLAS/"$m".f SRC/"$m".[fc] 2>/dev/null || true)
    [ "$(echo "$f" | grep -c .)" = 1 ] || { echo "vendor.sh: no single source for $m.o: $f" >&2; exit 1; }
    echo "$f"
done >"$work/files"
{
    find BLACS/SRC -name '*.c'
    find BLACS/SRC PBLAS/SRC SRC TOOLS -name '*.h'
    echo LICENSE
} >>"$work/files"
sort -u "$work/files" | tar --owner=0 --group=0 --numeric-owner --mtime=2022-03-01 --sort=name -cf - -T - |
    xz -9 >"$here/scalapack-2.2.1-subset.tar.xz"
echo "vendor.sh: $(sort -u "$work/files" | wc -l) files, $here/scalapack-2.2.1-subset.tar.xz ($(wc -c <"$here/scalapack-2.2.1-subset.tar.xz") bytes)"
