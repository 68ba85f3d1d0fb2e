#!/usr/bin/env bash
# sim/nodes-table.sh DIR - the summary of a `make sim-nodes` run (sim/nodes.sh):
# from DIR/PLATFORM-PLACE/*.csv (simbench's CSV: the library's rows and the MPI
# rows of every selector), per operation a table of every TOP against size and
# placement of time / the fastest MPI collective of the same size (the best of
# SMPI's selectors, each simulated on its own), with the best MPI time and its
# selector; in DIR/table.md, and every number in DIR/ratios.csv
# (platform,place,op,top,np,bytes,t_us,mpi_us,mpi_selector,ratio).
set -euo pipefail
dir=${1:?usage: sim/nodes-table.sh SIM_NODES_DIR}
shopt -s nullglob
csvs=("$dir"/*-*/*.csv)
[ ${#csvs[@]} -gt 0 ] || { echo "sim/nodes-table.sh: no CSV files in $dir/*-*/" >&2; exit 1; }

for f in "${csvs[@]}"; do
    run=$(basename "$(dirname "$f")")
    # the plain "mpi" rows are the run's first selector's (its meta.txt; ompi by default)
    first=$(sed -n 's/^selectors: *\([a-z0-9]*\).*/\1/p' "$(dirname "$f")/meta.txt" 2>/dev/null)
    awk -F, -v OFS=, -v run="$run" -v first="${first:-ompi}" \
        'FNR > 1 { if ($1 == "mpi") $1 = "mpi-" first; print run, $0 }' "$f"
done | awk -F, -v csv="$dir/ratios.csv" '
function human(n) {
    if (n >= 1048576 && n % 1048576 == 0) return (n / 1048576) " MiB"
    if (n >= 1024 && n % 1024 == 0) return (n / 1024) " KiB"
    return n " B"
}
function show(t) { return t == "_" ? "\x27 \x27" : "\x27" t "\x27" }
function add(list, x, sep) { return index(sep list sep, sep x sep) ? list : (list == "" ? x : list sep x) }
function num_sort(A, k,   i, j, x) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (A[j] + 0 < A[i] + 0) { x = A[i]; A[i] = A[j]; A[j] = x } }
{
    run = $1; impl = $2; op = $3; top = $4; p = $5 + 0; n = $6 + 0; t = $7 + 0
    col = run SUBSEP p
    cols = add(cols, run ":" p, " "); ps = add(ps, p, " ")
    ns = add(ns, n, " "); ops = add(ops, op, " ")
    if (impl ~ /^mpi(-|$)/) {
        sel = impl == "mpi" ? "ompi" : substr(impl, 5)
        sels = add(sels, sel, " ")
        k = col SUBSEP op SUBSEP n
        S[sel SUBSEP k] = t
        if (!(k in M) || t < M[k]) { M[k] = t; W[k] = sel }
        else if (t == M[k]) W[k] = W[k] "=" sel
    } else {
        tops[op] = add(tops[op], top, " ")
        T[col SUBSEP op SUBSEP top SUBSEP n] = t
    }
}
END {
    nc = split(cols, C, " "); nn = split(ns, N, " "); num_sort(N, nn)
    np = split(ps, P, " "); nsel = split(sels, SL, " ")
    for (c = 1; c <= nc; c++) { split(C[c], x, ":"); split(x[1], y, "-"); plats = add(plats, y[1], " ") }
    npl = split(plats, PL, " ")
    for (c = 1; c <= nc; c++) {
        split(C[c], x, ":"); split(x[1], y, "-")
        label[c] = (npl > 1 ? y[1] "/" : "") y[2] (np > 1 ? " p=" x[2] : "")
        colkey[c] = x[1] SUBSEP x[2]
    }
    opname["bcast"] = "broadcast (DGEBS2D/DGEBR2D)"
    opname["allreduce"] = "combine leave-on-all (DGSUM2D, RDEST = -1)"
    opname["reduce"] = "combine leave-on-one (DGSUM2D to {0,0})"
    print "# Simulated multi-core nodes: time / the fastest MPI collective"
    print ""
    print "Runs (platform-placement:p): " cols ".  node = ranks 0-15 on host 0, 16-31 on host 1, ...;"
    print "rr = round robin (rank r on host r mod hosts).  Each cell: the time of the TOP divided by"
    print "the time of the fastest of SMPI\x27s MPI collectives of the same operation and size on the"
    print "same processes (selectors " sels ", each simulated on its own).  Below 1: the"
    print "library is faster.  No BLACS_MODEL set: the library as a user gets it.  Every run\x27s"
    print "table.md (in its folder) has the times against the alpha-beta bounds as well."
    print ""
    print "platform,place,op,top,np,bytes,t_us,mpi_us,mpi_selector,ratio" > csv
    nop = split("bcast allreduce reduce", O, " ")
    for (o = 1; o <= nop; o++) {
        op = O[o]
        if (!index(" " ops " ", " " op " ")) continue
        nt = split(tops[op], TP, " ")
        printf "## %s\n\n", opname[op]
        h = "| TOP |"; s = "|---|"
        for (k = 1; k <= nn; k++) for (c = 1; c <= nc; c++) { h = h " " human(N[k]) " " label[c] " |"; s = s "---:|" }
        print h; print s
        for (t = 1; t <= nt; t++) {
            line = "| " show(TP[t]) " |"
            for (k = 1; k <= nn; k++) for (c = 1; c <= nc; c++) {
                kt = colkey[c] SUBSEP op SUBSEP TP[t] SUBSEP N[k]; km = colkey[c] SUBSEP op SUBSEP N[k]
                r = (kt in T) && (km in M) && M[km] > 0 ? T[kt] / M[km] : ""
                line = line " " (r == "" ? "" : sprintf("%.2f", r)) " |"
                if (kt in T) {
                    split(colkey[c], x, SUBSEP); split(x[1], y, "-")
                    printf "%s,%s,%s,%s,%d,%d,%.6f,%s,%s,%s\n", y[1], y[2], op, TP[t], x[2], N[k], T[kt],
                           (km in M) ? sprintf("%.6f", M[km]) : "", (km in M) ? W[km] : "", r == "" ? "" : sprintf("%.4f", r) > csv
                }
            }
            print line
        }
        line = "| best MPI, us |"
        for (k = 1; k <= nn; k++) for (c = 1; c <= nc; c++) {
            km = colkey[c] SUBSEP op SUBSEP N[k]
            line = line " " ((km in M) ? sprintf("%.1f", M[km]) : "") " |"
        }
        print line
        line = "| its selector |"
        for (k = 1; k <= nn; k++) for (c = 1; c <= nc; c++) {
            km = colkey[c] SUBSEP op SUBSEP N[k]
            line = line " " ((km in M) ? W[km] : "") " |"
        }
        print line
        for (j = 1; j <= nsel; j++) {
            line = "| " SL[j] " / best |"
            for (k = 1; k <= nn; k++) for (c = 1; c <= nc; c++) {
                km = colkey[c] SUBSEP op SUBSEP N[k]
                line = line " " (((SL[j] SUBSEP km) in S) && M[km] > 0 ? sprintf("%.2f", S[SL[j] SUBSEP km] / M[km]) : "") " |"
            }
            print line
        }
        print ""
    }
}' >"$dir/table.md"
echo "sim-nodes: $dir/table.md, $dir/ratios.csv"
