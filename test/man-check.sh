#!/usr/bin/env bash
# test/man-check.sh - checks the manual pages (man/*.3, and the commands' man/*.1).
#
#   bash test/man-check.sh [MANDIR [LIBRARY]]   (MANDIR defaults to man/ of this tree)
#
# 1. Every page renders with groff's man macros, for a UTF-8 and for an ASCII
#    terminal, with every warning on (-ww), without a single message: a stub
#    page (.so man3/PAGE.3) is rendered through an include path where man3/
#    is MANDIR, as it will be once installed.
# 2. Every stub is one line `.so man3/FAMILY.3` naming a family page that
#    exists; every family page's .TH names its file, section 3, and all pages
#    carry the same date, source and manual.
# 3. Every routine name of the BLACS manual has a page (its family page or a
#    stub), no page is unknown to this list, and each family page's NAME
#    section lists its own name and every stub that points at it (what
#    whatis/apropos index).
# 4. With a C compiler (MAN_CHECK_CC, else cc): every C prototype in a SYNOPSIS, for
#    each of the five type letters, is declared by blacs/blacs.h with the same
#    types (compiled after it: a conflict is an error), every Fortran routine
#    in a SYNOPSIS is declared there as name_ with the same number of
#    arguments, and every routine that blacs.h declares, C or Fortran, is in
#    a SYNOPSIS.  A stand-in mpi.h (MPI_Comm only) makes MPI unnecessary.
# 5. With LIBRARY (the built shared library): every name it exports, its
#    Fortran manglings folded (dgesd2d_, DGESD2D, blacs_gridinit__ are
#    dgesd2d and blacs_gridinit), has a page: one in MANDIR, or one that
#    tools/man-aliases.sh names (make install writes those as stubs of
#    their family's page, whose NAME section says what the names stand
#    for); and every name there is exported.
#
# Needs groff (Debian: groff-base), sed, awk; prints
# "man-check: N pages, no warnings" and exits 0, or names every problem and
# exits 1.
set -u -o pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")/.." && pwd)
mandir=${1:-$here/man}
library=${2:-}
header=$here/blacs/blacs.h
fail=0
problem() {
    echo "man-check: $*" >&2
    fail=1
}

if ! command -v groff >/dev/null 2>&1; then
    echo "man-check: groff not found (Debian: apt-get install groff-base)" >&2
    exit 1
fi
[ -d "$mandir" ] || { echo "man-check: no folder $mandir" >&2; exit 1; }
mandir=$(cd "$mandir" && pwd)

# The family pages, and the stubs that point at each.
declare -A family_of=(
    [blacs_gerv2d]=blacs_gesd2d [blacs_trsd2d]=blacs_gesd2d [blacs_trrv2d]=blacs_gesd2d
    [blacs_gebr2d]=blacs_gebs2d [blacs_trbs2d]=blacs_gebs2d [blacs_trbr2d]=blacs_gebs2d
    [blacs_gamx2d]=blacs_gsum2d [blacs_gamn2d]=blacs_gsum2d
    [blacs_pinfo]=blacs_gridinit [blacs_setup]=blacs_gridinit [blacs_get]=blacs_gridinit
    [blacs_set]=blacs_gridinit [blacs_gridmap]=blacs_gridinit [blacs_gridinfo]=blacs_gridinit
    [blacs_gridexit]=blacs_gridinit [blacs_exit]=blacs_gridinit [blacs_abort]=blacs_gridinit
    [blacs_barrier]=blacs_gridinit [blacs_freebuff]=blacs_gridinit [blacs_pnum]=blacs_gridinit
    [blacs_pcoord]=blacs_gridinit [blacs_stats]=blacs_gridinit [blacs_version]=blacs_gridinit
    [blacs_trrva2d]=blacs_gerva2d [blacs_tuop2d]=blacs_gerva2d
)
families="blacs blacs_gesd2d blacs_gebs2d blacs_gsum2d blacs_gridinit blacs_gerva2d"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$mandir" "$tmp/man3" # what .so man3/... finds once installed

