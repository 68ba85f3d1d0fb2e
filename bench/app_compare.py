#!/usr/bin/env python3
"""bench/app_compare.py - the parsing and the analysis of make app-compare
(bench/app-compare.sh): ScaLAPACK's own test and timing drivers on the
reference BLACS and on this library.

    python3 bench/app_compare.py parse DRIVER N REPS LOG
        one run's output -> one line "seconds,gflops,verdict,problems" on
        stdout.  Exit 0: every problem ran and passed its residual check
        (or the driver has none: verdict "unchecked"); 3: a residual check
        FAILED (the line is still printed); 1: results missing or
        unreadable (a message on stderr, no line).
    python3 bench/app_compare.py bindings OURS_LIB BLAS_DIR DIR
        the LD_DEBUG=bindings files of one run with the library preloaded
        (DIR/ours.*) and one without (DIR/ref.*): every BLACS name the
        program and ScaLAPACK bind must go to OURS_LIB in the first, to
        ScaLAPACK's own BLACS in the second, and dgemm_ to BLAS_DIR in both.
    python3 bench/app_compare.py report RUN_DIR [--gp bench/plots.gp]
        RUN_DIR/runs.csv (+ RUN_DIR/stats/*.csv) -> the table on stdout,
        RUN_DIR/summary.md, RUN_DIR/ratios.dat, RUN_DIR/plots/app-compare.gp
        and RUN_DIR/app-compare.png.
    python3 bench/app_compare.py selftest
        the parsing on the drivers' printed formats (and its failures) and
        the report on a synthetic run with known answers (make bench-check).

Standard library only.  Seconds are the drivers' own timed sections (the
factorization and solve, PDGEMM, PDSYEVR), summed over the REPS problems of
a run; they are recomputed from the printed MFLOPS with each driver's own
flop count (the printed times have 2 decimals) and checked against the
printed times.
"""
import csv
import glob
import os
import re
import statistics
import subprocess
import sys

# The flop counts of the drivers (square problems, NRHS = 1), as they compute them:
# pdludriver.f, pdlltdriver.f, pdqrdriver.f ('QR', M = N), PDOPBL3 (pblastim.f) for PDGEMM.
FLOPS = {
    "lu": lambda n: 2.0 / 3.0 * n**3 - 0.5 * n**2 + 2.0 * n**2,
    "llt": lambda n: n**3 / 3.0 + n**2 / 2.0 + 2.0 * n**2,
    "qr": lambda n: 2.0 * n**2 * (n - n / 3.0) + 2.0 * n * n,
    "gemm": lambda n: 2.0 * n**3,
    "sepr": None,  # PDSYEVR: the driver prints no flop rate
}
NUM = r"([-+0-9.EeDd*]+)"
# One result line per problem: the fields (time columns, MFLOPS column, verdict)
# and the resolution of the printed times.
LINES = {
    "lu": (re.compile(r"^WALL +(\d+) +(\d+) +\d+ +\d+ +\d+ +\d+ +\d+ +" + NUM + " +" + NUM + " +" + NUM +
                      r" +(\w+)"), (3, 4), 5, 6, 0.01),
    "llt": (re.compile(r"^WALL +[LU] +(\d+) +\d+ +\d+ +\d+ +\d+ +\d+ +" + NUM + " +" + NUM + " +" + NUM +
                       r" +(\w+)"), (2, 3), 4, 5, 0.01),
    "qr": (re.compile(r"^WALL +(\d+) +(\d+) +\d+ +\d+ +\d+ +\d+ +" + NUM + " +" + NUM + r" +(\w+)"), (3, ), 4, 5,
           0.01),
    "gemm": (re.compile(r"^ *\| +PDGEMM +" + NUM + " +" + NUM + " +" + NUM + " +" + NUM), (1, ), 2, None, 0.001),
    "sepr": (re.compile(r"^ +(\d+) +\d+ +\d+ +\d+ +\d+ +[YN] +" + NUM + " +" + NUM + " +" + NUM + " +" + NUM +
                        r" +(.*\S)"), (2, ), None, 6, 0.01),
}
# xdsyevr (pdseprsubtst.f) compares VL and VU before and after PDSYEVR, but
# pdseprtst.f never sets them for RANGE = 'A': whatever the stack holds,
# sometimes a NaN, and NaN .NE. NaN fails the check ("IL, IU, VL or VU
# altered by PDSYEVR", printed only where process 0 saw it) on a correct
# result.  Seen with both BLACS.  A FAILED line whose residuals (CHK, QTQ)
# are within the threshold of our SEPR.dat, in a run where the driver names
# no other failed check, is reported as FAILED-VLVU, not as a failure.
SEPR_THRESH = 80.0  # the threshold bench/app-compare.sh writes into SEPR.dat
SEPR_CHECKS = re.compile(r"PDSYEVR returned INFO|PDSEPQTQ returned|minerror|ICLUSTR|^ *M not|^ *NZ |NZ altered|"
                         r"Different processes|overwrite|ERROR", re.I | re.M)
