#!/usr/bin/env bash
# tools/check-layers.sh OBJDIR - the library's structure, checked.
#
# Layers, top to bottom (a folder may use only folders on lower floors):
#   4 blacs/        entry points, argument checks, contexts and grids
#   3 topologies/   broadcasts and combines along trees and rings
#   2 buffers/      the byte layer, packing, send buffers
#   2 msgid/        message IDs (pure functions)
#   1 base/         reports, visibility, MPI checks
# Edges are read from two sources: #include "..." lines of every .c and .h
# file, and calls, from the object files in OBJDIR (nm: a symbol one object
# uses and another defines).  The check fails on an edge from a folder to a
# higher one or to another folder of its own floor, and on any cycle between
# files (a file and its header count as one unit: foo.c with foo.h).  It
# prints the folder-to-folder edges it found.
set -euo pipefail
obj=${1:-build/obj}
cd "$(dirname "$0")/.."
folders="blacs topologies buffers msgid base"
floor() { case $1 in blacs) echo 4 ;; topologies) echo 3 ;; buffers | msgid) echo 2 ;; base) echo 1 ;; *) echo 0 ;; esac; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FROM TO KIND, one edge a line, paths relative to the top
for d in $folders; do
    for f in "$d"/*.c "$d"/*.h; do
        [ -e "$f" ] || continue
        sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
            to=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
            [ -e "$to" ] || { echo "check-layers: $f includes $inc, which is not a file of the tree" >&2; exit 1; }
            echo "$f $to include"
        done
    done
done >"$tmp/edges"

for d in $folders; do
    for o in "$obj/$d"/*.o; do
        [ -e "$o" ] || { echo "check-layers: no objects in $obj/$d (build the library first)" >&2; exit 1; }
        src=${o#"$obj/"}
        src=${src%.o}.c
        nm "$o" | awk -v f="$src" '$2 ~ /^[TDBRC]$/ { print "def", $3, f } $1 == "U" { print "use", $2, f }'
    done
done >"$tmp/syms"
awk '$1 == "def" { at[$2] = $3; next } { use[NR] = $2; from[NR] = $3 }
     END { for (i in use) if (use[i] in at && at[use[i]] != from[i]) print from[i], at[use[i]], "call" }' \
    "$tmp/syms" | sort -u >>"$tmp/edges"

bad=0
while read -r from to kind; do
    a=${from%%/*} b=${to%%/*}
    [ "$a" = "$b" ] && continue
    if [ "$(floor "$b")" -ge "$(floor "$a")" ]; then
        echo "check-layers: $from -> $to ($kind): $a/ (floor $(floor "$a")) must not use $b/ (floor $(floor "$b"))"
        bad=1
    fi
done <"$tmp/edges"

echo "folder edges (includes, calls):"
awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) n[a[1] "/ -> " b[1] "/" ($3 == "call" ? " call" : " include")]++ }
     END { for (k in n) print k, n[k] }' "$tmp/edges" |
    awk '{ key = $1 " " $2 " " $3; if ($4 == "call") c[key] = $5; else i[key] = $5; keys[key] = 1 }
         END { for (k in keys) printf "  %-28s %3d includes, %3d calls\n", k, i[k] + 0, c[k] + 0 }' | sort

# Cycles between units (foo.c + foo.h): tsort reports a loop if there is one.
awk '{ f = $1; t = $2; sub(/\.[ch]$/, "", f); sub(/\.[ch]$/, "", t); if (f != t) print t, f }' "$tmp/edges" |
    sort -u >"$tmp/units"
if ! tsort "$tmp/units" >/dev/null 2>"$tmp/loop"; then
    echo "check-layers: files that use each other in a cycle:"
    sed 's/^/  /' "$tmp/loop"
    bad=1
fi
[ $bad = 0 ] && echo "check-layers: $(wc -l <"$tmp/edges") edges, every one points down, no cycles"
exit $bad