# 1. rendering, every warning on
pages=0
for f in "$mandir"/*; do
    name=$(basename "$f")
    case $name in
    *.3) ;;
    *.1) # a command's page (blacs-tune): .TH names it, section 1, as the others' source and manual
        th=$(sed -n '/^\.TH /{p;q;}' "$f")
        want=$(basename "$name" .1 | tr '[:lower:]' '[:upper:]')
        th3=$(sed -n '/^\.TH /{p;q;}' "$mandir/blacs.3")
        [ "$th" = ".TH $want 1 ${th3#.TH BLACS 3 }" ] ||
            problem "$name: .TH must be '.TH $want 1 ${th3#.TH BLACS 3 }', is: $th" ;;
    *) problem "$name: not a manual page (name.3, or a command's name.1)"; continue ;;
    esac
    pages=$((pages + 1))
    for dev in utf8 ascii; do
        out=$(LC_ALL=C.UTF-8 groff -I "$tmp" -man -T"$dev" -ww -z "$f" 2>&1)
        rc=$?
        if [ $rc -ne 0 ] || [ -n "$out" ]; then
            problem "$name (groff -T$dev, exit $rc):"
            printf '%s\n' "$out" | sed 's/^/    /' >&2
        fi
    done
done

# 2. stubs and .TH lines
for f in "$mandir"/*.3; do
    page=$(basename "$f" .3)
    if grep -q '^\.so' "$f"; then
        want=${family_of[$page]:-}
        body=$(cat "$f")
        if [ -z "$want" ]; then
            problem "$page.3: a stub for a name that is not on the list"
        elif [ "$body" != ".so man3/$want.3" ] || [ "$(wc -l <"$f")" -ne 1 ]; then
            problem "$page.3: must be the one line '.so man3/$want.3', is: $body"
        fi
        target=$(sed -n 's|^\.so man3/||p' "$f")
        if [ ! -f "$mandir/$target" ]; then
            problem "$page.3: its target $target does not exist"
        elif grep -q '^\.so' "$mandir/$target"; then
            problem "$page.3: its target $target is a stub itself"
        fi
        continue
    fi
    case " $families " in
    *" $page "*) ;;
    *) problem "$page.3: a page that is neither a family page nor a stub on the list" ;;
    esac
    th=$(grep -m1 '^\.TH ' "$f")
    title=$(printf '%s' "$page" | tr '[:lower:]' '[:upper:]')
    case $th in
    ".TH $title 3 "*) ;;
    *) problem "$page.3: .TH must start '.TH $title 3', is: $th" ;;
    esac
    rest=${th#".TH $title 3 "}
    if [ -z "${th_rest:-}" ]; then
        th_rest=$rest th_from=$page
    elif [ "$rest" != "$th_rest" ]; then
        problem "$page.3: .TH date/source/manual '$rest' differ from $th_from.3's '$th_rest'"
    fi
done

# 3. every name has a page; each family's NAME lists its stubs
for fam in $families; do
    [ -f "$mandir/$fam.3" ] || problem "missing family page $fam.3"
done
for stub in "${!family_of[@]}"; do
    [ -f "$mandir/$stub.3" ] || problem "missing page $stub.3 (a stub: .so man3/${family_of[$stub]}.3)"
done
name_section() { # the NAME section's text, on one line
    awk '/^\.SH /{on = ($2 == "NAME")} on && !/^\.SH/ && !/^\.\\"/{printf "%s ", $0}' "$1"
}
for fam in $families; do
    [ -f "$mandir/$fam.3" ] || continue
    names=$(name_section "$mandir/$fam.3" | sed 's/ \\-.*//; s/,/ /g')
    [ -n "$names" ] || { problem "$fam.3: no NAME section of the form 'name, name \\- what'"; continue; }
    want="$fam"
    for stub in "${!family_of[@]}"; do
        [ "${family_of[$stub]}" = "$fam" ] && want="$want $stub"
    done
    for n in $want; do
        case " $names " in
        *" $n "*) ;;
        *) problem "$fam.3: its NAME section does not list $n" ;;
        esac
    done
done

# 4. the synopses against blacs.h
cc=${MAN_CHECK_CC:-cc} # not CC: make's CC may be mpicc, whose own mpi.h would come first
if [ ! -f "$header" ]; then
    echo "man-check: no $header here: synopses not checked against it"