MEMORY_RE = re.compile(r"TOTMEM|Not enough memory|Bad MEMORY|lack of memory|ILLEGAL|Bad .* parameters")


def fail(msg, code=1):
    print(f"app-compare: {msg}", file=sys.stderr)
    sys.exit(code)


def number(s):
    try:
        return float(s.replace("D", "E").replace("d", "e"))
    except ValueError:
        return None


def parse_run(driver, n, reps, text):
    """(seconds, gflops or None, verdict, problems) of one run's output; raises ValueError."""
    rx, tcols, fcol, vcol, res = LINES[driver]
    secs, verdicts, problems = 0.0, [], 0
    flops = FLOPS[driver](n) if FLOPS[driver] else None
    for line in text.splitlines():
        m = rx.match(line)
        if not m:
            continue
        problems += 1
        if driver in ("lu", "qr") and int(m.group(2)) != n or driver in ("llt", "sepr") and int(m.group(1)) != n:
            raise ValueError(f"a problem of another size than N={n}: {line.strip()}")
        printed = [number(m.group(c)) for c in tcols]
        if None in printed:
            raise ValueError(f"unreadable time in: {line.strip()}")
        t = sum(printed)
        if flops is not None:
            mf = number(m.group(fcol))
            if mf is not None and mf > 0:  # the exact time behind the rounded one
                exact = flops / (mf * 1e6)
                if abs(exact - t) > res * len(tcols) * 0.5 + 1e-9 + 1e-6 * t:
                    raise ValueError(f"the flop count does not give the printed time ({exact:.6f} s from "
                                     f"{mf} MFLOPS, printed {t}): {line.strip()}")
                t = exact
        secs += t
        if vcol is not None:
            v = m.group(vcol)
            v = "PASSED" if v.startswith("PASSED") else "FAILED" if v.startswith("FAILED") else v
            if driver == "sepr" and v == "FAILED" and not SEPR_CHECKS.search(text) and \
                    all(x is not None and x <= SEPR_THRESH for x in (number(m.group(4)), number(m.group(5)))):
                v = "FAILED-VLVU"
            verdicts.append(v)
    if problems != reps:
        why = [ln.strip() for ln in text.splitlines() if MEMORY_RE.search(ln)][:3]
        hint = (f" (the driver says: {' | '.join(why)}; its memory is fixed when it is compiled: take a smaller N)"
                if why else "")
        raise ValueError(f"{problems} results of {reps} problems{hint}")
    failed = re.search(r"^ *([1-9]\d*) tests completed and failed", text, re.M)
    skipped = re.search(r"^ *([1-9]\d*) tests skipped.*", text, re.M)
    if skipped:
        raise ValueError(f"{skipped.group(1)} problems skipped by the driver ({skipped.group(0).strip()})")
    if vcol is None:
        verdict = "unchecked"
    elif all(v == "PASSED" for v in verdicts) and not failed:
        verdict = "PASSED"
    elif any(v == "FAILED" for v in verdicts):
        verdict = "FAILED"
    elif all(v in ("PASSED", "FAILED-VLVU") for v in verdicts):
        verdict = "FAILED-VLVU"
    elif failed:
        verdict = "FAILED"
    else:
        raise ValueError(f"residual verdicts {sorted(set(verdicts))}: neither PASSED nor FAILED")
    gflops = flops * problems / secs / 1e9 if flops is not None and secs > 0 else None
    return secs, gflops, verdict, problems


def cmd_parse(args):
    if len(args) != 4 or args[0] not in LINES:
        fail("usage: parse lu|llt|qr|gemm|sepr N REPS LOG")
    driver, n, reps, log = args[0], int(args[1]), int(args[2]), args[3]
    try:
        with open(log, errors="replace") as f:
            text = f.read()
        secs, gf, verdict, problems = parse_run(driver, n, reps, text)
    except (OSError, ValueError) as e:
        fail(f"{log}: {e}")
    print(f"{secs:.6f},{'' if gf is None else f'{gf:.4f}'},{verdict},{problems}")
    if verdict == "FAILED":
        sys.exit(3)


BLACS_NAME = re.compile(r"^(blacs_\w+|Cblacs_\w+|C?[isdcz](ge|tr)(sd|rv|bs|br)2d_?|C?[isdcz]g(sum|amx|amn)2d_?)$")
BIND_RE = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^']+)'")


