#!/usr/bin/env bash
# sim/repeat.sh - make sim-check's test of BLACS_SET 15 (a few seconds): a
# repeatable sum gives the same bits whatever the grid measured.
#
# Two platforms of the same shape (4 hosts of 8 processes, placed by node),
# one with a fast network (25 GB/s, 1 us a message) and one with a slow one
# (2 GB/s, 20 us), no BLACS_MODEL and no tuning file: each grid measures
# its platform when it is created (blacs/machine.c), and the two find
# different models.  build/sim/repeat (sim/repeat.c) runs DGSUM2D of
# order-sensitive doubles on the 32 processes, to all and to one, with
# the default TOP and a ring, at counts from 1 to 32 Ki.
#   - without code 15 the measurement must change something: at least one
#     sum of the default TOP with other bits on the two platforms (else this
#     test would prove nothing, and fails);
#   - with code 15 every sum has the same bits on both platforms, and the
#     default TOP ran the same algorithms.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
. sim/common.sh
fail() { echo "sim-check: repeat: FAILED: $*" >&2; exit 1; }
[ -x "$BUILD/sim/repeat" ] || fail "$BUILD/sim/repeat is missing"
work=$BUILD/sim/check/repeat
rm -rf "$work"
mkdir -p "$work"
unset BLACS_MODEL
export BLACS_MODEL_FILE=

awk 'BEGIN { for (r = 0; r < 32; r++) print "node-" int(r / 8) }' >"$work/hostfile" # ranks 0-7 on node-0, ...
platform() { # NAME CARD HOP LOOPBACK LOOPBACK_LAT
    cat >"$work/$1.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-3" speed="1Gf" core="8"
           bw="$2" lat="$3" sharing_policy="SPLITDUPLEX" bb_bw="$2" bb_lat="0us" bb_sharing_policy="FATPIPE"
           loopback_bw="$4" loopback_lat="$5" limiter_link="80GBps"/>
</platform>
EOF
}
platform fast 25GBps 0.5us 40GBps 0.2us
platform slow 2GBps 10us 4GBps 2us

for code in 0 1; do
    for p in fast slow; do
        "$SMPIRUN" -quiet -np 32 -platform "$work/$p.xml" -hostfile "$work/hostfile" "${SIM_CFG[@]}" \
            "$BUILD/sim/repeat" --tops _I --counts 1,64,512,4096,32768 --repeatable $code \
            >"$work/$p-$code.txt" 2>"$work/$p-$code.log" || { cat "$work/$p-$code.log" >&2; fail "the run on $p"; }
        grep -q "^repeat: done" "$work/$p-$code.log" || fail "the run on $p did not finish"
        [ "$(wc -l <"$work/$p-$code.txt")" = 20 ] || fail "$p-$code.txt: expected 20 sums"
    done
done
# the measurement matters: without code 15, some default sum differs
differ=$(paste -d' ' "$work/fast-0.txt" "$work/slow-0.txt" |
    awk '$1 == "top=_" && $5 != $10 { n++ } END { print n + 0 }')
[ "$differ" -gt 0 ] || fail "without BLACS_SET 15 the two platforms gave the same bits: the test proves nothing"
# with code 15: the same bits everywhere, and the default's same algorithms
bad=$(paste -d' ' "$work/fast-1.txt" "$work/slow-1.txt" |
    awk '$5 != $10 || ($1 == "top=_" && $4 != $9) { print; n++ } END { exit n > 0 }') ||
    { echo "$bad" >&2; fail "with BLACS_SET 15 a sum differs between the two platforms"; }
echo "sim-check: repeat: BLACS_SET 15: 20 sums with the same bits on a fast and a slow network ($differ of the default's 10 differ without it)"