elif ! command -v "$cc" >/dev/null 2>&1; then
    echo "man-check: no C compiler ($cc): synopses not checked against blacs.h"
else
    mkdir -p "$tmp/inc"
    printf 'typedef int MPI_Comm;\n' >"$tmp/inc/mpi.h"
    # blacs.h's declarations, one a line, whitespace folded
    if ! "$cc" -E -P -I"$tmp/inc" "$header" 2>"$tmp/cpp.err" |
        tr '\n' ' ' | tr ';' '\n' | sed 's/[[:space:]]\{1,\}/ /g; s/^ //' >"$tmp/decls"; then
        problem "cannot preprocess $header:"
        sed 's/^/    /' "$tmp/cpp.err" >&2
    fi
    grep -o '\b\(C[a-z][A-Za-z0-9_]*\|[a-z][a-z0-9_]*_\) *(' "$tmp/decls" |
        sed 's/ *($//' | sort -u >"$tmp/declared"
    : >"$tmp/documented"
    echo '#include "blacs.h"' >"$tmp/protos.c"
    canon() { # a declaration in one spelling: single spaces, "type *name"
        sed 's/[[:space:]]\{1,\}/ /g; s/ *\* */ */g; s/ *( */(/g; s/ *) */)/g; s/ *, */, /g; s/^ //; s/ $//'
    }
    expand_v() { # NAME-or-prototype with v/Cv and TYPE: one line per type
        local text=$1 t ctype
        case $text in
        *Cv[a-z]* | *TYPE*)
            for t in i s d c z; do
                case $t in i) ctype=blacs_int ;; s | c) ctype=float ;; d | z) ctype=double ;; esac
                printf '%s\n' "$text" | sed "s/\bCv\([a-z]\)/C$t\1/g; s/\bTYPE\b/$ctype/g"
            done
            ;;
        *) printf '%s\n' "$text" ;;
        esac
    }
    for fam in $families; do
        f=$mandir/$fam.3
        [ -f "$f" ] || continue
        text=$(groff -man -Tascii -P-c -P-b -P-u "$f" 2>/dev/null | sed 's/.\x08//g')
        # C: the prototypes between "   C" and "   Fortran" of the SYNOPSIS
        csyn=$(printf '%s\n' "$text" | awk '/^[A-Z]/{sec=$0} sec=="SYNOPSIS" && /^   [A-Za-z]/{sub_=$1; next}
            sec=="SYNOPSIS" && sub_=="C" && !/#include/' | tr '\n' ' ' | tr ';' '\n' |
            sed 's/[[:space:]]\{1,\}/ /g; s/^ //; s/ $//; s/( /(/g; s/ )/)/g' | grep -v '^$')
        # Fortran: NAME(ARGS) after SUBROUTINE or FUNCTION, ARGS counted
        fsyn=$(printf '%s\n' "$text" | awk '/^[A-Z]/{sec=$0} sec=="SYNOPSIS" && /^   [A-Za-z]/{sub_=$1; next}
            sec=="SYNOPSIS" && sub_=="Fortran"' | tr '\n' ' ' | sed 's/[[:space:]]\{1,\}/ /g' |
            grep -o '\(SUBROUTINE\|FUNCTION\) [A-Za-z0-9_]*([^)]*)' | sed 's/^[A-Z]* //')
        if [ -z "$csyn" ] || [ -z "$fsyn" ]; then
            [ "$fam" = blacs ] || problem "$fam.3: no C or no Fortran subsection in its SYNOPSIS"
            continue
        fi
        while IFS= read -r proto; do
            expand_v "$proto" >>"$tmp/protos.c.new"
        done <<<"$csyn"
        sed 's/$/;/' "$tmp/protos.c.new" >>"$tmp/protos.c"
        # the same text as blacs.h, argument names included (two char * or
        # two blacs_int swapped would still compile)
        while IFS= read -r proto; do
            cname=$(printf '%s\n' "$proto" | grep -o '\bC[a-z][A-Za-z0-9_]* *(' | head -1 | sed 's/ *($//')
            [ -n "$cname" ] || continue
            decl=$(grep -m1 "\b$cname *(" "$tmp/decls" | canon)
            [ -z "$decl" ] || [ "$(printf '%s\n' "$proto" | canon)" = "$decl" ] ||
                problem "$fam.3: the synopsis has '$proto', blacs.h '$decl'"
        done <"$tmp/protos.c.new"
        grep -o '\bC[a-z][A-Za-z0-9_]* *(' "$tmp/protos.c.new" | sed 's/ *($//' >>"$tmp/documented"
        rm -f "$tmp/protos.c.new"
        while IFS= read -r call; do
            fname=${call%%(*}
            case $fname in INIT | OP | POST) continue ;; esac # the caller's functions
            args=${call#*(}
            args=${args%)}
            nargs=$(printf '%s\n' "$args" | awk -F, '{print ($0 ~ /[A-Za-z]/) ? NF : 0}')
            for n in $(printf '%s\n' "$fname" | sed 's/^v\(.*\)/i\1 s\1 d\1 c\1 z\1/'); do
                sym=$(printf '%s' "$n" | tr '[:upper:]' '[:lower:]')_
                echo "$sym" >>"$tmp/documented"
                decl=$(grep -m1 "\b$sym *(" "$tmp/decls")
                if [ -z "$decl" ]; then
                    problem "$fam.3: Fortran $fname: blacs.h declares no $sym"
                    continue
                fi
                dargs=$(printf '%s' "$decl" | sed "s/.*\b$sym *(\([^)]*\)).*/\1/" |
                    awk -F, '{print ($0 ~ /[A-Za-z]/ && $0 !~ /^ *void *$/) ? NF : 0}')
                [ "$nargs" = "$dargs" ] ||
                    problem "$fam.3: Fortran $fname has $nargs arguments, blacs.h's $sym $dargs"
            done
        done <<<"$fsyn"
    done
    if ! "$cc" -std=c11 -fsyntax-only -I"$tmp/inc" -I"$(dirname "$header")" "$tmp/protos.c" 2>"$tmp/cc.err"; then
        problem "the C synopses disagree with blacs.h:"
        grep -E 'error|note: previous' "$tmp/cc.err" | sed 's/^/    /' >&2
    fi
    sort -u "$tmp/documented" -o "$tmp/documented"
    for n in $(comm -23 "$tmp/documented" "$tmp/declared"); do
        problem "a SYNOPSIS documents $n, which blacs.h does not declare"
    done
    for n in $(comm -13 "$tmp/documented" "$tmp/declared"); do
        problem "blacs.h declares $n, which no SYNOPSIS documents"
    done
