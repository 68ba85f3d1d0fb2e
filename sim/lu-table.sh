#!/usr/bin/env bash
# sim/lu-table.sh RUNS.CSV - make sim-lu's tables (markdown, on stdout):
# per machine (platform, placement, p, grid, N, NB, pivot, core rates) a
# table of row TOPs against column TOP and look-ahead, simulated time in
# seconds and fraction of peak (p x the core's DGEMM rate), the fastest in
# bold; then every run with its wall time.
set -euo pipefail
csv=${1:?usage: sim/lu-table.sh RUNS.CSV}
awk -F, '
function top(t) { return t == "_" ? "'"'"' '"'"'" : "'"'"'" t "'"'"'" }
NR == 1 { next }
{
    m = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $10 "," $11 "," $12
    if (!(m in seen)) { seen[m] = 1; ms[++nm] = m }
    if (!((m, $7) in rs)) { rs[m, $7] = 1; rl[m] = rl[m] $7 }
    c = $8 SUBSEP $9
    if (!((m, c) in cs)) { cs[m, c] = 1; cl[m, ++nc[m]] = c }
    t[m, $7, c] = $13; f[m, $7, c] = $15
    if (!(m in best) || $13 + 0 < best[m]) best[m] = $13 + 0
    row[NR] = $0
}
END {
    for (i = 1; i <= nm; i++) {
        m = ms[i]; split(m, a, ",")
        printf "\n**%s%s, p = %s (%s), N = %s, NB = %s, pivot %s; core: %s GFLOP/s DGEMM, %s GB/s**\n\n",
            a[1], a[1] == "flat" ? "" : " (placed by " a[2] ")", a[3], a[4], a[5], a[6], a[7], a[8], a[9]
        printf "| row TOP |"
        for (k = 1; k <= nc[m]; k++) { split(cl[m, k], cc, SUBSEP); printf " col %s, la %s |", top(cc[1]), cc[2] }
        printf "\n|---|"
        for (k = 1; k <= nc[m]; k++) printf "---:|"
        printf "\n"
        for (j = 1; j <= length(rl[m]); j++) {
            r = substr(rl[m], j, 1)
            printf "| %s |", top(r)
            for (k = 1; k <= nc[m]; k++) {
                if ((m, r, cl[m, k]) in t) {
                    v = t[m, r, cl[m, k]]
                    s = sprintf("%.5f s (%.2f)", v, f[m, r, cl[m, k]])
                    printf " %s |", v + 0 == best[m] ? "**" s "**" : s
                } else printf " |"
            }
            printf "\n"
        }
    }
    printf "\nEvery run (time: simulated seconds; peak: p x the DGEMM rate; wall: the simulation'"'"'s seconds on this machine):\n\n"
    printf "| platform | place | p | grid | N | NB | row TOP | col TOP | look-ahead | pivot | time (s) | GFLOP/s | of peak | wall (s) | memory (GiB) |\n"
    printf "|---|---|---:|---|---:|---:|---|---|---:|---|---:|---:|---:|---:|---:|\n"
    for (r = 2; r <= NR; r++) {
        split(row[r], a, ",")
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
            a[1], a[2], a[3], a[4], a[5], a[6], top(a[7]), top(a[8]), a[9], a[10], a[13], a[14], a[15], a[16], a[17]
    }
}' "$csv"
