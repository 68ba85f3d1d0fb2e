#!/usr/bin/env bash
# sim/sweep-times.sh - `make sim-sweep-times`: the default TOP ' ' against
# the fastest of SMPI's three MPI selectors on random clusters nobody tuned
# for, the library as a user gets it (no BLACS_MODEL, no tuning file).
#
# For each seed of SIM_TIMES_SEEDS, sim/platform.sh draws a cluster of
# multi-core nodes and a process count (SIM_TIMES_PMIN-SIM_TIMES_PMAX), and
# simbench runs on it the broadcast, the sum to all and the sum to one of
# SIM_TIMES_SIZES, once with TOP ' ' and SMPI's `ompi` collectives, then
# with the `mpich` and `mvapich2` collectives alone.  A selector whose run
# fails or outlasts SIM_TIMES_LIMIT seconds is left out of that platform's
# best (SMPI's `mpich` selector deadlocks on some shapes) and named.
#
# Writes OUT/seed-S/ (platform, CSV and log of each run) and OUT/summary.md:
# every cell's time / the best MPI, the cells above the goals (1.2 x up to
# 4 KiB, 1.05 x from 64 KiB) marked, and a row a platform with its worst
# ratio per operation.  Exit status 0 whether or not goals are met: this is
# a measurement, not a check (the sweep of sim/sweep.sh checks).
#
# Options: SIM_TIMES_SEEDS ("101 ... 124"), SIM_TIMES_PMIN/PMAX (64, 1024),
# SIM_TIMES_SIZES (8,4K,64K,1M,8M), SIM_TIMES_LIMIT (3600), SIM_TIMES_MEMORY
# (4G: sizes whose vectors on all processes exceed it are left out),
# SIM_TIMES_OUT (results/sim-times-DATE; the platforms already simulated
# there are kept, so that a run resumes and runs on other seeds merge).
set -uo pipefail
cd "$(dirname "$0")/.."
. sim/common.sh
seeds=${SIM_TIMES_SEEDS:-$(seq -s ' ' 101 124)}
pmin=${SIM_TIMES_PMIN:-64} pmax=${SIM_TIMES_PMAX:-1024}
sizes=${SIM_TIMES_SIZES:-8,4K,64K,1M,8M}
limit=${SIM_TIMES_LIMIT:-3600}
memory=${SIM_TIMES_MEMORY:-4G}
out=${SIM_TIMES_OUT:-$RESULTS/sim-times-$(date -u +%Y%m%d-%H%M%S)}
bin=$BUILD/sim/simbench
[ -x "$bin" ] || sim_die "$bin is missing (make sim-build)"
unset BLACS_MODEL BLACS_ALGORITHM BLACS_MODEL_FILE
export BLACS_MODEL_FILE= # no tuning file, wherever one is installed
mkdir -p "$out"

for s in $seeds; do
    dir=$out/seed-$s
    # a platform already simulated in OUT is kept (a run resumed, or runs merged)
    [ ! -f "$dir/summary.txt" ] || { cat "$dir/summary.txt"; continue; }
    desc=$(bash sim/platform.sh "$s" "$dir" "$pmin" "$pmax")
    p=$(sed -n 's/.* p=\([0-9]*\) .*/\1/p' "$dir/platform.txt")
    t1=$SECONDS failed="" these=""
    # sizes whose vectors on every process exceed SIM_TIMES_MEMORY in all are
    # left out (the library's buffers would need SMPI's shared memory, where
    # the broadcasts' data could not be checked)
    for b in ${sizes//,/ }; do
        [ $((p * $(bytes_of "$b"))) -gt $(($(bytes_of "$memory"))) ] || these=${these:+$these,}$b
    done
    [ "$these" = "$sizes" ] || echo "seed $s: p = $p, sizes $these only (SIM_TIMES_MEMORY=$memory)" >&2
    for sel in ompi mpich mvapich2; do
        mode=only tops=()
        [ $sel != ompi ] || mode=yes tops=(--tops _)
        timeout "$limit" "$SMPIRUN" -quiet -np "$p" -platform "$dir/platform.xml" -hostfile "$dir/hostfile" \
            "${SIM_CFG[@]}" --cfg=smpi/coll-selector:$sel "$bin" --sizes "$these" "${tops[@]}" \
            --ops bcast,allreduce,reduce --private-max 1G --mpi $mode --mpi-impl "mpi-$sel" \
            --csv "$dir/$sel.csv.part" >"$dir/$sel.log" 2>&1
        if [ $? = 0 ] && grep -q "^simbench: done" "$dir/$sel.log"; then
            mv "$dir/$sel.csv.part" "$dir/$sel.csv"
        else
            [ $sel != ompi ] || sim_die "seed $s: the library's run failed ($dir/$sel.log)"
            failed="$failed $sel"
        fi
    done
    [ "$these" = "$sizes" ] || failed="$failed sizes beyond $these"
    echo "$desc | wall $((SECONDS - t1)) s${failed:+ | left out:$failed}" | tee "$dir/summary.txt"
done

# every cell: seed, op, bytes, ours, best MPI, its selector, ratio, mark
for s in $seeds; do
    cat "$out/seed-$s"/*.csv | awk -F, -v seed="$s" '
    $1 == "impl" { next }
    $1 ~ /^mpi/ { k = $2 SUBSEP $5; if (!(k in B) || $6 < B[k]) { B[k] = $6; W[k] = substr($1, 5) } next }
    { O[$2 SUBSEP $5] = $6 }
    END { for (k in O) { split(k, a, SUBSEP); r = O[k] / B[k]
          printf "%s,%s,%s,%.2f,%.2f,%s,%.3f,%s\n", seed, a[1], a[2], O[k], B[k], W[k], r,
                 (r > (a[2] <= 4096 ? 1.2 : 1.05) ? "MISS" : "ok") } }'
done | sort -t, -k1,1n -k2,2 -k3,3n >"$out/cells.csv"

{
    echo "# ' ' / the best of SMPI's ompi, mpich and mvapich2 on random platforms"
    echo
    echo "commit $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)');" \
        "no BLACS_MODEL, no tuning file; sizes $sizes; goals 1.2 x up to 4 KiB, 1.05 x from 64 KiB."
    echo
    echo "| seed | platform | worst broadcast | worst sum to all | worst sum to one | cells above the goal |"
    echo "|---:|---|---|---|---|---:|"
    for s in $seeds; do
        awk -F, -v seed="$s" -v desc="$(cut -d'|' -f1 "$out/seed-$s/summary.txt" | sed 's/^seed=[0-9]* //; s/ *$//')" \
            -v left="$(sed -n 's/.*left out: *//p' "$out/seed-$s/summary.txt")" '
        function h(n) { return n >= 1048576 ? n / 1048576 " MiB" : n >= 1024 ? n / 1024 " KiB" : n " B" }
        $1 == seed { if ($7 > W[$2]) { W[$2] = $7; at[$2] = h($3) } if ($8 == "MISS") miss++ }
        END { printf "| %s | %s%s | %.2f (%s) | %.2f (%s) | %.2f (%s) | %d |\n", seed, desc,
              left != "" ? " (left out: " left ")" : "", W["bcast"], at["bcast"], W["allreduce"],
              at["allreduce"], W["reduce"], at["reduce"], miss }' "$out/cells.csv"
    done
    echo
    echo "Cells above the goal (seed, operation, bytes, ' ' us, best MPI us, selector, ratio):"
    echo
    grep MISS "$out/cells.csv" | sed 's/^/    /' || echo "    none"
} >"$out/summary.md"
cat "$out/summary.md"