def bindings(files):
    rows = []
    for fn in files:
        with open(fn, errors="replace") as f:
            for line in f:
                m = BIND_RE.search(line)
                if m:
                    rows.append(m.groups())
    return rows


def check_bindings(ours, blas_dir, d):
    """(report lines, problems) of the LD_DEBUG=bindings files DIR/ours.* and DIR/ref.*."""
    ours, blas_dir = os.path.realpath(ours), os.path.realpath(blas_dir)
    problems, lines = [], []
    for side in ("ours", "ref"):
        rows = bindings(glob.glob(f"{d}/{side}.*"))
        if not rows:
            problems.append(f"no LD_DEBUG=bindings output in {d}/{side}.*")
            continue
        blacs = [(a, b, s) for a, b, s in rows if BLACS_NAME.match(s) and "libblacs" not in a]
        to_ours = [r for r in blacs if os.path.realpath(r[1]) == ours]
        to_sl = [r for r in blacs if "libscalapack" in r[1]]
        other = [r for r in blacs if r not in to_ours and r not in to_sl]
        gemm = {os.path.dirname(os.path.realpath(b)) for a, b, s in rows if s == "dgemm_"}
        names = len({s for _, _, s in blacs})
        lines.append(f"{side}: {len(blacs)} bindings of {names} BLACS names from the driver and ScaLAPACK: "
                     f"{len(to_ours)} to {ours}, {len(to_sl)} to ScaLAPACK's own BLACS, {len(other)} elsewhere; "
                     f"dgemm_ from {', '.join(sorted(gemm)) or 'nowhere'}")
        want, wrong = (to_ours, to_sl + other) if side == "ours" else (to_sl, to_ours + other)
        if not want or wrong:
            problems.append(f"{side}: BLACS calls bound to the wrong library, e.g. "
                            f"{(wrong or [('-', '-', 'none bound')])[0]}")
        if gemm != {blas_dir}:
            problems.append(f"{side}: dgemm_ bound to {sorted(gemm)}, not to {blas_dir}")
    return lines, problems


def cmd_bindings(args):
    if len(args) != 3:
        fail("usage: bindings OURS_LIB BLAS_DIR DIR")
    lines, problems = check_bindings(*args)
    print("\n".join(lines))
    if problems:
        fail("; ".join(problems))


def median(xs):
    return statistics.median(xs) if xs else None


def fmt(x, spec=".3f"):
    """x formatted, or '-' as wide as the spec asks."""
    return format(x, spec) if x is not None else format("-", ">" + spec.split(".")[0])


def spread(xs):
    """(max - min) / median, in percent."""
    return 100.0 * (max(xs) - min(xs)) / median(xs) if len(xs) > 1 and median(xs) else None


