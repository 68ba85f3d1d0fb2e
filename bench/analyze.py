#!/usr/bin/env python3
"""bench/analyze.py - turns the CSV files of a benchmark run into a report.

    python3 bench/analyze.py RUN_DIR [--gp bench/plots.gp] [--no-plots]

Reads every RUN_DIR/*.csv written by blacsbench (impl,series,op,top,np,grid,
bytes,reps,trial,t_us,t_src_us), RUN_DIR/meta.txt and the drivers' logs
RUN_DIR/*.log (for the series that were skipped).  Writes, in RUN_DIR:

  summary.md     key numbers; per curve the least-squares fit T = alpha +
                 beta*N (N = doubles, T = us) and LAWN 73's RE; ratio tables
                 ours/ref and ours/mpi per size and TOP, from the medians;
                 the sender's verdicts against the reference (sender_verdicts)
  verdicts.csv   every verdict's cell
  data/*.dat     one file per curve (and per ratio curve) for gnuplot
  plots/*.gp     the gnuplot scripts (they load bench/plots.gp)
  *.png          the plots, made by gnuplot from the scripts

A curve is one (series, op, top, np, grid, impl); a point one size of a
curve, with every trial's time.  Python >= 3.10 (statistics.linear_regression),
standard library only.
"""
import argparse
import csv
import itertools
import math
import os
import random
import statistics
import subprocess
import sys
from types import SimpleNamespace as NS

NAN = math.nan
ORDER = ("tc ts tm bcast bcast1 comb panel echo exchange comet_bcast gsum barrier contention overlap guard "
         "shift transpose rowbcast colbcast").split()
IMPLS = ("ours", "ref", "mpi")
KEY_TC = (8, 65536, 1048576, 8388608)
KEY_COLL = (65536, 1048576)
# The series that time a sender, and which time is the sender's: t (the row's
# time) or src (the source's, beside the slowest process's t).
SENDER = {"ts": "t", "bcast": "src", "bcast1": "src"}
NOISE_MIN = 65536
BOOT = 1000
VERDICTS = "verdicts.csv"  # written by the analysis, not read as data
ENC = dict(encoding="utf-8", errors="surrogateescape")  # logs and meta pass through byte for byte


def fail(msg):
    sys.exit(f"analyze: {msg}")


def rank(v, order):
    return order.index(v) if v in order else len(order)


def top_rank(t):
    return 0 if t[:1] == "_" else 1 if t[:1] == "-" else ord(t[:1] or "\0")


def top_label(t):
    return "' '" if t[:1] == "_" else t


def top_file(t):
    return "blank" if t[:1] == "_" else "none" if t[:1] == "-" else t


