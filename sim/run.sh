#!/usr/bin/env bash
# sim/run.sh - `make sim`: simbench under SMPI on each p of SIM_P, this
# library and MPI's collectives (and the reference BLACS when SIM_REF names a
# simbench linked against it), then the analysis.  Results go to
# results/sim-<date-time>/:
#
#   ours-pP.csv, ref-pP.csv  the measurements (simbench's CSV)
#   ours-pP.log, ref-pP.log  simulator output, wall time and peak memory
#   meta.txt                 how the run was made
#   table.md, *.png, data/   sim/analyze.sh
#
# Options (environment or make variables): see sim/common.sh and sim/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. sim/common.sh

for bin in "$BUILD/sim/simbench" ${SIM_REF:+"$SIM_REF"}; do
    [ -x "$bin" ] || { echo "sim: $bin is missing (make sim-build)" >&2; exit 1; }
done

stamp=$(date +%Y%m%d-%H%M%S)
out=$RESULTS/sim-$stamp
[ -e "$out" ] && out=$out-$$
mkdir -p "$out"
{
    echo "make sim (sim/run.sh)"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:      $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "simgrid:   $($SMPIRUN -version 2>/dev/null | head -1)"
    echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
    echo "platform:  $PLATFORM"
    echo "smpi:      ${SIM_CFG[*]}"
    echo "p:         $SIM_P"
    echo "sizes:     $SIM_SIZES; tops $SIM_TOPS; ops $SIM_OPS"
    echo "memory:    private up to p x bytes = $SIM_PRIVATE_MAX; library buffers shared above $SIM_SHARED_ABOVE"
    echo "reference: ${SIM_REF:-none}"
} >"$out/meta.txt"
echo "sim: results in $out (p = $SIM_P)"

t0=$SECONDS
for p in $SIM_P; do
    sim_run "$out/ours-p$p" "$p" "$BUILD/sim/simbench" --mpi yes
    [ -z "$SIM_REF" ] || sim_run "$out/ref-p$p" "$p" "$SIM_REF" --mpi no
done
echo "sim: simulated in $((SECONDS - t0)) s" | tee -a "$out/meta.txt"

bash sim/analyze.sh "$out"
