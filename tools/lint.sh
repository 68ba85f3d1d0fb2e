#!/usr/bin/env bash
# tools/lint.sh OBJDIR - checks on the source that the compiler does not make:
#   1. the layers and cycles (tools/check-layers.sh, on the built objects);
#   2. no function of the library over 80 lines;
#   3. every C file formatted as .clang-format says (clang-format 14).
set -uo pipefail
obj=${1:-build/obj}
cd "$(dirname "$0")/.."
status=0

echo "lint: 1. layers"
bash tools/check-layers.sh "$obj" || status=1

echo "lint: 2. function length (at most 80 lines)"
# Functions open with '{' in column 0 and close with '}' in column 0.
long=$(awk 'FNR == 1 { infn = 0 }
            /^\{/ && !infn { infn = 1; start = FNR; next }
            /^\}/ && infn { infn = 0; if (FNR - start + 1 > 80) print "  " FILENAME ":" start ": " FNR - start + 1 " lines" }' \
    base/*.c buffers/*.c msgid/*.c topologies/*.c blacs/*.c)
nfn=$(cat base/*.c buffers/*.c msgid/*.c topologies/*.c blacs/*.c | grep -c '^{')
if [ -n "$long" ]; then
    echo "lint: functions over 80 lines:"
    echo "$long"
    status=1
elif [ "$nfn" -lt 100 ]; then # the count proves the pattern still finds functions
    echo "lint: only $nfn functions found: the length check no longer matches the code's style"
    status=1
else
    echo "  $nfn functions, none over 80 lines"
fi

echo "lint: 3. format"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build/*')
if ! command -v clang-format >/dev/null; then
    echo "lint: clang-format is missing (sh tools/install-deps.sh installs it)"
    status=1
elif ! clang-format --dry-run --Werror $files 2>"${TMPDIR:-/tmp}/lint-format.$$"; then
    grep -E '^[^ ]+:[0-9]+:[0-9]+: error' "${TMPDIR:-/tmp}/lint-format.$$" | cut -d: -f1 | sort | uniq -c |
        sed 's/^/  not formatted (lines): /'
    echo "lint: run 'make format' to format them"
    status=1
else
    echo "  $(echo "$files" | wc -l) files formatted"
fi
rm -f "${TMPDIR:-/tmp}/lint-format.$$"
[ $status = 0 ] && echo "lint: passed"
exit $status