def fmt_size(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    return f"{b >> 10} KiB" if b >= 1024 and b % 1024 == 0 else f"{b} B"


def fmt_num(v):
    return "-" if math.isnan(v) else "%.0f" % v if abs(v) >= 100 else "%.1f" % v if abs(v) >= 10 else "%.2f" % v


def fmt_ratio(a, b):
    return "-" if math.isnan(a) or math.isnan(b) or b <= 0 else "%.2f" % (a / b)


def row(*cells):
    return "| " + " | ".join(map(str, cells)) + " |\n"


def relerr(ns, ts):
    """LAWN 73's RE in percent: max over the repeated sets of (max - min) / average.
    A set is every T at one N; N = 0 never counts; the repeated sets are those
    with the most points (the driver repeats every fifth size), at least 2."""
    sets = {}
    for n, t in zip(ns, ts):
        if n != 0:
            sets.setdefault(n, []).append(t)
    most = max(map(len, sets.values()), default=0)
    if most < 2:
        return None
    res = [(max(v) - min(v)) / statistics.fmean(v) * 100 for v in sets.values()
           if len(v) == most and statistics.fmean(v) > 0]
    return max(res, default=None)


def read_rows(run, names):
    rows = []
    for name in names:
        path = f"{run}/{name}"
        with open(path, newline="", **ENC) as f:
            rd = csv.reader(f)
            for r in rd:
                if not r or r[0] == "impl" or r[0].startswith("#"):
                    continue
                try:
                    impl, series, op, top, np_, grid, b, _, trial, t, src = r[:11]
                    np_, b, trial = int(np_), int(b), int(trial)
                except ValueError:
                    print(f"analyze: {path}:{rd.line_num}: not a benchmark row, ignored", file=sys.stderr)
                    continue
                try:
                    t = float(t)
                    src = float(src) if src else NAN
                except ValueError:
                    t = NAN
                if not t >= 0:
                    print(f"analyze: {path}:{rd.line_num}: bad time, ignored", file=sys.stderr)
                    continue
                rows.append(NS(impl=impl, series=series, op=op, top=top, np=np_, grid=grid, bytes=b,
                               trial=trial, t=t, src=src))
    return rows


def sender_times(series, what, p):
    """A point's trials of the sender's time or of the slowest process's."""
    return p.ts if what == "max" or SENDER[series] == "t" else p.srcs


def make_curves(rows):
    rows.sort(key=lambda r: (rank(r.series, ORDER), r.series, r.np, r.grid, r.op, top_rank(r.top),
                             rank(r.impl, IMPLS), r.impl, r.bytes, r.trial))
    curves = []
    for key, grp in itertools.groupby(rows, lambda r: (r.series, r.op, r.top, r.np, r.grid, r.impl)):
        grp = list(grp)
        c = NS(**dict(zip(("series", "op", "top", "np", "grid", "impl"), key)), nraw=len(grp), pts={})
        for b, pr in itertools.groupby(grp, lambda r: r.bytes):
            pr = list(pr)
            ts, src = [r.t for r in pr], [r.src for r in pr if not math.isnan(r.src)]
            c.pts[b] = NS(n=len(ts), med=statistics.median(ts), lo=min(ts), hi=max(ts),
                          src=statistics.median(src) if src else NAN, ts=ts, srcs=src,
                          trials=[r.trial for r in pr])
        ns, ts = [r.bytes / 8 for r in grp], [r.t for r in grp]
        try:
            c.fit = statistics.linear_regression(ns, ts)
        except statistics.StatisticsError:  # fewer than two distinct N: no line
            c.fit = None
        c.re = relerr(ns, ts)
        c.file = f"data/{c.series}_{c.op}_{top_file(c.top)}_np{c.np}_{c.grid}_{c.impl}.dat"
        curves.append(c)
    return curves


class Report:
    def __init__(self, run, curves):
        self.run, self.curves = run, curves
        self.index = {(c.series, c.op, c.top, c.np, c.grid, c.impl): c for c in curves}
        self.nps = sorted({c.np for c in curves})

    def write(self, rel, text):
        with open(f"{self.run}/{rel}", "w", **ENC) as f:
            f.write(text)

    def partner(self, c, impl):
        """The same measurement in another implementation: same TOP for ref, none for MPI."""
        return self.index.get((c.series, c.op, "-" if impl == "mpi" else c.top, c.np, c.grid, impl))

    def first(self, series, prefix, impl, np_):
        return next((c for c in self.curves if c.series == series and c.impl == impl and c.np == np_
                     and c.op.startswith(prefix)), None)

    def op_of(self, series, prefix, np_):
        c = next(filter(None, (self.first(series, prefix, i, np_) for i in IMPLS)), None)
        return c.op if c else None

    @staticmethod
    def at(c, b, what="med"):
        p = c.pts.get(b) if c else None
        return getattr(p, what) if p else NAN

    def data_files(self):
        os.makedirs(f"{self.run}/data", exist_ok=True)
        for c in self.curves:
            self.write(c.file, f"# {c.series} {c.op} top={c.top} np={c.np} grid={c.grid} impl={c.impl}: "
                       "times in us per operation\n# N(doubles) bytes median min max src_median trials\n" +
                       "".join("%d %d %.6g %.6g %.6g %.6g %d\n" % (b // 8, b, p.med, p.lo, p.hi,
                               -1.0 if math.isnan(p.src) else p.src, p.n) for b, p in c.pts.items()))

    # --- summary tables ---------------------------------------------------------
    def key_cells(self, o, r, m, b):
        """Medians of ours, ref, mpi at size b, ours/ref, ours/mpi, and ours/ref of
        the fastest trials; None when none of the three measured b."""
        med = [self.at(c, b) for c in (o, r, m)]
        if all(map(math.isnan, med)):
            return None
        return [fmt_num(v) for v in med] + [fmt_ratio(med[0], med[1]), fmt_ratio(med[0], med[2]),
                                            fmt_ratio(self.at(o, b, "lo"), self.at(r, b, "lo"))]

    def coll_rows(self, series, prefix, with_src):
        """One row per np, TOP (ours' curves of the first op) and KEY_COLL size."""
        out = ""
        for np_ in self.nps:
            f = self.first(series, prefix, "ours", np_)
            for o in (c for c in self.curves if f and c.series == f.series and c.impl == "ours" and
                      c.np == np_ and c.op == f.op and c.grid == f.grid):
                r, m = self.partner(o, "ref"), self.partner(o, "mpi")
                for b in KEY_COLL:
                    a = self.key_cells(o, r, m, b)
                    if not a:
                        continue
                    mid = a[:3]
                    if with_src:
                        src = [fmt_num(self.at(c, b, "src")) for c in (o, r, m)]
                        mid = [x for pair in zip(src, a[:3]) for x in pair]
                    out += row(np_, top_label(o.top), fmt_size(b), *mid, *a[3:])
        return out

    def key_tables(self):
        has = lambda s, p: any(self.first(s, p, "ours", n) for n in self.nps)
        tc, bc, cb = has("tc", "tc"), has("bcast", ""), has("comb", "allreduce")
        if not (tc or bc or cb):
            return ""  # a run of other series only: no key table applies
        out = ("## Key numbers\n\nMedians over trials, microseconds per operation; a ratio below 1 means ours is "
               "faster.  \"best\" ratios compare the fastest trials instead: on a shared or virtual machine whole "
               "runs land in slow and fast periods, and the best trial is the least disturbed estimate of what "
               "each implementation costs.\n\n")
        if tc:
            out += ("### T_c (one-way: echo round trip / 2)\n\n| np | size | ours | ref | mpi | ours/ref | "
                    "ours/mpi | ours/ref (best) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n")
            for np_ in self.nps:
                o = self.first("tc", "tc", "ours", np_)
                for b in KEY_TC if o else ():
                    a = self.key_cells(o, self.partner(o, "ref"), self.partner(o, "mpi"), b)
                    out += row(np_, fmt_size(b), *a) if a else ""
        if bc:
            out += ("\n### Broadcast: source and maximum time per TOP (MPI: MPI_Bcast)\n\n| np | TOP | size | "
                    "ours src | ours max | ref src | ref max | mpi src | mpi max | ours/ref (max) | ours/mpi (max) "
                    "| ours/ref (best max) |\n|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
            out += self.coll_rows("bcast", "", True)
        if cb:
            out += ("\n### Combine: DGSUM2D leave-on-all, maximum time per TOP (MPI: MPI_Allreduce)\n\n| np | TOP "
                    "| size | ours | ref | mpi | ours/ref | ours/mpi | ours/ref (best) |\n"
                    "|---:|:---:|---:|---:|---:|---:|---:|---:|---:|\n")
            out += self.coll_rows("comb", "allreduce", False)
        return out + "\n"

    def fit_tables(self):
        out = ("## Least-squares fits T = alpha + beta*N\n\nN = message size in doubles (matrix kernels: doubles "
               "of the local block), T in microseconds per operation, fitted through every trial of every size.  "
               "RE = LAWN 73's relative error of the repeated sizes (every fifth size, N = 0 excluded): max over "
               "those sizes of (max - min) / average, in percent; `-` when no size was repeated.\n\n")
        for series, grp in itertools.groupby(self.curves, lambda c: c.series):
            out += (f"### {series}\n\n| impl | op | TOP | np | grid | alpha (us) | beta (us/double) | RE (%) | "
                    "points |\n|:---|:---|:---:|---:|:---:|---:|---:|---:|---:|\n")
            for c in grp:
                al, be = ("%.3g" % c.fit.intercept, "%.4g" % c.fit.slope) if c.fit else ("-", "-")
                out += row(c.impl, c.op, top_label(c.top), c.np, c.grid, al, be,
                           "-" if c.re is None else "%.1f" % c.re, c.nraw)
            out += "\n"
        return out

    def ratio_tables(self, den):
        """Per series, np and grid: ours/den at every size; series with TOPs get a
        table per op with a column per TOP, the others one with a column per op."""
        out = (f"## Ratios ours/{den}\n\nMedian time of ours divided by the median time of "
               f"{'the reference BLACS' if den == 'ref' else 'raw MPI'} at the same size (and TOP), per series; "
               "below 1 = ours faster.\n\n")
        printed = False
        for (series, np_, grid), grp in itertools.groupby(self.curves, lambda c: (c.series, c.np, c.grid)):
            grp = list(grp)
            tops = any(c.impl == "ours" and c.top != "-" for c in grp)
            for op, tab in itertools.groupby(grp, lambda c: c.op if tops else None):
                cols = [(c, self.partner(c, den)) for c in tab if c.impl == "ours"]
                if not any(d for _, d in cols):
                    continue
                printed = True
                out += f"#### {series}{' ' + op if tops else ''}, np={np_}, grid {grid}: ours/{den}\n\n"
                out += row("size", *(top_label(c.top) if tops else c.op for c, _ in cols))
                out += "|---:|" + "---:|" * len(cols) + "\n"
                for b in sorted({b for c, _ in cols for b in c.pts}):
                    out += row(fmt_size(b), *(fmt_ratio(self.at(c, b), self.at(d, b)) for c, d in cols))
                out += "\n"
        return out + ("" if printed else f"No {den} measurements in this run.\n\n")

    # --- ours against the reference, within the noise ---------------------------
    def sender_verdicts(self):
        """Per series that times a sender (SENDER), np, TOP and size from NOISE_MIN
        bytes: the sender's time and the slowest process's, ours / ref (ratio of
        medians), the ratio's 95% bootstrap interval (trials resampled on both
        sides, a fixed seed) and a verdict: slower or faster where the interval
        lies wholly above or below 1, else same (within the noise).  Beside it the
        reference against itself: its odd trials' median / its even trials'."""
        rng, cells = random.Random(1), []
        for o in (c for c in self.curves if c.impl == "ours" and c.series in SENDER):
            r = self.partner(o, "ref")
            for b in sorted(o.pts):
                p, q = o.pts[b], r.pts.get(b) if r else None
                if b < NOISE_MIN or q is None:
                    continue
                for what in ("sender", "max"):
                    xs, ys = sender_times(o.series, what, p), sender_times(o.series, what, q)
                    if min(len(xs), len(ys)) < 3 or what == "max" and SENDER[o.series] == "t":
                        continue
                    med = statistics.median
                    boot = sorted(med(rng.choices(xs, k=len(xs))) / med(rng.choices(ys, k=len(ys)))
                                  for _ in range(BOOT))
                    lo, hi = boot[int(0.025 * BOOT)], boot[int(0.975 * BOOT) - 1]
                    odd = [y for y, t in zip(ys, q.trials) if t % 2]
                    even = [y for y, t in zip(ys, q.trials) if not t % 2]
                    self_ratio = med(odd) / med(even) if odd and even else NAN
                    cells.append(NS(series=o.series, np=o.np, top=o.top, bytes=b, what=what, ratio=med(xs) / med(ys),
                                    lo=lo, hi=hi, self_ratio=self_ratio, n=(len(xs), len(ys)),
                                    verdict="slower" if lo > 1 else "faster" if hi < 1 else "same"))
        return cells

    def verdict_tables(self, cells):
        if not cells:
            return ""
        with open(f"{self.run}/{VERDICTS}", "w", **ENC) as f:
            f.write("series,np,top,bytes,time,ours_over_ref,boot_lo,boot_hi,ref_odd_over_even,trials_ours,"
                    "trials_ref,verdict\n")
            for c in cells:
                f.write(f"{c.series},{c.np},{c.top},{c.bytes},{c.what},{c.ratio:.4f},{c.lo:.4f},{c.hi:.4f},"
                        f"{c.self_ratio:.4f},{c.n[0]},{c.n[1]},{c.verdict}\n")
        out = (f"## The sender against the reference, within the noise\n\nFrom {fmt_size(NOISE_MIN)}: ours / ref "
               "of the median time of the sender (`ts`: the send's return; broadcasts: the source's) and of the "
               "slowest process (`max`), with the ratio's 95% bootstrap interval.  A cell is *slower* or *faster* "
               "where the interval lies wholly above or below 1, else *same*.  Of many cells about 1 in 40 is "
               "called slower by chance: a second run tells.  Every cell is in `verdicts.csv`, with the reference "
               "against itself (its odd trials' median / its even trials').\n\n"
               "| series | np | time | cells | faster | same | slower | median ratio | ref/ref, widest |\n"
               "|---|---:|---|---:|---:|---:|---:|---:|---:|\n")
        key = lambda c: (rank(c.series, ORDER), c.np, c.what != "sender")
        for _, grp in itertools.groupby(sorted(cells, key=key), key):
            grp = list(grp)
            series, np_, what = grp[0].series, grp[0].np, grp[0].what
            count = {v: sum(c.verdict == v for c in grp) for v in ("faster", "same", "slower")}
            wide = max((max(c.self_ratio, 1 / c.self_ratio) for c in grp if c.self_ratio > 0), default=NAN)
            out += row(series, np_, what, len(grp), count["faster"], count["same"], count["slower"],
                       f"{statistics.median(c.ratio for c in grp):.2f}", f"{wide:.2f}")
        slow = [c for c in cells if c.verdict == "slower"]
        out += "\nSlower cells: " + ("none.\n\n" if not slow else "\n\n| series | np | TOP | size | time | ours/ref "
                                     "| 95% interval | ref/ref |\n|---|---:|:---:|---:|---|---:|---|---:|\n")
        for c in slow:
            out += row(c.series, c.np, top_label(c.top), fmt_size(c.bytes), c.what, f"{c.ratio:.2f}",
                       f"{c.lo:.2f}-{c.hi:.2f}", f"{c.self_ratio:.2f}")
        return out + ("\n" if slow else "")

    # --- plots ------------------------------------------------------------------
    # Line styles of plots.gp: 1 = MPI (14, 15: more MPI curves of a panel), 2 = the
    # reference's blank TOP, 3..13 = ours, 20..27 = the reference's other TOPs.
    @staticmethod
    def gp_plot(title, ylabel, pc, ycol, errbars):
        """One plot command; pc = [(data file, title, line style of plots.gp)]."""
        out = f'set title "{title}"\nset ylabel "{ylabel}"\n'
        if not pc:  # an empty frame: gnuplot refuses a plot without any valid point
            return out + ("set label 1 'no data' at graph 0.5, graph 0.5 center\nset xrange [1:2]\n"
                          "set yrange [1:2]\nplot 1.5 notitle lc rgb 'white'\nunset label 1\nset autoscale xy\n")
        using = f"{ycol}:4:5 with yerrorlines" if errbars else f"{ycol} with linespoints"
        return out + "plot " + ", \\\n     ".join(
            f"'{f}' using (($2>0)?$2:1/0):{using} ls {ls} title \"{t}\"" for f, t, ls in pc) + "\n"

    def survey(self, series, op, np_):
        """Ours per TOP, the reference's blank TOP, MPI (LAWN's survey figures)."""
        sel = [c for c in self.curves if c.series == series and c.op == op and c.np == np_]
        bl = [c for c in sel if c.impl != "mpi" and (c.impl != "ref" or c.top[:1] == "_")]
        pc, nours = [], 0
        for c in bl:
            pc.append((c.file, f"{c.impl} TOP {top_label(c.top)}", 2 if c.impl == "ref" else 3 + nours % 11))
            nours += c.impl != "ref"
        return pc + [(c.file, "MPI", 1) for c in sel if c.impl == "mpi"]

    def ratio_curves(self, sels, den, np_):
        pc = []
        for series, op, top in sels:
            op = op or self.op_of(series, "", np_)
            o = op and next((c for c in self.curves if c.series == series and c.op.startswith(op) and
                             c.top == top and c.np == np_ and c.impl == "ours"), None)
            d = o and self.partner(o, den)
            if not d:
                continue
            f = f"data/ratio-{den}_{o.series}_{o.op}_{top_file(o.top)}_np{np_}_{o.grid}.dat"
            pts = ["%d %d %.6g\n" % (b // 8, b, p.med / self.at(d, b)) for b, p in o.pts.items()
                   if self.at(d, b) > 0 and p.med > 0]
            self.write(f, f"# ours/{den}, medians: N(doubles) bytes ratio\n" + "".join(pts))
            if pts:
                title = o.series + (" " + o.op if o.series != o.op else "") + \
                    ("" if o.top[:1] == "-" else " TOP " + top_label(o.top))
                pc.append((f, title, 3 + len(pc) % 11))
        return pc

    def plot(self, name, w, h, script):
        """Writes plots/NAME.gp and runs gnuplot on it in the run directory."""
        self.write(f"plots/{name}.gp", f"# generated by bench/analyze.py\nW = {w}\nH = {h}\nload '{self.gp}'\n"
                   f"set output '{name}.png'\n{script}")
        with open(f"{self.run}/plots/gnuplot.log", "a") as log:
            try:
                st = subprocess.run(["gnuplot", f"plots/{name}.gp"], cwd=self.run, stderr=log).returncode
            except OSError as e:
                st = str(e)
        if st:
            print(f"analyze: gnuplot failed on {self.run}/plots/{name}.gp (status {st}, see "
                  f"{self.run}/plots/gnuplot.log)", file=sys.stderr)
        return not st

    def plots(self):
        os.makedirs(f"{self.run}/plots", exist_ok=True)
        out = "## Plots\n\nLog-log; points are medians over trials, error bars the minimum and maximum.\n\n"
        self.made = self.failed = 0

        def done(name, w, h, script, what):
            nonlocal out
            if self.plot(name, w, h, script):
                out += f"- [{name}.png]({name}.png): {what}\n"
                self.made += 1
            else:
                self.failed += 1

        for p in self.nps:
            for s, what in (("tc", "T_c: one-way time (echo round trip / 2)"),
                            ("ts", "T_s: time to return from a send (and T_m)")):
                if not self.op_of(s, "", p):
                    continue
                pc = []
                for c in self.curves:
                    if c.np == p and (c.series == s or (s == "ts" and c.series == "tm")):
                        ls = 1 if c.impl == "mpi" else (2 if c.top[:1] in ("_", "-") else 20 + len(pc) % 8) \
                            if c.impl == "ref" else 3 + len(pc) % 11
                        pc.append((c.file, f"{c.impl} {'T_m (malloc+copy)' if c.series == 'tm' else ''}", ls))
                title = f"{what}, np={p}"
                done(f"{s}-np{p}", 900, 650, self.gp_plot(title, "microseconds", pc, 3, True), title)
            for s in ("bcast", "bcast1"):
                op = self.op_of(s, "", p)
                if not op:
                    continue
                pc = self.survey(s, op, p)
                script = ("set multiplot layout 1,2\n" + self.gp_plot(
                    f"{s} ({op}) np={p}: maximum time over processes{', reps=1' if s == 'bcast1' else ''}",
                    "microseconds", pc, 3, True) + self.gp_plot(f"{s} ({op}) np={p}: source time", "microseconds",
                                                                pc, 6, False) + "unset multiplot\n")
                done(f"{s}-np{p}", 1300, 600, script, f"broadcast survey{' with reps=1' if s == 'bcast1' else ''}"
                     f", np={p} (max | source)")
            ops = [self.op_of("comb", "allreduce", p), self.op_of("comb", "reduce", p)]
            if any(ops):
                script = "set multiplot layout 1,2\n"
                for op, what in zip(ops, ("leave-on-all vs MPI_Allreduce", "leave-on-one vs MPI_Reduce")):
                    script += self.gp_plot(f"DGSUM2D {what}, np={p}: maximum time", "microseconds",
                                           self.survey("comb", op, p) if op else [], 3, True)
                done(f"comb-np{p}", 1300, 600, script + "unset multiplot\n",
                     f"combine survey, np={p} (leave-on-all | leave-on-one)")
            self.comet(p, done)
            for den in ("ref", "mpi"):
                pl, pm = self.ratio_curves(LAWN, den, p), self.ratio_curves(COMET, den, p)
                if not pl and not pm:
                    continue
                script = (f"set multiplot layout 1,{2 if pl and pm else 1}\nset logscale y 2\nset format y '%g'\n"
                          "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb 'black'\n")
                for pc, what in ((pl, "LAWN series"), (pm, "CoMet kernels")):
                    if pc:
                        script += self.gp_plot(f"ours / {den}, np={p}: {what} (below 1 = ours faster)",
                                               "ratio of medians", pc, 3, False)
                done(f"ratio-{den}-np{p}", 1300 if pl and pm else 800, 600, script + "unset multiplot\n",
                     f"ratio ours/{den} vs size, np={p}")
        if self.failed:
            print(f"analyze: {self.failed} plot{'' if self.failed == 1 else 's'} failed", file=sys.stderr)
        return out + "\n"

    def comet(self, p, done):
        """CoMet's kernels, one panel each; overlap with its largest DAXPY only."""
        kernels = [k for k in COMET_PANELS if self.op_of(k[0], "", p)]
        if not kernels:
            return
        cols = min(len(kernels), 3)
        rws = -(-len(kernels) // cols)
        ovl = [digits(c.op[5:]) for c in self.curves if c.series == "overlap" and c.op.startswith("ovl_v")]
        biggest = max(ovl, default=0)
        script = f"set multiplot layout {rws},{cols}\nset key font ',8'\nset xlabel font ',8'\n"
        for series, prefix, what in kernels:
            pc, nth = [], {"ours": 0, "ref": 0, "mpi": 0}
            for c in self.curves:
                if c.series != series or c.np != p or not c.op.startswith(prefix):
                    continue
                if series == "overlap" and digits(c.op[c.op.rfind("v") + 1:]) != biggest:
                    continue
                im = c.impl if c.impl in nth else "ours"  # each impl's curves get their own styles
                m = nth[im]
                nth[im] += 1
                ls = 3 + m % 11 if im == "ours" else (20 + m % 8 if m else 2) if im == "ref" else \
                    (14 + (m - 1) % 2 if m else 1)
                pc.append((c.file, f"{c.impl} {c.op}", ls))
            script += self.gp_plot(f"{what}, np={p}", "microseconds", pc, 3, True)
        done(f"comet-np{p}", 520 * cols, 400 * rws, script + "unset multiplot\n", f"CoMet kernels, np={p}")


def digits(s):
    """The number the leading digits of s make (the DAXPY length of an overlap op)."""
    return int("".join(itertools.takewhile(str.isdigit, s)) or 0)


COMET_PANELS = (("echo", "d1", "echo, 1 away (one-way)"), ("exchange", "d1", "pairwise exchange, 1 away"),
                ("comet_bcast", "bcast", "broadcast + barrier"), ("gsum", "gsum", "global sum"),
                ("contention", "", "echo quiet / loaded"), ("overlap", "", "overlap (largest DAXPY)"),
                ("guard", "nsew", "guard-strip update"), ("shift", "", "shift north / east"),
                ("transpose", "block", "transpose"), ("rowbcast", "row", "row broadcast"),
                ("colbcast", "col", "column broadcast"))
# The curves of the ratio plots: (series, op prefix or None = the first op, TOP).
LAWN = (("tc", "tc", "-"), ("ts", "ts", "-"), ("bcast", None, "_"), ("bcast1", None, "_"),
        ("comb", "allreduce", "_"), ("comb", "reduce", "_"))
COMET = (("echo", "d1", "-"), ("exchange", "d1", "-"), ("comet_bcast", "bcast", "_"), ("gsum", "gsum", "_"),
         ("contention", "loaded", "-"), ("overlap", "ovl", "-"), ("guard", "nsew", "_"), ("shift", "north", "_"),
         ("transpose", "block", "_"), ("rowbcast", "row", "_"), ("colbcast", "col", "_"))


def main():
    ap = argparse.ArgumentParser(description="CSV files of a benchmark run -> summary.md, data, plots")
    ap.add_argument("run_dir")
    ap.add_argument("--gp", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots.gp"),
                    help="the gnuplot preamble the plot scripts load [bench/plots.gp]")
    ap.add_argument("--no-plots", action="store_true")
    a = ap.parse_args()
    run = a.run_dir
    # The scripts run in RUN_DIR: the preamble's path must be absolute.
    gp = a.gp if a.gp.startswith("/") else f"{os.getcwd()}/{a.gp}"
    if not a.no_plots and not os.access(gp, os.R_OK):
        fail(f"cannot read {gp} (the gnuplot preamble; --gp PATH)")
    try:
        names = sorted(os.listdir(run))
    except OSError:
        fail(f"cannot read directory {run}")
    rows = read_rows(run, [n for n in names if n.endswith(".csv") and n != VERDICTS])
    if not rows:
        fail(f"no benchmark rows in {run}/*.csv")
    rep = Report(run, make_curves(rows))
    rep.gp = gp
    rep.data_files()

    out = (f"# libblacs benchmark summary\n\n{len(rows)} measurements, {len(rep.curves)} curves, from `{run}`.  "
           "Times are microseconds per operation (see bench/README.md for what each series times); `ours` = this "
           "library, `ref` = the reference BLACS in Debian's ScaLAPACK, `mpi` = raw MPI on the same processes.\n\n")
    if os.path.exists(f"{run}/meta.txt"):
        with open(f"{run}/meta.txt", **ENC) as f:
            out += "```text\n" + f.read() + "```\n\n"
    notes = []  # the drivers' lines saying a series was skipped, once each
    for n in names:
        if n.endswith(".log"):
            with open(f"{run}/{n}", "rb") as f:
                lines = f.read().decode(**ENC).split("\n")
            notes += [x for x in dict.fromkeys(lines) if "skipped" in x and x not in notes]
    out += "Notes from the run logs:\n\n" + ("".join(f"- `{x}`\n" for x in notes) or "- (none)\n") + "\n"
    out += rep.key_tables()
    rep.failed = 0
    if not a.no_plots:
        out += rep.plots()
    out += rep.fit_tables()
    if any(c.impl == "ref" for c in rep.curves):
        out += rep.ratio_tables("ref")
    out += rep.ratio_tables("mpi")
    cells = rep.sender_verdicts()
    out += rep.verdict_tables(cells)
    rep.write("summary.md", out)
    print(f"analyze: {len(rows)} rows -> {run}/summary.md" + ("" if a.no_plots else f", {rep.made} plots" + (
        " (some failed: see plots/gnuplot.log)" if rep.failed else "")))
    if cells:
        n = {v: sum(c.verdict == v for c in cells) for v in ("faster", "same", "slower")}
        print(f"analyze: sender and slowest process against the reference, {len(cells)} cells from "
              f"{fmt_size(NOISE_MIN)}: {n['faster']} faster, {n['same']} within the noise, {n['slower']} slower "
              f"(verdicts.csv)")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
