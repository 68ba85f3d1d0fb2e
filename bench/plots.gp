# bench/plots.gp - common settings of the benchmark plots.  bench/analyze.py
# writes one script per plot into RUN_DIR/plots/, each setting W and H (the
# size in pixels) and then loading this file; RUN_DIR/plots/*.gp can be
# edited and re-run by hand from RUN_DIR: gnuplot plots/tc-np2.gp
#
# PNG through cairo when this gnuplot has it, else libgd's png terminal.
if (!exists("W")) W = 900
if (!exists("H")) H = 650
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size W,H noenhanced font "sans,10"
} else {
    set terminal png size W,H noenhanced
}

# Log-log: sizes span 8 B .. MiB and times microseconds .. milliseconds.
set logscale x 2
set logscale y
set xtics 16               # 16B, 256B, 4kiB, 64kiB, 1MiB, ...
set format x "%.0b%BB"     # binary prefixes
set format y "%g"
set xlabel "message size (bytes; matrix kernels: local block)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key top left box opaque
set bars small

# 1 = raw MPI (LAWN's "system" curve: solid black; 14, 15 = further MPI
# curves of a panel, dashed black), 2 = the reference BLACS with the blank
# TOP (dashed grey), 3..13 = this library, 20.. = the reference's other TOPs.
set style line 1 lc rgb "black" lw 2.5 pt 7 ps 0.7
set style line 2 lc rgb "#707070" dt 2 lw 2.5 pt 6 ps 0.7
set style line 3 lc rgb "#1f77b4" lw 1.8 pt 5 ps 0.7
set style line 4 lc rgb "#d62728" lw 1.8 pt 9 ps 0.8
set style line 5 lc rgb "#2ca02c" lw 1.8 pt 11 ps 0.8
set style line 6 lc rgb "#ff7f0e" lw 1.8 pt 13 ps 0.8
set style line 7 lc rgb "#9467bd" lw 1.8 pt 7 ps 0.7
set style line 8 lc rgb "#8c564b" lw 1.8 pt 3 ps 0.8
set style line 9 lc rgb "#e377c2" lw 1.8 pt 1 ps 0.8
set style line 10 lc rgb "#17becf" lw 1.8 pt 2 ps 0.8
set style line 11 lc rgb "#bcbd22" lw 1.8 pt 4 ps 0.8
set style line 12 lc rgb "#393b79" lw 1.8 dt 4 pt 8 ps 0.8
set style line 13 lc rgb "#ad494a" lw 1.8 dt 4 pt 10 ps 0.8
set style line 14 lc rgb "black" lw 2 dt 2 pt 6 ps 0.7
set style line 15 lc rgb "black" lw 2 dt 3 pt 4 ps 0.7
do for [i=20:27] {
    set style line i lc rgb "#a0a0a0" dt 3 lw 1.5 pt (i - 18) ps 0.6
}
