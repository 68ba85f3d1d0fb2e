#!/usr/bin/env bash
# sim/scalapack/table.sh DIR - the tables of `make sim-scalapack` from
# DIR/runs.csv and DIR/stats/*.csv (sim/scalapack/run.sh):
#   DIR/table.md      per platform, driver and p: the reference's and this
#                     library's simulated times, their ratio (above 1: this
#                     library is faster), the busiest process's BLAS time
#                     (what no network removes), each one's time beyond it,
#                     and the simulation's CPU time, this library's over the
#                     reference's (a proxy for the MPI calls made)
#   DIR/breakdown.md  where this library's BLACS time went (BLACS_STATS):
#                     per routine family, TOP and algorithm, the calls and
#                     seconds a process spent inside (of it, waiting), as a
#                     mean over the processes, largest first
#   DIR/calls.md      (SIM_SL_CALLS) both libraries' time inside the BLACS
#                     calls ScaLAPACK made, per operation, scope and TOP,
#                     measured from outside them (sim/scalapack/calls.c):
#                     where this library's time differs from the reference's
#   DIR/mpi.md        (SIM_SL_MPI) the MPI calls each run made, a process,
#                     per MPI function, from SMPI's trace
set -euo pipefail
dir=$1
[ -s "$dir/runs.csv" ] || { echo "table.sh: $dir/runs.csv is missing" >&2; exit 1; }
{
    echo "# ScaLAPACK's drivers, simulated: the reference BLACS against this library"
    echo
    sed 's/^/    /' "$dir/meta.txt"
    echo
    echo "Times are simulated seconds of one call of the driver (the slowest process)."
    echo "ref / this above 1: this library is faster.  BLAS: the busiest process's simulated"
    echo "BLAS time; beyond BLAS: the driver's time less that (communication and waiting)."
    echo "CPU: the simulator's own CPU seconds, this library's run over the reference's."
    echo
    echo "| platform | placement | driver | p (grid) | N | reference s | this library s | ref / this | BLAS s | beyond BLAS, ref | beyond BLAS, this | CPU this / ref |"
    echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F, 'NR > 1 {
        k = $1 "," $2 "," $3 "," $4
        if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
        grid[k] = $5; n[k] = $6; blas[k] = $11
        t[k, $8] = $9; cpu[k, $8] = $14
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = order[i]; split(k, f, ",")
            if (t[k, "ref"] == "" || t[k, "ours"] == "") continue
            printf "| %s | %s | PD%s | %s (%s) | %s | %.6f | %.6f | **%.3f** | %.6f | %.6f | %.6f | %.2f |\n",
                f[1], f[2], toupper(f[3]), f[4], grid[k], n[k], t[k, "ref"], t[k, "ours"],
                t[k, "ref"] / t[k, "ours"], blas[k], t[k, "ref"] - blas[k], t[k, "ours"] - blas[k],
                (cpu[k, "ref"] > 0 ? cpu[k, "ours"] / cpu[k, "ref"] : 0)
        }
    }' "$dir/runs.csv"
} >"$dir/table.md"