class Report:

    def __init__(self, run, gp):
        self.run, self.gp = run, gp
        with open(f"{run}/runs.csv") as f:
            self.rows = list(csv.DictReader(f))
        if not self.rows:
            fail(f"{run}/runs.csv has no runs")
        self.cases = []  # (case, np) in the order they ran
        for r in self.rows:
            k = (r["case"], int(r["np"]))
            if k not in self.cases:
                self.cases.append(k)
        self.md = []

    def side(self, case, np, side, col):
        rows = sorted((r for r in self.rows if r["case"] == case and int(r["np"]) == np and r["side"] == side),
                      key=lambda r: int(r["trial"]))
        return [float(r[col]) if r[col] != "" else None for r in rows]

    def out(self, text=""):
        print(text)
        self.md.append(text)

    def table(self):
        """The medians and ratios: a markdown table in summary.md, a narrower one on the terminal."""
        self.ratios = []
        md = ["| driver (routine, N) | np | grid | trials | GFLOPS ref | GFLOPS ours | GFLOPS ours/ref | s ref | "
              "s ours | time ours/ref | best time ours/ref | pairs ours/ref min..max | ref/ref consecutive min..max | "
              "time ratio vs ref/ref | ref spread % | ours spread % | launch s ref | launch s ours | launch ours/ref | "
              "verdicts |",
              "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|---:|---:|---|"]
        term = [f"{'driver':<16}{'np':>3} {'GF ref':>7} {'GF ours':>7} {'GF o/r':>7} {'s ref':>8} {'s ours':>8} "
                f"{'t o/r':>6} {'best':>6}  {'pairs o/r':<12} {'ref/ref':<12} {'noise?':<7} {'spr %':>6}  "
                f"{'launch o/r':>10}  verdicts"]
        for case, np in self.cases:
            tr, to = self.side(case, np, "ref", "seconds"), self.side(case, np, "ours", "seconds")
            if not tr or not to:
                continue
            gr = [g for g in self.side(case, np, "ref", "gflops") if g is not None]
            go = [g for g in self.side(case, np, "ours", "gflops") if g is not None]
            wr, wo = self.side(case, np, "ref", "wall_s"), self.side(case, np, "ours", "wall_s")
            pairs = [o / r for o, r in zip(to, tr)]
            cons = [b / a for a, b in zip(tr, tr[1:])]
            mgr, mgo = median(gr), median(go)
            rg = mgo / mgr if mgr and mgo else None
            rt, rw, rb = median(to) / median(tr), median(wo) / median(wr), min(to) / min(tr)
            verdicts = " ".join(sorted({r["verdict"] for r in self.rows if r["case"] == case and int(r["np"]) == np}))
            row = next(r for r in self.rows if r["case"] == case and int(r["np"]) == np)
            pr = f"{min(pairs):.3f}..{max(pairs):.3f}"
            cr = f"{min(cons):.3f}..{max(cons):.3f}" if cons else "-"
            inside = "-" if not cons else "inside" if min(cons) <= rt <= max(cons) else "outside"
            md.append(f"| {row['driver']} ({row['routine']}, N={row['n']}) | {np} | {row['grid']} | {len(tr)} | "
                      f"{fmt(mgr, '.2f')} | {fmt(mgo, '.2f')} | {fmt(rg)} | {median(tr):.4f} | {median(to):.4f} | "
                      f"{rt:.3f} | {rb:.3f} | {pr} | {cr} | {inside} | {fmt(spread(tr), '.1f')} | "
                      f"{fmt(spread(to), '.1f')} | "
                      f"{median(wr):.2f} | {median(wo):.2f} | {rw:.3f} | {verdicts} |")
            term.append(f"{case:<16}{np:>3} {fmt(mgr, '7.2f')} {fmt(mgo, '7.2f')} {fmt(rg, '7.3f')} "
                        f"{median(tr):8.4f} {median(to):8.4f} {rt:6.3f} {rb:6.3f}  {pr:<12} {cr:<12} {inside:<7} "
                        f"{fmt(spread(tr), '6.1f')}  {rw:10.3f}  {verdicts}")
            self.ratios.append((case, np, rg, rt, pairs, cons))
        print("\n".join(term))
        self.md.extend(md)

    def noise(self):
        """The reference against itself, over every case."""
        allcons = [abs(b / a - 1) for case, np in self.cases
                   for a, b in zip(self.side(case, np, "ref", "seconds")[:-1],
                                   self.side(case, np, "ref", "seconds")[1:])]
        spreads = [s for case, np in self.cases for s in [spread(self.side(case, np, "ref", "seconds"))]
                   if s is not None]
        if allcons:
            self.out(f"Noise (the reference against itself, same run): consecutive ref trials differ by "
                     f"{100 * median(allcons):.1f}% in the median, up to {100 * max(allcons):.1f}%; the spread "
                     f"(max - min) / median of the ref trials is {median(spreads):.1f}% in the median case, "
                     f"{max(spreads):.1f}% at most.  A ratio ours/ref inside the ref/ref range is no difference.")
        first = {True: [], False: []}  # per-pair time ratios ours/ref, by whether ref ran first (APP_ORDER)
        runs = {(r["case"], r["np"], r["trial"], r["side"]): r for r in self.rows if r["side"] in ("ref", "ours")}
        for (case, np, trial, side), o in runs.items():
            r = runs.get((case, np, trial, "ref"))
            if side == "ours" and r and float(r["seconds"]) > 0:
                first[int(r["run"]) < int(o["run"])].append(float(o["seconds"]) / float(r["seconds"]))
        if first[True] and first[False]:
            self.out(f"Order: the pairs where ref ran first give a median time ratio ours/ref of "
                     f"{median(first[True]):.3f} ({len(first[True])} pairs), those where ours ran first "
                     f"{median(first[False]):.3f} ({len(first[False])} pairs).")
        vlvu = [r for r in self.rows if r["verdict"] == "FAILED-VLVU"]
        if vlvu:
            sides = {}
            for r in vlvu:
                sides[r["side"]] = sides.get(r["side"], 0) + 1
            self.out(f"xdsyevr said FAILED with its residuals within the threshold (FAILED-VLVU: its check of VL and "
                     f"VU, which it never sets, bench/README.md) in {len(vlvu)} runs: "
                     + ", ".join(f"{k} {v} of {sum(1 for r in self.rows if r['side'] == k and r['driver'] == 'sepr')}"
                                 for k, v in sorted(sides.items())) + ".")
        loads = [float(r["load1"]) for r in self.rows if r.get("load1")]
        if loads:
            self.out(f"Load average (1 min) when the runs started: {min(loads):.2f} to {max(loads):.2f}, median "
                     f"{median(loads):.2f}, on {os.cpu_count()} cores.")

    def stats(self):
        """BLACS_STATS of the ours-stats runs, summed over the processes, by routine family (and in
        summary.md by family, TOP and algorithm)."""
        found = [(c, np, f"{self.run}/stats/{c}-np{np}.csv") for c, np in self.cases]
        found = [(c, np, fn) for c, np, fn in found if os.path.exists(fn)]
        if not found:
            return
        self.out()
        self.out("BLACS_STATS (this library's statistics) of the one run of each driver with them on, trial 0, not "
                 "timed: the whole program (matrix generation and the drivers' checks included), summed over the "
                 "processes; waiting = the part of the time inside spent waiting for messages.")
        self.out()
        md = ["| driver, np | launch s | in the BLACS s, all processes | per process s | % of the launch | "
              "waiting % of inside | families by time inside: s (% waiting) |", "|---|---:|---:|---:|---:|---:|---|"]
        term = [f"{'driver':<16}{'np':>3} {'launch s':>8} {'BLACS s':>8} {'per proc':>8} {'% launch':>8} "
                f"{'% wait':>6}  families by time inside: s (% waiting)"]
        detail = []
        for case, np, fn in found:
            with open(fn) as f:
                rows = list(csv.DictReader(f))
            if not rows:
                continue
            nproc = len({r["pnum"] for r in rows})
            fam, alg = {}, {}
            for r in rows:
                a = fam.setdefault(r["family"], [0.0, 0.0, 0.0])
                b = alg.setdefault((r["family"], r["top"], r["algorithm"]), [0.0, 0.0, 0.0, 0.0])
                for acc in (a, b):
                    acc[0] += float(r["calls"])
                    acc[1] += float(r["inside_s"])
                    acc[2] += float(r["waiting_s"])
                b[3] += float(r["bytes_total"])
            inside = sum(v[1] for v in fam.values())
            waiting = sum(v[2] for v in fam.values())
            wall = [float(r["wall_s"]) for r in self.rows
                    if r["case"] == case and int(r["np"]) == np and r["side"] == "ours-stats"]
            wall = wall[0] if wall else None
            share = 100 * inside / nproc / wall if wall else None
            wpct = 100 * waiting / inside if inside else 0
            top = sorted(fam.items(), key=lambda kv: -kv[1][1])[:4]
            fams = "; ".join(f"{k} {v[1]:.3f} ({100 * v[2] / v[1] if v[1] else 0:.0f}%)" for k, v in top)
            md.append(f"| {case}, {np} | {fmt(wall, '.2f')} | {inside:.3f} | {inside / nproc:.3f} | "
                      f"{fmt(share, '.0f')} | {wpct:.0f} | {fams} |")
            term.append(f"{case:<16}{np:>3} {fmt(wall, '8.2f')} {inside:8.3f} {inside / nproc:8.3f} "
                        f"{fmt(share, '7.0f')}% {wpct:5.0f}%  {fams}")
            detail.append(f"\n#### {case}, {np} processes (summed over {nproc} processes)\n")
            detail.append("| routine family | TOP | algorithm | calls | bytes | inside s | waiting s |")
            detail.append("|---|---|---|---:|---:|---:|---:|")
            for (f_, t, a), v in sorted(alg.items(), key=lambda kv: -kv[1][1]):
                detail.append(f"| {f_} | '{t}' | {a} | {v[0]:.0f} | {v[3]:.0f} | {v[1]:.4f} | {v[2]:.4f} |")
        print("\n".join(term))
        self.md.extend(md)
        self.md.append("\n### BLACS_STATS by routine family, TOP and algorithm\n")
        self.md.append("TOP `_` is the blank (default) TOP, `-` a routine without one.")
        self.md.extend(detail)

    def plot(self):
        """ratios.dat and plots/app-compare.gp: per case and process count the median ratio ours/ref (time;
        GFLOPS), the per-pair ratios' range, and beside it the reference against itself (consecutive trials)."""
        if not self.ratios:
            return False
        os.makedirs(f"{self.run}/plots", exist_ok=True)
        cases = []
        for case, *_ in self.ratios:
            if case not in cases:
                cases.append(case)
        nps = sorted({np for _, np, *_ in self.ratios})
        nan = "NaN"
        with open(f"{self.run}/ratios.dat", "w") as f:
            f.write("# x case np | time: ours/ref pair_min pair_max refref_median refref_min refref_max | "
                    "GFLOPS: ours/ref pair_min pair_max refref_median refref_min refref_max\n")
            for j, np in enumerate(nps):
                f.write(f"# np={np}\n")
                for case, p, rg, rt, pairs, cons in self.ratios:
                    if p != np:
                        continue
                    x = cases.index(case) + (j - (len(nps) - 1) / 2) * 0.3
                    c = [f"{median(cons):.4f}", f"{min(cons):.4f}", f"{max(cons):.4f}"] if cons else [nan] * 3
                    ci = [f"{1 / median(cons):.4f}", f"{1 / max(cons):.4f}", f"{1 / min(cons):.4f}"] if cons \
                        else [nan] * 3
                    g = [f"{rg:.4f}", f"{1 / max(pairs):.4f}", f"{1 / min(pairs):.4f}"] if rg else [nan] * 3
                    f.write(f"{x:.3f} {case} {np} {rt:.4f} {min(pairs):.4f} {max(pairs):.4f} {' '.join(c)} "
                            f"{' '.join(g)} {' '.join(ci)}\n")
                f.write("\n\n")
        xt = ", ".join(f'"{c}" {i}' for i, c in enumerate(cases))
        panels = ""
        for col, what in ((4, "time ours / ref (< 1: this library faster)"),
                          (10, "GFLOPS ours / ref (> 1: this library faster)")):
            panels += (f'set title "{what}"\nset ylabel "ratio"\nset xtics ({xt})\n'
                       f"set xrange [-0.6:{len(cases) - 0.4}]\nset arrow 1 from -0.6,1 to {len(cases) - 0.4},1 "
                       f"nohead dt 2 lc rgb 'black'\nplot ")
            plots = []
            for j, np in enumerate(nps):
                plots.append(f"'ratios.dat' index {j} using 1:{col}:{col + 1}:{col + 2} with yerrorbars "
                             f"ls {3 + j} title 'np={np}: ours/ref, median (bars: the pairs, min..max)'")
                plots.append(f"'' index {j} using ($1+0.1):{col + 3}:{col + 4}:{col + 5} with yerrorbars ls "
                             f"{20 + j} title 'np={np}: ref/ref, consecutive trials (the noise)'")
            panels += ", \\\n     ".join(plots) + "\n"
        script = (f"# generated by bench/app_compare.py\nW = 1300\nH = 600\nload '{self.gp}'\n"
                  "set output 'app-compare.png'\nunset logscale\nset format x '%g'\nset format y '%.2f'\n"
                  "unset xlabel\nset key below\nset multiplot layout 1,2 title "
                  "\"ScaLAPACK's drivers: this library preloaded / the reference BLACS\"\n"
                  f"{panels}unset multiplot\n")
        with open(f"{self.run}/plots/app-compare.gp", "w") as f:
            f.write(script)
        try:
            st = subprocess.run(["gnuplot", "plots/app-compare.gp"], cwd=self.run, stderr=subprocess.PIPE, text=True)
        except OSError as e:
            print(f"app-compare: no plot: {e}", file=sys.stderr)
            return False
        if st.returncode:
            print(f"app-compare: gnuplot failed on {self.run}/plots/app-compare.gp:\n{st.stderr}", file=sys.stderr)
            return False
        return True


