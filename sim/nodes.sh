#!/usr/bin/env bash
# sim/nodes.sh - `make sim-nodes`: the library as a user gets it (no
# BLACS_MODEL) on simulated clusters of 16-core nodes, against the fastest of
# SMPI's MPI collective selectors.  For each platform:placement of SIM_NODES
# (default "nodes16:node nodes16:rr"), a campaign as `make sim` runs one
# (sim_campaign in sim/common.sh) in results/sim-nodes-<date-time>/PLATFORM-PLACE/,
# then sim/nodes-table.sh writes the summary:
#
#   table.md     per operation, TOP against size and placement: time / best MPI
#   ratios.csv   the same numbers, with the times and the winning selector
#   meta.txt     how the run was made, wall time of every campaign
#
# Defaults here: SIM_P = every core of the platform (256 on nodes16, 1024 on
# nodes64), SIM_SIZES=8,4K,64K,1M,8M, SIM_TOPS=_ISMHT1.  Other options as for
# `make sim` (sim/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SIM_NODES=${SIM_NODES:-"nodes16:node nodes16:rr"}
nodes_p=${SIM_P:-}
export SIM_SIZES=${SIM_SIZES:-8,4K,64K,1M,8M} SIM_TOPS=${SIM_TOPS:-_ISMHT1}
. sim/common.sh

stamp=$(date +%Y%m%d-%H%M%S)
out=$RESULTS/sim-nodes-$stamp
[ -e "$out" ] && out=$out-$$
mkdir -p "$out"
{
    echo "make sim-nodes (sim/nodes.sh)"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
    echo "runs:      $SIM_NODES; p ${nodes_p:-every core}"
    echo "sizes:     $SIM_SIZES; tops $SIM_TOPS; ops $SIM_OPS"
} >"$out/meta.txt"
t0=$SECONDS
for run in $SIM_NODES; do
    SIM_PLATFORM=${run%%:*}
    SIM_PLACE=${run#*:}
    [ "$SIM_PLACE" != "$run" ] || sim_die "SIM_NODES: '$run' is not PLATFORM:PLACE"
    sim_platform
    SIM_P=${nodes_p:-$((SIM_HOSTS * SIM_CORES))}
    t1=$SECONDS
    sim_campaign "$out/$SIM_PLATFORM-$SIM_PLACE" "make sim-nodes (sim/nodes.sh), $run"
    echo "wall $run p=$SIM_P: $((SECONDS - t1)) s" | tee -a "$out/meta.txt"
done
echo "sim-nodes: simulated in $((SECONDS - t0)) s" | tee -a "$out/meta.txt"
bash sim/nodes-table.sh "$out"