{
    echo "# Where this library's BLACS time went (BLACS_STATS, one simulated run each)"
    echo
    echo "Per routine family, TOP and algorithm: calls and seconds per process (mean over the"
    echo "processes; max: the busiest process), of which waiting for a message, and the MPI calls"
    echo "the library made for a call (sends, receives, tests, waits).  '_' is the blank TOP."
    for f in "$dir"/stats/*.csv; do
        [ -s "$f" ] || continue
        echo
        echo "## $(basename "$f" .csv)"
        echo
        echo "| family | TOP | algorithm | calls / process | bytes avg | inside s (mean) | inside s (max) | waiting s (mean) | MPI calls / call |"
        echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
        awk -F, 'NR > 1 {
            k = $2 "|" $3 "|" $4
            calls[k] += $5; bytes[k] += $9; in_s[k] += $10; wait_s[k] += $11; mpi[k] += $12
            if ($10 > mx[k]) mx[k] = $10
            procs[$1] = 1
        }
        END {
            np = 0; for (p in procs) np++
            for (k in calls) {
                split(k, f, "|")
                printf "%.9f| %s | %s | %s | %.1f | %.0f | %.6f | %.6f | %.6f | %.1f |\n", in_s[k] / np, f[1], f[2], f[3],
                    calls[k] / np, calls[k] ? bytes[k] / calls[k] : 0, in_s[k] / np, mx[k], wait_s[k] / np,
                    calls[k] ? mpi[k] / calls[k] : 0
            }
        }' "$f" | sort -t'|' -k1,1 -g -r | cut -d'|' -f2- | sed 's/^/|/'
    done
} >"$dir/breakdown.md"

# section REF KIND HEADER RULE: the heading of one run's table in calls.md or
# mpi.md (KIND: calls, mpi), from the reference's log REF; fails where this
# library's log of the same run is missing
section() {
    [ -s "${1%-ref-"$2".log}-ours-$2.log" ] || return 1
    printf '\n## %s\n\n%s\n%s\n' "$(basename "${1%-ref-"$2".log}")" "$3" "$4"
}

# logs/PLATFORM-PLACE-DRIVER-pP-IMPL-mpi.log: "mpi: fn=... calls=..." and "mpi: processes=..."
traced=$(ls "$dir"/logs/*-ref-mpi.log 2>/dev/null || true)
if [ -n "$traced" ]; then
    {
        cat <<'EOF'
# The MPI calls each library made (SMPI's trace)

Every MPI call SMPI traces (sends, receives, waits, tests and collectives; not
MPI_Iprobe or MPI_Cancel; a collective counts once), a process, per function;
most calls first.
EOF
        for ref in $traced; do
            ours=${ref%-ref-mpi.log}-ours-mpi.log
            section "$ref" mpi "| MPI function | reference, a process | this library, a process | this / ref |" \
                "|---|---:|---:|---:|" || continue
            awk '/^mpi: processes=/ { split($2, kv, "="); np[FILENAME] = kv[2] }
                /^mpi: fn=/ { split($2, f, "="); split($3, c, "="); impl = FILENAME ~ /-ref-mpi.log$/ ? "ref" : "ours"
                              n[f[2], impl] += c[2]; fn[f[2]] = 1; all[impl] += c[2]; file[impl] = FILENAME }
                END {
                    pr = (np[file["ref"]] > 0 ? np[file["ref"]] : 1); po = (np[file["ours"]] > 0 ? np[file["ours"]] : 1)
                    for (k in fn)
                        printf "%.1f|| %s | %.1f | %.1f | %s |\n", n[k, "ref"] / pr + n[k, "ours"] / po, k,
                            n[k, "ref"] / pr, n[k, "ours"] / po, (n[k, "ref"] > 0 ? sprintf("%.2f", (n[k, "ours"] / po) / (n[k, "ref"] / pr)) : "-")
                    printf "0|| all | %.1f | %.1f | %.2f |\n", all["ref"] / pr, all["ours"] / po,
                        (all["ref"] > 0 ? (all["ours"] / po) / (all["ref"] / pr) : 0)
                }' "$ref" "$ours" | sort -t'|' -k1,1 -g -r | awk -F'[|][|]' '$2 !~ /^ all / { print "|" $2 } $2 ~ /^ all / { last = "|" $2 } END { print last }'
        done
    } >"$dir/mpi.md"
fi

# logs/PLATFORM-PLACE-DRIVER-pP-IMPL-calls.log: "calls: op=... scope=... top=... calls=... bytes=... mean_s=... max_s=..."
calls=$(ls "$dir"/logs/*-ref-calls.log 2>/dev/null || true)
[ -n "$calls" ] || exit 0
{
    echo "# Inside the BLACS calls: the reference against this library"
    echo
    echo "Every BLACS call ScaLAPACK made (double and integer; broadcasts, point to point, sums,"
    echo "absolute max and min, barriers), timed from outside the library (sim/scalapack/calls.c),"
    echo "per operation, scope (R, C, A; '-': point to point) and TOP ('_': blank): the calls a"
    echo "process, their mean bytes, and the simulated seconds a process spent inside them (the"
    echo "mean over the processes, and the busiest); this - ref above 0: this library spent longer."
    echo "Largest difference first."
    for ref in $calls; do
        ours=${ref%-ref-calls.log}-ours-calls.log
        section "$ref" calls "| operation | scope | TOP | calls / process | bytes avg | ref s (mean) | this s (mean) | this - ref s | ref s (max) | this s (max) |" \
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|" || continue
        awk '/^calls: / {
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            k = v["op"] "|" v["scope"] "|" v["top"]; if (!(k in seen)) { seen[k] = 1; key[++nk] = k }
            impl = FILENAME ~ /-ref-calls.log$/ ? "ref" : "ours"
            mean[k, impl] = v["mean_s"]; most[k, impl] = v["max_s"]; n[k] = v["calls"]; b[k] = v["bytes"]
        }
        END {
            for (i = 1; i <= nk; i++) {
                k = key[i]; split(k, f, "|"); d = mean[k, "ours"] - mean[k, "ref"]
                printf "%.9f|| %s | %s | %s | %.1f | %.0f | %.6f | %.6f | %+.6f | %.6f | %.6f |\n", (d < 0 ? -d : d),
                    f[1], f[2], f[3], n[k], b[k], mean[k, "ref"], mean[k, "ours"], d, most[k, "ref"], most[k, "ours"]
            }
        }' "$ref" "$ours" | sort -t'|' -k1,1 -g -r | cut -d'|' -f2-
        awk '/^calls: / { split($7, m, "="); t[FILENAME ~ /-ref-calls.log$/] += m[2] }
            END { printf "| all | | | | | %.6f | %.6f | %+.6f | | |\n", t[1], t[0], t[0] - t[1] }' "$ref" "$ours"
    done
} >"$dir/calls.md"