def cmd_report(args):
    gp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots.gp")
    if len(args) == 3 and args[1] == "--gp":
        gp = os.path.abspath(args[2])
    elif len(args) != 1:
        fail("usage: report RUN_DIR [--gp bench/plots.gp]")
    rep = Report(args[0], gp)
    meta = f"{rep.run}/meta.txt"
    if os.path.exists(meta):
        with open(meta) as f:
            rep.md.append("```\n" + f.read().rstrip() + "\n```\n")
    rep.out("Medians over the trials; ratio ours/ref = this library preloaded / the reference BLACS, same binary; "
            "best = min(ours) / min(ref), the least disturbed runs.  s = the drivers' timed sections summed over "
            "the problems of a run; launch s = the whole mpirun (start-up, matrix generation, the residual checks).")
    rep.out()
    rep.table()
    rep.out()
    rep.noise()
    rep.stats()
    plotted = rep.plot()
    with open(f"{rep.run}/summary.md", "w") as f:
        f.write("# make app-compare: ScaLAPACK's drivers on the reference BLACS and on this library\n\n")
        f.write("\n".join(rep.md) + "\n")
        if plotted:
            f.write("\n![ratios](app-compare.png)\n")
    print()
    print(f"summary: {rep.run}/summary.md")
    print(f"csv:     {rep.run}/runs.csv")
    if plotted:
        print(f"plot:    {rep.run}/app-compare.png")


