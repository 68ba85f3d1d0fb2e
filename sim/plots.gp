# sim/plots.gp - one plot of sim/analyze.sh: time / lower bound against the
# number of simulated processes, for one operation and one size.
# Variables: data (the .dat file: p, then one column per curve, named in its
# first line), out (PNG), op, n (bytes), ncol (columns in data).
# The MPI collective is the thick black curve, the reference BLACS' blank TOP
# (when present) dashed grey, this library's TOPs in colour.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,600 noenhanced font "sans,10"
} else {
    set terminal png size 900,600 noenhanced
}
set output out
size = n >= 1048576 ? sprintf("%g MiB", n / 1048576.0) : n >= 1024 ? sprintf("%g KiB", n / 1024.0) : sprintf("%d B", n)
set title sprintf("%s, %s: simulated time / alpha-beta lower bound", op, size)
set logscale x 2
set logscale y
set xlabel "processes p (1 x p grid, scope All)"
set ylabel "time / lower bound"
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key outside right top
set datafile missing "NaN"
set offsets graph 0.05, graph 0.05, 0, 0
stats data using 1 nooutput
if (STATS_min == STATS_max) { set xrange [STATS_min / 2 : STATS_max * 2] }
# nine colours for the TOP curves (black is MPI's); a second round is dashed
colors = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #bcbd22"
do for [k=1:9] { set linetype k lc rgb word(colors, k) }
# column 2: MPI; column 3: "ref ' '" when the run had the reference BLACS
hdr = system(sprintf("head -1 '%s'", data))
ref = strstrt(hdr, "\"ref ") > 0
first = ref ? 4 : 3
if (ref) {
    plot data using 1:2 with linespoints lc rgb "black" lw 2.5 pt 7 ps 0.8 title columnheader(2), \
         data using 1:3 with linespoints lc rgb "#808080" dt 2 lw 2 pt 6 ps 0.8 title columnheader(3), \
         for [i=first:ncol] data using 1:i with linespoints lt ((i - first) % 9 + 1) dt 1 + (i - first) / 9 \
             lw 1.5 pt (i - first + 1) ps 0.7 title columnheader(i)
} else {
    plot data using 1:2 with linespoints lc rgb "black" lw 2.5 pt 7 ps 0.8 title columnheader(2), \
         for [i=first:ncol] data using 1:i with linespoints lt ((i - first) % 9 + 1) dt 1 + (i - first) / 9 \
             lw 1.5 pt (i - first + 1) ps 0.7 title columnheader(i)
}