fi

# 5. every exported name has a page
if [ -n "$library" ]; then
    nm -D --defined-only "$library" | awk '$2 ~ /^[TW]$/ {print $3}' | sed 's/_*$//' |
        awk '/^[A-Z0-9_]+$/ {print tolower($0); next} {print}' | sort -u >"$tmp/exported"
    sh "$here/tools/man-aliases.sh" >"$tmp/aliases"
    while read -r n f; do
        [ -f "$mandir/$f.3" ] && ! grep -q '^\.so' "$mandir/$f.3" || problem "tools/man-aliases.sh: $n's page $f.3 is not a family page"
        [ ! -e "$mandir/$n.3" ] || problem "$n has a page in $mandir and one in tools/man-aliases.sh"
    done <"$tmp/aliases"
    { cut -d' ' -f1 "$tmp/aliases"; for f in "$mandir"/*.3; do basename "$f" .3; done; } | sort -u >"$tmp/paged"
    for n in $(comm -23 "$tmp/exported" "$tmp/paged"); do
        problem "$(basename "$library") exports $n, which has no page (add it to tools/man-aliases.sh)"
    done
    for n in $(comm -13 "$tmp/exported" <(cut -d' ' -f1 "$tmp/aliases" | sort -u)); do
        problem "tools/man-aliases.sh names $n, which $(basename "$library") does not export"
    done
    [ -s "$tmp/exported" ] || problem "no names exported by $library"
    names=" and $(wc -l <"$tmp/exported") exported names with a page each"
fi

if [ $fail -ne 0 ]; then
    echo "man-check: FAILED" >&2
    exit 1
fi
echo "man-check: $pages pages, no warnings${names:-}"
