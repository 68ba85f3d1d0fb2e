#!/usr/bin/env bash
# sim/analyze.sh DIR - tables and plots of a simulated run (sim/run.sh).
#
# Reads DIR/*.csv (impl,op,top,np,bytes,t_us,check as written by simbench),
# divides every time by the alpha-beta lower bound of its operation and by
# the time of the matching MPI collective (the fastest of the selectors run:
# impl mpi, or mpi-SELECTOR from several simulations), and writes
#
#   DIR/table.md       per operation and size: time/LB and time/MPI of every TOP
#                      against p; then every measurement in one long table
#   DIR/data/*.dat     time/LB against p, one file per operation and size
#   DIR/*.png          their gnuplot plots (sim/plots.gp)
#
# alpha and beta are those of a message between two hosts: SIM_ALPHA_US=1
# and SIM_GBPS=10 (decimal GB/s) on sim/cluster.xml, 12.5 on the node
# platforms (the default when DIR/meta.txt names one).
set -euo pipefail
dir=${1:?usage: sim/analyze.sh RUN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
platform=$(sed -n 's/^platform: *\(nodes[0-9]*\) .*/\1/p' "$dir/meta.txt" 2>/dev/null || true)
place=$(sed -n 's/^platform: .*, placement \([a-z]*\)$/\1/p' "$dir/meta.txt" 2>/dev/null || true)
# the selector of a run's plain "mpi" rows (meta.txt; SMPI's ompi by default)
selector=$(sed -n 's/^selectors: *\([a-z0-9]*\).*/\1/p' "$dir/meta.txt" 2>/dev/null || true)
alpha=${SIM_ALPHA_US:-1}
gbps=${SIM_GBPS:-$([ -n "$platform" ] && echo 12.5 || echo 10)}

shopt -s nullglob
csvs=("$dir"/*.csv)
[ ${#csvs[@]} -gt 0 ] || { echo "sim/analyze.sh: no CSV files in $dir" >&2; exit 1; }
mkdir -p "$dir/data"
rm -f "$dir"/data/*.dat

awk -F, -v alpha="$alpha" -v gbps="$gbps" -v datadir="$dir/data" -v platform="$platform" -v place="$place" \
    -v selector="${selector:-ompi}" '
function ceil_log2(p,   k, v) { k = 0; v = 1; while (v < p) { v *= 2; k++ } return k }
# microseconds; beta = 1 / (gbps * 1e9) s/B = 1e-3 / gbps us/B
function lb(op, p, n,   b) {
    b = n * 1e-3 / gbps
    if (op == "bcast") return alpha * ceil_log2(p) + b
    if (op == "allreduce") return alpha * ceil_log2(p) + 2 * (p - 1) / p * b
    return alpha * ceil_log2(p) + (p - 1) / p * b
}
function human(n) {
    if (n >= 1048576 && n % 1048576 == 0) return (n / 1048576) " MiB"
    if (n >= 1024 && n % 1024 == 0) return (n / 1024) " KiB"
    return n " B"
}
function fmt(x) {
    if (x == "") return ""
    return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
}
function show(t) { return t == "_" ? "\x27 \x27" : t == "-" ? "MPI" : "\x27" t "\x27" }
function add(list, x, sep) { return index(sep list sep, sep x sep) ? list : (list == "" ? x : list sep x) }
FNR == 1 { next }
# MPI rows of every selector: keep the fastest as impl "mpi", W = its selector(s)
$1 ~ /^mpi(-|$)/ {
    sel = $1 == "mpi" ? "" : substr($1, 5); op = $2; p = $4 + 0; n = $5 + 0
    key = "mpi" SUBSEP op SUBSEP "-" SUBSEP p SUBSEP n
    if (!(key in T) || $6 + 0 < T[key]) { T[key] = $6 + 0; C[key] = $7; W[key] = sel }
    else if ($6 + 0 == T[key] && sel != "") W[key] = W[key] "=" sel
    if (sel != "") { SEL[sel SUBSEP key] = $6 + 0; sels = add(sels, sel, " ") }
    ps = add(ps, p, " "); ns = add(ns, n, " "); ops = add(ops, op, " ")
    next
}
{
    impl = $1; op = $2; top = $3; p = $4 + 0; n = $5 + 0
    key = impl SUBSEP op SUBSEP top SUBSEP p SUBSEP n
    T[key] = $6 + 0; C[key] = $7
    if (impl == "ref") hasref = 1
    if (impl != "mpi" && impl != "ref") ours = impl
    if (impl != "mpi") tops[op] = add(tops[op], top, " ")
    ps = add(ps, p, " "); ns = add(ns, n, " "); ops = add(ops, op, " ")
}
END {
    if (ours == "") ours = "ours"
    np = split(ps, P, " "); nn = split(ns, N, " "); nop = split("bcast allreduce reduce", O, " ")
    # numeric sort of p and n (few values)
    for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (P[j] + 0 < P[i] + 0) { x = P[i]; P[i] = P[j]; P[j] = x }
    for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (N[j] + 0 < N[i] + 0) { x = N[i]; N[i] = N[j]; N[j] = x }
    mpiname["bcast"] = "MPI_Bcast"; mpiname["allreduce"] = "MPI_Allreduce"; mpiname["reduce"] = "MPI_Reduce"
    opname["bcast"] = "broadcast (DGEBS2D/DGEBR2D)"
    opname["allreduce"] = "combine leave-on-all (DGSUM2D, RDEST = -1)"
    opname["reduce"] = "combine leave-on-one (DGSUM2D to {0,0})"

    nsel = split(sels, SL, " ")
    print "# Simulated broadcasts and combines: time / lower bound, time / MPI"
    print ""
    if (platform == "") {
        printf "Simulated cluster (sim/cluster.xml): alpha = %g us, beta = 1/(%g GB/s) per byte,\n", alpha, gbps
        print "full-duplex private links into a non-blocking backbone, one process per host,"
    } else {
        printf "Simulated cluster of multi-core nodes (sim/%s.xml), placement %s: 16 processes\n", platform, place
        printf "per host; between hosts alpha = %g us, beta = 1/(%g GB/s) per byte, full-duplex links\n", alpha, gbps
        print "into a non-blocking backbone, shared by the processes of a host; inside a host 0.2 us"
        print "and 20 GB/s per message (sim/README.md, Nodes).  No BLACS_MODEL: the library\x27s own"
        print "defaults.  The lower bounds use the alpha and beta between hosts (a yardstick: inside"
        print "a host messages are faster)."
    }
    print "CM02 flow model without cross-traffic, no computation simulated, MPI collectives"
    if (nsel == 0)
        print "of SMPI\x27s " selector " selector (smpi/coll-selector:" selector ").  One 1 x p grid, scope"
    else {
        print "of SMPI: the fastest of the selectors " sels " (smpi/coll-selector; each"
        print "alone in its own simulation, see the MPI rows).  One 1 x p grid, scope"
    }
    print "All, a contiguous vector of doubles, source and destination {0,0}; each time is one"
    print "operation after a warm-up, from a common start to the last process done (simulated"
    print "time: deterministic)."
    print ""
    print "Lower bounds, n bytes on p processes (microseconds):"
    print ""
    print "- broadcast: alpha ceil(log2 p) + n beta"
    print "- leave-on-all combine (allreduce): alpha ceil(log2 p) + 2 (p-1)/p n beta"
    print "- leave-on-one combine (reduce): alpha ceil(log2 p) + (p-1)/p n beta.  Our choice:"
    print "  the data term of the reduce-scatter that every reduce contains (a root with one"
    print "  link is bound by n beta, p/(p-1) more: see sim/README.md)."
    print ""
    print "/LB = time / lower bound; /MPI = time / the time of " mpiname["bcast"] ", " mpiname["allreduce"] " or"
    print mpiname["reduce"] " (sum) of the same size " (nsel ? "under the fastest selector (the MPI row; its\nselector in the long table)" : "in the same simulation") \
          (hasref ? "; ref = the reference BLACS built with smpicc." : ".")
    print "TOP \x27 \x27 is the blank (default) topology.  check (in the long table): all = every"
    print "element on every process (leave-on-one: on the destination); first = the first element"
    print "only (vectors in partially shared memory); none = not checked (the library\x27s buffers"
    print "shared too).  See sim/README.md."
    print ""
    for (o = 1; o <= nop; o++) {
        op = O[o]
        if (!index(" " ops " ", " " op " ")) continue
        nt = split(tops[op], TP, " ")
        for (k = 1; k <= nn; k++) {
            n = N[k]
            printf "## %s, %s\n\n", opname[op], human(n)
            hdr = "| TOP |"; sep = "|---|"
            for (i = 1; i <= np; i++) {
                hdr = hdr sprintf(" p=%d /LB | /MPI |", P[i]); sep = sep "---:|---:|"
                if (hasref) { hdr = hdr " ref/LB |"; sep = sep "---:|" }
            }
            print hdr; print sep
            # MPI row: its own time / LB
            line = "| MPI |"
            for (i = 1; i <= np; i++) {
                km = "mpi" SUBSEP op SUBSEP "-" SUBSEP P[i] SUBSEP n
                line = line " " ((km in T) ? fmt(T[km] / lb(op, P[i], n)) : "") " | |"
                if (hasref) line = line " |"
            }
            print line
            for (j = 1; j <= nsel; j++) {
                line = "| MPI " SL[j] " |"
                for (i = 1; i <= np; i++) {
                    km = "mpi" SUBSEP op SUBSEP "-" SUBSEP P[i] SUBSEP n
                    line = line " " ((SL[j] SUBSEP km) in SEL ? fmt(SEL[SL[j] SUBSEP km] / lb(op, P[i], n)) : "") " | " \
                           ((SL[j] SUBSEP km) in SEL && T[km] > 0 ? fmt(SEL[SL[j] SUBSEP km] / T[km]) : "") " |"
                    if (hasref) line = line " |"
                }
                print line
            }
            for (t = 1; t <= nt; t++) {
                line = "| " show(TP[t]) " |"
                any = 0
                for (i = 1; i <= np; i++) {
                    ko = ours SUBSEP op SUBSEP TP[t] SUBSEP P[i] SUBSEP n
                    kr = "ref" SUBSEP op SUBSEP TP[t] SUBSEP P[i] SUBSEP n
                    km = "mpi" SUBSEP op SUBSEP "-" SUBSEP P[i] SUBSEP n
                    a = (ko in T) ? fmt(T[ko] / lb(op, P[i], n)) : ""
                    b = (ko in T && km in T && T[km] > 0) ? fmt(T[ko] / T[km]) : ""
                    line = line " " a " | " b " |"
                    if (hasref) line = line " " ((kr in T) ? fmt(T[kr] / lb(op, P[i], n)) : "") " |"
                    if ((ko in T) || (kr in T)) any = 1
                }
                if (any) print line
            }
            print ""
            # gnuplot data: p, MPI, ref blank, then every TOP of ours
            f = datadir "/" op "-" n ".dat"
            printf "p \"%s\"", mpiname[op] > f
            if (hasref) printf " \"ref \x27 \x27\"" > f
            for (t = 1; t <= nt; t++) printf " \"%s\"", show(TP[t]) > f
            printf "\n" > f
            for (i = 1; i <= np; i++) {
                km = "mpi" SUBSEP op SUBSEP "-" SUBSEP P[i] SUBSEP n
                printf "%d %s", P[i], (km in T) ? T[km] / lb(op, P[i], n) : "NaN" > f
                if (hasref) {
                    kr = "ref" SUBSEP op SUBSEP "_" SUBSEP P[i] SUBSEP n
                    printf " %s", (kr in T) ? T[kr] / lb(op, P[i], n) : "NaN" > f
                }
                for (t = 1; t <= nt; t++) {
                    ko = ours SUBSEP op SUBSEP TP[t] SUBSEP P[i] SUBSEP n
                    printf " %s", (ko in T) ? T[ko] / lb(op, P[i], n) : "NaN" > f
                }
                printf "\n" > f
            }
            close(f)
        }
    }
    print "## Every measurement"
    print ""
    h = "| p | op | TOP | bytes | check | time us | LB us | /LB | /MPI |"
    s = "|---:|---|---|---:|---|---:|---:|---:|---:|"
    if (hasref) { h = h " ref us | ref/LB | ref/MPI | " ours "/ref |"; s = s "---:|---:|---:|---:|" }
    print h; print s
    for (i = 1; i <= np; i++) for (o = 1; o <= nop; o++) for (k = 1; k <= nn; k++) {
        op = O[o]; n = N[k]; p = P[i]
        km = "mpi" SUBSEP op SUBSEP "-" SUBSEP p SUBSEP n
        L = lb(op, p, n)
        if (km in T)
            printf "| %d | %s | MPI%s | %d | %s | %s | %s | %s | |%s\n", p, op, W[km] == "" ? "" : " (" W[km] ")", n, C[km],
                   fmt(T[km]), fmt(L), fmt(T[km] / L), hasref ? " | | | |" : ""
        nt = split(tops[op], TP, " ")
        for (t = 1; t <= nt; t++) {
            ko = ours SUBSEP op SUBSEP TP[t] SUBSEP p SUBSEP n
            kr = "ref" SUBSEP op SUBSEP TP[t] SUBSEP p SUBSEP n
            if (!(ko in T) && !(kr in T)) continue
            line = sprintf("| %d | %s | %s | %d | %s | %s | %s | %s | %s |", p, op, show(TP[t]), n,
                           (ko in T) ? C[ko] : C[kr], (ko in T) ? fmt(T[ko]) : "", fmt(L),
                           (ko in T) ? fmt(T[ko] / L) : "", (ko in T && km in T) ? fmt(T[ko] / T[km]) : "")
            if (hasref)
                line = line sprintf(" %s | %s | %s | %s |", (kr in T) ? fmt(T[kr]) : "", (kr in T) ? fmt(T[kr] / L) : "",
                                    (kr in T && km in T) ? fmt(T[kr] / T[km]) : "",
                                    (ko in T && kr in T) ? fmt(T[ko] / T[kr]) : "")
            print line
        }
    }
}' "${csvs[@]}" >"$dir/table.md"

if command -v gnuplot >/dev/null; then
    for f in "$dir"/data/*.dat; do
        b=$(basename "$f" .dat)
        op=${b%-*}
        n=${b##*-}
        ncol=$(head -1 "$f" | awk '{ print 1 + gsub(/"/, "") / 2 }')
        gnuplot -e "data='$f'; out='$dir/$b.png'; op='$op'; n=$n; ncol=$ncol" "$here/plots.gp"
    done
else
    echo "sim/analyze.sh: gnuplot not found, no plots" >&2
fi
echo "sim: $dir/table.md$(ls "$dir"/*.png >/dev/null 2>&1 && echo ", $(ls "$dir"/*.png | wc -l) plots")"
