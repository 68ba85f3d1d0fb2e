#!/usr/bin/env bash
# sim/run.sh - `make sim`: simbench under SMPI on each p of SIM_P, this
# library and MPI's collectives (and the reference BLACS when SIM_REF names a
# simbench linked against it), then the analysis.  Results go to
# results/sim-<date-time>/:
#
#   ours-pP.csv, ref-pP.csv  the measurements (simbench's CSV)
#   mpi-SEL-pP.csv           MPI alone under another selector (SIM_SELECTORS)
#   ours-pP.log, ref-pP.log  simulator output, wall time and peak memory
#   meta.txt                 how the run was made
#   table.md, *.png, data/   sim/analyze.sh
#
# Options (environment or make variables): see sim/common.sh and sim/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. sim/common.sh

stamp=$(date +%Y%m%d-%H%M%S)
out=$RESULTS/sim-$stamp
[ -e "$out" ] && out=$out-$$
sim_campaign "$out" "make sim (sim/run.sh)"