# Driver output as the drivers print it (their FORMATs), for selftest.
SAMPLES = {
    "lu": ("WALL   800   800  64     1    1    1    2     0.05     0.00  6764.43 PASSED\n"
           "WALL   800   800  64     1    1    1    2     0.07     0.00  5085.09 PASSED\n"
           "    2 tests completed and passed residual checks.\n"
           "    0 tests completed and failed residual checks.\n"
           "    0 tests skipped because of illegal input values.\n"),
    "llt": "WALL    L   500  64    1     1    1    2     0.00     0.00 11244.02 PASSED\n",
    "qr": "WALL    500    500  64  64     1     2      0.03     6281.39 PASSED   0.4E-01\n",
    "gemm": ("  |  PDGEMM           0.003      38223.046         -1.000          0.000\n"
             "  |  PDGEMM           0.002      61473.176         -1.000          0.000\n"),
    "sepr": ("  1300  64   1   2   8   N     0.52    -1.00  0.67E-03   2.8     PASSED   EVR  \n"
             "    0 tests skipped for lack of memory.\n    0 tests completed and failed.\n"),
}


def selftest():
    """The parsing on SAMPLES and their failures, and the report on a synthetic run."""
    import tempfile
    bad = []

    def check(what, cond):
        print(f"  {'ok  ' if cond else 'FAIL'}  {what}")
        if not cond:
            bad.append(what)

    def raises(driver, n, reps, text, want):
        try:
            parse_run(driver, n, reps, text)
        except ValueError as e:
            return want in str(e)
        return False

    lu = FLOPS["lu"](800)
    s, g, v, p = parse_run("lu", 800, 2, SAMPLES["lu"])
    check("lu: seconds from MFLOPS and the flop count, GFLOPS over the run",
          abs(s - (lu / 6764.43e6 + lu / 5085.09e6)) < 1e-9 and abs(g - 2 * lu / s / 1e9) < 1e-9 and v == "PASSED")
    for d, n in (("llt", 500), ("qr", 500)):
        s, g, v, p = parse_run(d, n, 1, SAMPLES[d])
        check(f"{d}: one problem, PASSED", p == 1 and v == "PASSED" and abs(s * g * 1e9 - FLOPS[d](n)) < 1)
    s, g, v, p = parse_run("gemm", 400, 2, SAMPLES["gemm"])
    check("gemm: two PDGEMM lines, unchecked", p == 2 and v == "unchecked" and
          abs(s - 2 * 400**3 * (1 / 38223.046e6 + 1 / 61473.176e6)) < 1e-9)
    s, g, v, p = parse_run("sepr", 1300, 1, SAMPLES["sepr"])
    check("sepr: the printed time, no GFLOPS", (s, g, v, p) == (0.52, None, "PASSED", 1))
    vlvu = SAMPLES["sepr"].replace("PASSED   EVR", "FAILED       ").replace("0 tests completed and failed",
                                                                            "1 tests completed and failed")
    check("sepr: FAILED with CHK and QTQ within the threshold, no check named: FAILED-VLVU",
          parse_run("sepr", 1300, 1, vlvu)[2] == "FAILED-VLVU" and
          parse_run("sepr", 1300, 1, "IL, IU, VL or VU altered by PDSYEVR\n" + vlvu)[2] == "FAILED-VLVU")
    check("sepr: FAILED with QTQ over the threshold, or another check named: FAILED",
          parse_run("sepr", 1300, 1, vlvu.replace("2.8  ", "95.  "))[2] == "FAILED" and
          parse_run("sepr", 1300, 1, "Different processes return different eigenvalues\n" + vlvu)[2] == "FAILED")
    check("a FAILED residual gives FAILED",
          parse_run("lu", 800, 2, SAMPLES["lu"].replace("6764.43 PASSED", "6764.43 FAILED"))[2] == "FAILED")
    check("a missing result is an error naming the driver's memory message",
          raises("lu", 800, 3, SAMPLES["lu"] + "Unable to perform factorization: need TOTMEM of at least  4214360\n",
                 "TOTMEM"))
    check("a skipped problem is an error",
          raises("sepr", 1300, 1, SAMPLES["sepr"].replace("0 tests skipped", "1 tests skipped"), "skipped"))
    check("a time the flop count does not give is an error",
          raises("lu", 800, 2, SAMPLES["lu"].replace("0.05     0.00", "0.09     0.00"), "flop count"))
    check("a problem of another size is an error", raises("lu", 700, 2, SAMPLES["lu"], "another size"))
    check("stars for MFLOPS (too wide a number): the printed time",
          abs(parse_run("lu", 800, 2, SAMPLES["lu"].replace(" 6764.43", "********"))[0] -
              (0.05 + lu / 5085.09e6)) < 1e-9)

    # A synthetic run: ref 1.0, 1.1, 0.9 s; ours half of each: every ratio 0.5 (GFLOPS 2).
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(f"{d}/stats")
        with open(f"{d}/runs.csv", "w") as f:
            f.write("run,case,driver,routine,n,nb,np,grid,side,trial,seconds,gflops,verdict,problems,wall_s,log,"
                    "load1\n")
            for t, sec in enumerate((1.0, 1.1, 0.9), 1):
                for side, k in (("ref", 1.0), ("ours", 0.5)):
                    f.write(f"0,lu-n800,lu,PDGETRF+PDGETRS,800,64,2,1x2,{side},{t},{sec * k},{lu / sec / k / 1e9},"
                            f"PASSED,1,{2 * sec * k},x,1.5\n")
            f.write("0,lu-n800,lu,PDGETRF+PDGETRS,800,64,2,1x2,ours-stats,0,1,1,PASSED,1,4.0,x,0.5\n")
        with open(f"{d}/stats/lu-n800-np2.csv", "w") as f:
            f.write("pnum,family,top,algorithm,calls,bytes_min,bytes_avg,bytes_max,bytes_total,inside_s,waiting_s\n"
                    "0,receive,-,-,10,8,8,8,80,1.0,0.5\n1,receive,-,-,10,8,8,8,80,3.0,2.5\n"
                    "1,broadcast send,_,general_tree,4,8,8,8,32,1.0,1.0\n")
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            cmd_report([d])
        with open(f"{d}/summary.md") as f:
            md = f.read()
        check("report: medians, ratios, pairs, ref/ref, spread", "| lu (PDGETRF+PDGETRS, N=800) | 2 | 1x2 | 3 | "
              f"{lu / 1e9:.2f} | {2 * lu / 1e9:.2f} | 2.000 | 1.0000 | 0.5000 | 0.500 | 0.500 | 0.500..0.500 | "
              "0.818..1.100 | outside | 20.0 | 20.0 | 2.00 | 1.00 | 0.500 | PASSED |" in md)
        check("report: the noise line", "consecutive ref trials differ by 14.1% in the median, up to 18.2%" in md)
        check("report: the load line", "started: 0.50 to 1.50, median 1.50" in md)
        check("report: BLACS_STATS summed over processes (5 s: 2.5 s per process, 62% of a 4 s run, 80% waiting)",
              "| lu-n800, 2 | 4.00 | 5.000 | 2.500 | 62 | 80 | receive 4.000 (75%); broadcast send 1.000 (100%) |"
              in md)
        check("report: ratios.dat and the plot", os.path.exists(f"{d}/ratios.dat") and
              (os.path.exists(f"{d}/app-compare.png") or not shutil_which("gnuplot")))
    # LD_DEBUG=bindings output: BLACS names to the preloaded library (ours) or to ScaLAPACK (ref).
    with tempfile.TemporaryDirectory() as d:
        lib, blas = f"{d}/libblacs-openmpi.so.1", f"{d}/openblas"
        sl = "/lib/x86_64-linux-gnu/libscalapack-openmpi.so.2.2"

        def write(name, blacs_to):
            with open(f"{d}/{name}", "w") as f:
                for sym in ("blacs_gridinit_", "Cdgesd2d", "dgsum2d_"):
                    f.write(f"  7310:\tbinding file {sl} [0] to {blacs_to} [0]: normal symbol `{sym}'\n")
                f.write(f"  7310:\tbinding file {sl} [0] to {blas}/libblas.so.3 [0]: normal symbol `dgemm_'\n")
        write("ours.7310", lib)
        write("ref.7311", sl)
        lines, problems = check_bindings(lib, blas, d)
        check("bindings: ours to the library, ref to ScaLAPACK, dgemm_ to the BLAS folder",
              not problems and "3 to" in lines[0] and "3 to ScaLAPACK" in lines[1])
        write("ours.7310", sl)
        problems = check_bindings(lib, blas, d)[1]
        check("bindings: ours bound to ScaLAPACK's BLACS is an error",
              any(p.startswith("ours: BLACS calls bound to the wrong library") for p in problems))
    print(f"app_compare selftest: {'all passed' if not bad else f'{len(bad)} FAILED'}")
    sys.exit(1 if bad else 0)


def shutil_which(prog):
    import shutil
    return shutil.which(prog)


def main():
    cmds = {"parse": cmd_parse, "bindings": cmd_bindings, "report": cmd_report, "selftest": lambda a: selftest()}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        fail("usage: app_compare.py parse|bindings|report|selftest ... (see the file's head)")
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
