#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The one-screen answer of `make check`, from what its steps left behind.

    summary.py [--arches "x86_64 arm64"] [--variant test] [--tier gate|full]
               [--since EPOCH]

Per arch: the KUnit suites' passes and failures and the guest's check
plan (bytes verified, faults injected, mismatches, from the "# SUMMARY"
lines of build/logs/<arch>-patched-<variant>-check.log), the mm selftests
against vanilla (the selftests-compare lines test-guest printed), and the
time of each guest boot.  Then the lint findings (lint.sh's own lines),
the time of every step since EPOCH (build/progress/times.json, written by
progress.py; default: build/progress/check.start) and the total.
"""

import argparse
import json
import os
import re
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(REPO, "build"))
PROGRESS = os.path.join(BUILD, "progress")

KUNIT_RE = re.compile(r"^(?:\[ *[0-9.]+\] )?\s*# (\S+): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)")
SUMMARY_RE = re.compile(r"^# SUMMARY prog=(\S+) (.*)")
CHECKSTEP_RE = re.compile(r"^# check: (\S+): rc=(\d+) (\d+) s")
NOTOK_RE = re.compile(r"^not ok \d+ (.*)")
# What a failed case printed before its "not ok": the last few lines.
FAIL_CONTEXT = 4
TIMING_RE = re.compile(r"^# \S+ \d+kB: [0-9.]+ s$")
# Failed cases the summary names, per arch.
FAIL_SHOWN = 3
SELFTEST_RE = re.compile(r"^PB-SELFTEST (\S+) pass=(\d+) skip=(\d+) fail=(\d+)")
TOP_STEPS = ("deps", "base", "tree", "kernel-", "guest-bin-", "lint", "test-harness",
             "test-cocci", "test-bench-unit", "test-guest", "bench-quick", "bench-icount")


def mmss(secs):
    secs = int(round(secs))
    if secs >= 3600:
        return "%d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)
    return "%d:%02d" % (secs // 60, secs % 60)


def size(n):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div:
            return "%.1f %s" % (n / div, unit)
    return "%d B" % n


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().replace("\r", "").splitlines()
    except OSError:
        return None


def check_log(lines):
    """KUnit suites and the check plan's SUMMARY figures of one console log."""
    out = dict(kunit=[], progs={}, steps=[], end=None, fi_skip=None, failed=[],
               mig_off=False)
    said = []	# the "# " lines of the case running
    step = None
    for ln in lines:
        if ln.startswith("# check: ") and ": rc=" not in ln:
            step = ln[len("# check: "):].split(":", 1)[0]
        m = NOTOK_RE.match(ln)
        if m:
            out["failed"].append((step, m.group(1), said[-FAIL_CONTEXT:]))
        if ln.startswith(("ok ", "not ok ", "# check: ")):
            said = []
        elif ln.startswith("# ") and not SUMMARY_RE.match(ln) and not TIMING_RE.match(ln):
            said.append(ln[2:])
        if ln == "# check: migrate: not run (migrate=0)":
            out["mig_off"] = True
        if ln.startswith("ok - faultinject # SKIP "):
            out["fi_skip"] = ln[len("ok - faultinject # SKIP "):]
        m = KUNIT_RE.match(ln)
        if m and m.group(1) != "Totals":
            out["kunit"].append((m.group(1),) + tuple(int(x) for x in m.group(2, 3, 4)))
        m = SUMMARY_RE.match(ln)
        if m:
            kv = dict(t.split("=", 1) for t in m.group(2).split() if "=" in t)
            p = out["progs"].setdefault(m.group(1), {})
            for k, v in kv.items():
                if re.fullmatch(r"-?\d+", v):
                    p[k] = p.get(k, 0) + int(v)
        m = CHECKSTEP_RE.match(ln)
        if m:
            out["steps"].append((m.group(1), int(m.group(2)), int(m.group(3))))
        if ln.startswith("PB-END rc="):
            out["end"] = ln.split("=", 1)[1].split()[0]
    return out


def since_runs(entry, since):
    """(end, secs) of a step: its longest run since @since.  A later step
    may run it again as a quick check (make bench checks the kernels)."""
    runs = [r for r in entry.get("runs", []) if r[1] >= since]
    if not runs:
        return entry["end"], entry["secs"]
    secs, end = max(runs)
    return end, secs


def arch_lines(arch, variant, saved, since=0, tier="full"):
    """The summary lines of @arch; logs older than @since are not this run's."""
    logs = os.path.join(BUILD, "logs")
    res = []
    # The gate's check boot has a log of its own (test-guest.sh).
    name = "%s-patched-%s-check%s.log" % (arch, variant, "-gate" if tier == "gate" else "")
    path = os.path.join(logs, name)
    lines = read(path)
    if lines is None:
        return ["  check plan        no log (test-guest did not run)"]
    if os.path.getmtime(path) < since:
        return ["  check plan        no log of this run (%s is an earlier run's)" % name]
    c = check_log(lines)
    if c["kunit"]:
        for suite, p, f, s in c["kunit"]:
            res.append("  %-17s %d passed, %d failed, %d skipped" % ("KUnit " + suite, p, f, s))
    else:
        res.append("  KUnit             no suite result in the log")
    pr = c["progs"]
    progs = ("pgtable_batch_integrity", "pgtable_batch_migrate", "pgtable_batch_stress", "faultinject")
    verified = sum(pr.get(p, {}).get("bytes_verified", 0) for p in progs)
    mism = sum(pr.get(p, {}).get("mismatches", 0) for p in progs)
    res.append("  data integrity    %s verified, %d mismatches (swap %s, migration %s, "
               "stress %s, under fault injection %s)" % (
                   size(verified), mism,
                   size(pr.get("pgtable_batch_integrity", {}).get("bytes_verified", 0)),
                   size(pr.get("pgtable_batch_migrate", {}).get("bytes_verified", 0)),
                   size(pr.get("pgtable_batch_stress", {}).get("bytes_verified", 0)),
                   size(pr.get("faultinject", {}).get("bytes_verified", 0))))
    if "pgtable_batch_migrate" in pr:
        res.append("  migration         %d pages migrated, %d large folios split" % (
            pr["pgtable_batch_migrate"].get("pages_migrated", 0), pr["pgtable_batch_migrate"].get("splits", 0)))
    elif c["mig_off"]:
        res.append("  migration         not run on this arch (MIGRATE_ARCHES)")
    else:
        res.append("  migration         did not run")
    if c["fi_skip"]:
        res.append("  faults injected   none, skipped: %s" % c["fi_skip"])
    elif "faultinject" in pr:
        res.append("  faults injected   %d swap dup failures" % pr["faultinject"].get("injected", 0))
    else:
        res.append("  faults injected   none (fault injection did not run)")
    steps = ", ".join("%s %s%s" % (n, mmss(s), "" if rc == 0 else " rc=%d" % rc)
                      for n, rc, s in c["steps"])
    res.append("  check plan        %s%s" % ("ok" if c["end"] == "0" else
                                           "FAILED (PB-END rc=%s)" % c["end"],
                                           ": " + steps if steps else ""))
    for step, case, said in c["failed"][:FAIL_SHOWN]:
        res.append("    not ok          %s: %s" % (step or "?", case))
        for ln in said:
            res.append("                      %s" % ln[:100])
    if len(c["failed"]) > FAIL_SHOWN:
        res.append("    not ok          %d more, in %s-patched-%s-check.log" % (
            len(c["failed"]) - FAIL_SHOWN, arch, variant))
    if tier == "gate":
        # The gate runs a few selftests in its check boot.
        st = lines if any(SELFTEST_RE.match(ln) for ln in lines) else None
    else:
        path = os.path.join(logs, "%s-patched-%s-selftests.log" % (arch, variant))
        st = read(path)
        if st is not None and os.path.getmtime(path) < since:
            st = None	# an earlier run's (this arch is not in SELFTEST_ARCHES)
    # selftests-compare's lines and test-guest's verdict on a rerun.
    verdict = [re.sub(r"^(selftests|guest): %s:? " % arch, "", ln) for ln in saved
               if ln.startswith(("selftests: %s:" % arch, "selftests: %s " % arch)) or
               ln.startswith("guest: %s: " % arch) and "second boot" in ln]
    if st is None:
        res.append("  mm selftests      not run")
    else:
        tests = [SELFTEST_RE.match(ln) for ln in st]
        tests = [m for m in tests if m]
        p = sum(int(m.group(2)) for m in tests)
        s = sum(int(m.group(3)) for m in tests)
        f = sum(int(m.group(4)) for m in tests)
        res.append("  mm selftests      %d tests, %d passed, %d skipped, %d failed%s" % (
            len(tests), p, s, f, " (%s; check-full runs all)" % " ".join(m.group(1) for m in tests)
            if tier == "gate" else ""))
        for v in verdict[-3:]:
            res.append("    vs vanilla:     %s" % v)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description="Summarize the last make check.")
    ap.add_argument("--arches", default="x86_64 arm64")
    ap.add_argument("--variant", default="test")
    ap.add_argument("--tier", choices=("gate", "full"), default="full",
                    help="make check (gate) or make check-full (full)")
    ap.add_argument("--since", type=int, help="epoch of the start (default: check.start)")
    a = ap.parse_args(argv)
    since = a.since
    if since is None:
        try:
            with open(os.path.join(PROGRESS, "check.start")) as f:
                since = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            since = 0
    try:
        with open(os.path.join(PROGRESS, "times.json")) as f:
            times = json.load(f)
    except (OSError, ValueError):
        times = {}
    gate = a.tier == "gate"
    saved = read(os.path.join(PROGRESS, "test-guest%s.log" % ("-gate" if gate else ""))) or []
    bar = "=" * 72
    print(bar)
    print("make %s summary (VARIANT=%s)" % ("check" if gate else "check-full", a.variant))
    for arch in a.arches.split():
        print("%s:" % arch)
        for ln in arch_lines(arch, a.variant, saved, since, a.tier):
            print(ln)
        boots = sorted((v["end"], k, v["secs"]) for k, v in times.items()
                       if k.startswith("guest-%s-" % arch) and v.get("end", 0) >= since)
        if boots:
            print("  guest boots       " + ", ".join(
                "%s %s" % (k[len("guest-%s-" % arch):], mmss(s)) for _, k, s in boots))
    lint = [ln[len("lint: "):] for ln in read(os.path.join(PROGRESS, "lint.log")) or []
            if ln.startswith("lint: ")]
    print("lint:")
    for ln in lint or ["no lint output (build/progress/lint.log)"]:
        print("  " + ln[:110])
    steps = sorted(since_runs(v, since) + (k,) for k, v in times.items()
                   if v.get("end", 0) >= since and k.startswith(TOP_STEPS))
    steps = [(end, k, secs) for end, secs, k in steps]
    if steps:
        cells = ["%s %s" % (k, mmss(s)) for _, k, s in steps]
        print("steps:")
        for i in range(0, len(cells), 4):
            print("  " + "  ".join("%-26s" % c for c in cells[i:i + 4]).rstrip())
    if since:
        print("total: %s (since %s)" % (mmss(time.time() - since),
                                       time.strftime("%H:%M:%S", time.localtime(since))))
    print(bar)
    return 0


if __name__ == "__main__":
    sys.exit(main())
