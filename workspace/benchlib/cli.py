# SPDX-License-Identifier: GPL-2.0
"""The command line: parse the logs, check and analyse the samples, write
report.md, samples.json and speedup.png, print the tables."""

import argparse
import json
import os
import sys

from .analyse import analyse, goal_failures, goal_points, tlb_rows
from .checks import ARM64_TLBI_VA, check_sample, check_tlb, tlb_checked, tlbcount_sum
from .parse import KERNELS, load_log
from .plot import plot
from .report import environment, icount_run, write_report
from .stats import BOOTSTRAP_RESAMPLES
from .tables import (TABLE_HEAD, fmt_size, table_rows, text_table, tlb_table,
                     tlbcount_table)


def tlb_evidence(t):
    """What a checked PB-TLB record shows, in words."""
    out = []
    if t.get("traced", 1) and t.get("flushes") is not None:
        out.append("%s TLB flushes" % t["flushes"])
    ins = t.get("insns")
    if ins is not None:
        va = tlbcount_sum(ins, ARM64_TLBI_VA)
        out.append("%d TLBI by address in %d flushes (DSB ISHST), %d unfolds "
                   "(tlbcount)" % (va, ins.get("dsb_ishst", 0),
                                   ins.get("fn___contpte_try_unfold", 0)) if va else
                   "tlbcount: %s" % ", ".join("%s %d" % kv for kv in sorted(ins.items())))
    return "; ".join(out) or "nothing counted"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Analyse the console logs of the "
                                 "bench plans: vanilla against patched.")
    ap.add_argument("logs", nargs="+", help="console logs, or ARCH:KERNEL:BOOT:PATH")
    ap.add_argument("-o", "--out", default=None,
                    help="output directory (default: build/bench of the repo)")
    ap.add_argument("--strict", action="store_true",
                    help="fail on flagged samples, unpaired workloads or a 4K regression")
    ap.add_argument("--resamples", type=int, default=BOOTSTRAP_RESAMPLES)
    ap.add_argument("--aa", action="store_true",
                    help="the logs are an A/A calibration: \"patched\" is vanilla "
                         "with a layout change (make bench AA=1)")
    ap.add_argument("--check-counters", action="store_true",
                    help="exit 2 if a counter check flags a sample (the path a "
                         "run is about did not run), paired or not")
    ap.add_argument("--goals", action="store_true",
                    help="exit 3 if a no-regression point of the icount goals "
                         "(analyse.ICOUNT_GOALS) was not measured or is below its goal")
    args = ap.parse_args(argv)

    out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "..", "..", "build", "bench")
    os.makedirs(out, exist_ok=True)

    runs = [load_log(a) for a in args.logs]
    problems = []
    for r in runs:
        if r.get("kernel") not in KERNELS:
            problems.append("%s: kernel label %r is neither vanilla nor patched"
                            % (r["log"], r.get("kernel")))
        if not r["arch"]:
            problems.append("%s: unknown arch" % r["log"])
    samples = [s for r in runs for s in r["samples"]]
    for s in samples:
        s["flags"] = check_sample(s)
    rows = analyse(samples, resamples=args.resamples)

    env = environment(runs)
    png = os.path.join(out, "speedup.png")
    png_ok = plot(png, rows)
    trows = tlb_rows(runs)
    write_report(os.path.join(out, "report.md"), runs, samples, rows, env, png_ok,
                 trows, aa=args.aa)
    if args.aa:
        print("A/A calibration: \"patched\" is vanilla with a layout change; "
              "every ratio should be 1.\n")
    with open(os.path.join(out, "samples.json"), "w") as f:
        json.dump(dict(runs=[{k: v for k, v in r.items() if k not in ("samples", "bad_lines")}
                             for r in runs],
                       stats=rows, samples=samples, tlb=trows), f, indent=1, default=list)

    for arch in sorted({r["arch"] for r in rows}):
        e = env.get(arch, {})
        print("\n== %s (%s; host %s) ==" % (
            arch, "/".join(sorted(a.upper() for a in e.get("accel", []))),
            "; ".join(sorted(e.get("host_cpu", [])))))
        print(text_table(TABLE_HEAD, table_rows(rows, arch)))
        head, body = tlb_table(trows, arch)
        if body:
            print("TLB flushes (tlb:tlb_flush trace event, untimed run):")
            print(text_table(head, body))
        head, body = tlbcount_table(trows, arch)
        if body:
            print("TLB maintenance per folio (tlbcount plugin, untimed run):")
            print(text_table(head, body))
    if icount_run(env):
        print("\nTCG with -icount: times are guest instruction counts on one vCPU; "
              "read the speedups as ratios of instructions executed.")
    elif any("TCG" in a.upper() for e in env.values() for a in e["accel"]):
        print("\nTCG: times are emulation figures; read the speedups as ratios only.")
    print("\nspeedup = mean(vanilla)/mean(patched), 95% bootstrap CI")
    print("report:  %s" % os.path.join(out, "report.md"))
    print("JSON:    %s" % os.path.join(out, "samples.json"))
    print("plot:    %s" % (png if png_ok else
                           "none (matplotlib unavailable or nothing to plot)"))

    flagged = sum(1 for s in samples if s["flags"])
    if args.check_counters:
        # The patched kernel's traced flushes prove its batched unmap ran.
        for r in runs:
            if r.get("kernel") != "patched":
                continue
            for t in r["tlb"]:
                what = "%s %s %s" % (r["arch"], t.get("bench"), fmt_size(t.get("size_kb", 0)))
                fl = check_tlb(t, r["arch"])
                for f in fl:
                    print("check-counters: %s: %s" % (what, f), file=sys.stderr)
                flagged += bool(fl)
                if not fl and tlb_checked(t, r["arch"]):
                    print("check-counters: %s: %s for %s folios: the batched path"
                          % (what, tlb_evidence(t), t.get("folios")))
    if flagged:
        print("%d samples flagged by the counter checks (see report.md)" % flagged)
    if not samples:
        problems.append("no PB-SAMPLE lines found")
    unpaired = ["%s %s %s" % (r["arch"], r["bench"], fmt_size(r["size_kb"]))
                for r in rows if r["speedup"] is None]
    regress = ["%s %s %s %.3f [%.3f, %.3f]" % (r["arch"], r["bench"], fmt_size(r["size_kb"]),
                                                r["speedup"], r["ci_low"], r["ci_high"])
               for r in rows if r["regression"] and r["ci_high"] < 1]
    for p in problems:
        print("error: " + p, file=sys.stderr)
    if args.goals:
        if not icount_run(env):
            print("goals: the goals are instruction counts; this run is not under "
                  "-icount", file=sys.stderr)
            return 3
        known = []
        missed = goal_failures(rows, sorted({r["arch"] for r in runs}), known)
        for m in known:
            print("goals: " + m)
        for m in missed:
            print("goals: " + m, file=sys.stderr)
        if missed:
            return 3
        points = len(goal_points(r["arch"] for r in runs))
        print("goals: %d no-regression points, %d at or above their goals, %d "
              "below them but with the CI reaching the goal or not below the floor" % (
                  points, points - len(known), len(known)))
    if args.check_counters and flagged:
        print("check-counters: %d flagged samples" % flagged, file=sys.stderr)
        if not args.strict:
            return 2
    if args.strict:
        for u in unpaired:
            print("strict: measured on one kernel only: " + u, file=sys.stderr)
        for g in regress:
            print("strict: 4K regression: " + g, file=sys.stderr)
        if flagged:
            print("strict: %d flagged samples" % flagged, file=sys.stderr)
        if unpaired or regress or flagged:
            return 2
    return 1 if problems else 0
