#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of benchlib's analysis and output: analyse, tables, report,
plot and the command line, on synthetic console logs (run by
test_bench.py)."""

import contextlib
import io
import json
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import analyse, checks, cli, parse, plot, tables  # noqa: E402
from benchlib import profile  # noqa: E402
from benchlib import report as reportmd  # noqa: E402
from test_bench import HAVE_MPL, log_text, sample  # noqa: E402


def synth_runs(d, speedups, n=12, flag=None, boots=2, seed=1):
    """Write logs for every (arch, kernel, boot); speedups maps (arch, bench,
    size) -> true vanilla/patched ratio.  Returns the log paths."""
    rng = random.Random(seed)
    paths = []
    for arch in sorted({k[0] for k in speedups}):
        for boot in range(boots):
            for kernel in ("vanilla", "patched"):
                ss = []
                for (a, b, kb), ratio in sorted(speedups.items()):
                    if a != arch:
                        continue
                    mib = 128 if b == "lazyfree" else 256
                    base = 100e6 if kb == 4 else 50e6
                    mu = base if kernel == "vanilla" else base / ratio
                    ss.append(sample(b, kb, mib=mib, ns=int(mu), warmup=1))
                    for i in range(n // boots):
                        ns = int(rng.gauss(mu, mu * 0.03))
                        over = {}
                        if flag and flag == (arch, kernel, b, kb) and i == 0:
                            over = dict(swpout_fallback=3, swpout=4093)
                        ss.append(sample(b, kb, mib=mib, ns=ns, run=i, **over))
                p = os.path.join(d, "%s-%s-%d.log" % (arch, kernel, boot * 2 + (kernel == "patched")))
                with open(p, "w") as f:
                    f.write(log_text(arch, kernel, ss))
                with open(p[:-4] + ".meta.json", "w") as f:
                    json.dump(dict(accel="tcg", qemu="QEMU test", host_cpu="test CPU"), f)
                paths.append(p)
    return paths


def run_main(args):
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(args)
    return rc, out.getvalue(), err.getvalue()


class EndToEnd(unittest.TestCase):
    def test_patched_only_smoke_run_checks_counters(self):
        # make check's smoke run (KERNELS=patched): no ratios, but a run
        # whose counters show another path fails with --check-counters.
        with tempfile.TemporaryDirectory() as d:
            speed = {("riscv64", "pageout", 64): 1.3, ("x86_64", "pageout", 64): 1.2}
            logs = [p for p in synth_runs(d, speed) if "-patched-" in p]
            out = os.path.join(d, "out")
            rc, text, err = run_main(["-o", out, "--resamples", "50",
                                      "--check-counters"] + logs)
            self.assertEqual(rc, 0, err)
            self.assertIn("== riscv64 ", text)
            fd = os.path.join(d, "f")
            os.makedirs(fd)
            flagged = [p for p in synth_runs(fd, speed,
                                             flag=("riscv64", "patched", "pageout", 64))
                       if "-patched-" in p]
            rc, text, err = run_main(["-o", out, "--resamples", "50"] + flagged)
            self.assertEqual(rc, 0)
            rc, text, err = run_main(["-o", out, "--resamples", "50",
                                      "--check-counters"] + flagged)
            self.assertEqual(rc, 2)
            self.assertIn("check-counters: 2 flagged samples", err)

    SPEEDUPS = {("arm64", "pageout", 64): 2.0, ("arm64", "pageout", 4): 1.0,
                ("x86_64", "pageout", 64): 1.06, ("x86_64", "pageout", 4): 1.0,
                ("arm64", "lazyfree", 64): 1.0}

    def test_aa_report_says_so(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 64): 1.0}, n=4)
            rc, text, _ = run_main(["-o", out, "--resamples", "100", "--aa"] + logs)
            self.assertEqual(rc, 0)
            self.assertIn("A/A calibration", text)
            with open(os.path.join(out, "report.md")) as f:
                report = f.read()
            self.assertTrue(report.startswith(
                "# pgtable_batch benchmark: A/A calibration (vanilla vs vanilla)"))
            rc, text, _ = run_main(["-o", out, "--resamples", "100"] + logs)
            with open(os.path.join(out, "report.md")) as f:
                self.assertNotIn("A/A calibration", f.read())

    def test_icount_report_says_so(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 64): 1.2}, n=4)
            rc, text, _ = run_main(["-o", out, "--resamples", "100"] + logs)
            with open(os.path.join(out, "report.md")) as f:
                report = f.read()
            self.assertIn("QEMU's instruction emulator", report)
            self.assertNotIn("-icount", report + text)
            for p in logs:
                meta = p[:-4] + ".meta.json"
                with open(meta) as f:
                    m = json.load(f)
                m["accel"] = "tcg, icount shift=0"
                with open(meta, "w") as f:
                    json.dump(m, f)
            rc, text, _ = run_main(["-o", out, "--resamples", "100"] + logs)
            self.assertEqual(rc, 0)
            self.assertIn("TCG with -icount", text)
            with open(os.path.join(out, "report.md")) as f:
                report = f.read()
            self.assertIn(reportmd.ICOUNT_NOTE, report)
            self.assertNotIn("QEMU's instruction emulator", report)

    def test_report_samples_and_plot(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, self.SPEEDUPS, n=30)
            rc, text, _ = run_main(["-o", out, "--resamples", "500"] + logs)
            self.assertEqual(rc, 0)
            self.assertIn("== arm64 (TCG; host test CPU) ==", text)
            self.assertIn("== x86_64", text)
            with open(os.path.join(out, "samples.json")) as f:
                data = json.load(f)
            # 5 workloads x 2 kernels x 2 boots x (15 timed + 1 warm-up)
            self.assertEqual(len(data["samples"]), 5 * 2 * 2 * 16)
            rows = {(r["arch"], r["bench"], r["size_kb"]): r for r in data["stats"]}
            r = rows[("arm64", "pageout", 64)]
            self.assertEqual(r["vanilla"]["n"], 30)
            self.assertLess(r["ci_low"], 2.0)
            self.assertGreater(r["ci_high"], 2.0)
            self.assertGreater(r["ci_low"], 1.9)
            self.assertEqual(r["seed"]["seed"], "000")
            self.assertAlmostEqual(r["seed"]["ratio"], 2.147, places=3)
            self.assertAlmostEqual(rows[("x86_64", "pageout", 64)]["seed"]["ratio"],
                                   1.0588, places=3)
            self.assertFalse(rows[("arm64", "pageout", 4)]["regression"])
            with open(os.path.join(out, "report.md")) as f:
                rep = f.read()
            self.assertIn("TCG", rep)
            self.assertIn("emulation figures", rep)
            self.assertIn("test CPU", rep)
            self.assertIn("7.3.4-patched", rep)
            self.assertIn("ratio of means", rep)
            self.assertIn("arm64 guest clocksource: arch_sys_counter", rep)
            self.assertIn("x86_64 guest CPUs: 2.", rep)
            self.assertIn("x86_64 guest timed with a jiffies clocksource", rep)
            self.assertIn("Every sample's counters match", rep)
            self.assertIn("arm64 64K MADV_PAGEOUT: speedup 2.0", rep)
            self.assertIn("below the seed's 2.15x", rep)
            self.assertRegex(rep, r"arm64 4K MADV_PAGEOUT: speedup .*: no regression")
            self.assertEqual(os.path.exists(os.path.join(out, "speedup.png")), HAVE_MPL)

    def test_flagged_run_is_reported_and_fails_strict(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("arm64", "pageout", 64): 2.0}, n=10,
                              flag=("arm64", "patched", "pageout", 64))
            rc, text, _ = run_main(["-o", out, "--resamples", "200"] + logs)
            self.assertEqual(rc, 0)
            self.assertIn("FLAGGED v0/p2", text)
            with open(os.path.join(out, "report.md")) as f:
                rep = f.read()
            self.assertIn("arm64 patched pageout 64K: 2 samples", rep)
            self.assertIn("swpout_fallback", rep)
            with open(os.path.join(out, "samples.json")) as f:
                flagged = [s for s in json.load(f)["samples"] if s["flags"]]
            self.assertEqual(len(flagged), 2)
            self.assertTrue(all(s["kernel"] == "patched" for s in flagged))
            rc, _, err = run_main(["-o", out, "--strict", "--resamples", "200"] + logs)
            self.assertEqual(rc, 2)
            self.assertIn("2 flagged samples", err)

    def test_clean_strict_passes_and_regression_fails(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 4): 1.0}, n=20)
            rc, _, _ = run_main(["-o", out, "--strict", "--resamples", "300"] + logs)
            self.assertEqual(rc, 0)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 4): 0.9}, n=20)
            rc, text, err = run_main(["-o", out, "--strict", "--resamples", "300"] + logs)
            self.assertEqual(rc, 2)
            self.assertIn("REGRESSION", text)
            self.assertIn("4K regression", err)

    def test_unpaired_workload(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 64): 1.0}, n=4)
            vanilla = [p for p in logs if "vanilla" in p]
            rc, _, _ = run_main(["-o", out, "--resamples", "100"] + vanilla)
            self.assertEqual(rc, 0)
            rc, _, err = run_main(["-o", out, "--strict", "--resamples", "100"] + vanilla)
            self.assertEqual(rc, 2)
            self.assertIn("one kernel only", err)

    def test_no_samples_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x86_64-vanilla-0.log")
            with open(p, "w") as f:
                f.write("PB-BEGIN plan=bench kernel=7.3.4 arch=x86_64\nPB-END rc=1\n")
            rc, _, err = run_main(["-o", os.path.join(d, "out"), p])
            self.assertEqual(rc, 1)
            self.assertIn("no PB-SAMPLE", err)


def flagged(samples):
    for s in samples:
        s["flags"] = checks.check_sample(s)
    return samples


class Analyse(unittest.TestCase):
    def test_groups_skip_warmups_and_flag_a_4k_regression(self):
        ss = [dict(sample(size_kb=4, ns=100, warmup=1), kernel="vanilla",
                   arch="x86_64", boot=1)]
        for i, ns in enumerate((100, 110, 90)):
            ss.append(dict(sample(size_kb=4, ns=ns * 10 ** 6, run=i),
                           kernel="vanilla", arch="x86_64", boot=1))
            ss.append(dict(sample(size_kb=4, ns=ns * 12 ** 6 // 10 ** 6 * 10 ** 6, run=i),
                           kernel="patched", arch="x86_64", boot=2))
        rows = analyse.analyse(flagged(ss), resamples=200)
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual(r["vanilla"]["n"], 3)
        self.assertEqual(r["ci_method"], "runs")
        self.assertLess(r["speedup"], analyse.REGRESSION_LIMIT)
        self.assertTrue(r["regression"])
        self.assertEqual(r["seed"]["seed"], "000")
        self.assertEqual(analyse.per_boot_medians(ss)[("x86_64", "pageout", 4, 256)]
                         [("vanilla", 1)], 100.0)

    def test_two_boots_per_kernel_use_the_boot_bootstrap(self):
        ss = []
        for boot in (1, 2, 3, 4):
            kernel = "vanilla" if boot % 2 else "patched"
            for i in range(3):
                ss.append(dict(sample(ns=(2 if kernel == "vanilla" else 1) * 10 ** 6 + i),
                               kernel=kernel, arch="arm64", boot=boot))
        r = analyse.analyse(flagged(ss), resamples=200)[0]
        self.assertEqual(r["ci_method"], "boots")
        self.assertAlmostEqual(r["speedup"], 2.0, places=3)
        self.assertFalse(r["regression"])

    def test_sort_order_and_seed_lookup(self):
        keys = [("x86_64", "munmap", 64, 1024), ("arm64", "pageout", 64, 256),
                ("arm64", "lazyfree", 64, 128), ("arm64", "pageout", 4, 256)]
        self.assertEqual([k[1:3] for k in sorted(keys, key=analyse.sort_key)],
                         [("pageout", 4), ("pageout", 64), ("lazyfree", 64), ("munmap", 64)])
        self.assertAlmostEqual(analyse.seed_for("pageout", 64, "x86_64")["ratio"], 1.0588, places=3)
        self.assertTrue(analyse.seed_for("madvfree", 64, "arm64")["in_base"])
        self.assertIsNone(analyse.seed_for("pageout", 8, "arm64"))


class Tables(unittest.TestCase):
    def test_formats(self):
        self.assertEqual([tables.fmt_size(k) for k in (4, 64, 2048, 1536)],
                         ["4K", "64K", "2M", "1536K"])
        self.assertEqual([tables.fmt_ms(v) for v in (123.4, 12.34, 1.234, 0.1234)],
                         ["123", "12.3", "1.23", "0.123"])
        self.assertEqual(tables.fmt_num(None), "-")
        self.assertEqual(tables.fmt_num(3.0), "3")
        self.assertEqual(tables.fmt_num(2.25), "2.2")

    def test_text_and_markdown_tables(self):
        text = tables.text_table(("a", "long head"), [("xyz", "1"), ("b", "22")])
        self.assertEqual(text.splitlines(), ["a    long head", "---  ---------",
                                             "xyz  1", "b    22"])
        md = tables.md_table(("a", "b"), [("x|y", "2")])
        self.assertEqual(md.splitlines(), ["| a | b |", "|---|---|", "| x\\|y | 2 |"])

    def test_verdict_against_the_seed(self):
        row = dict(vanilla_flagged=0, patched_flagged=1, regression=False,
                   speedup=2.0, ci_low=1.9, ci_high=2.2,
                   seed=analyse.seed_for("pageout", 64, "arm64"))
        self.assertEqual(tables.verdict(row), "FLAGGED v0/p1, seed in CI")
        row.update(patched_flagged=0, speedup=1.5, ci_low=1.4, ci_high=1.6)
        self.assertEqual(tables.verdict(row), "< seed")
        row.update(seed=analyse.seed_for("madvfree", 64, None))
        self.assertEqual(tables.verdict(row), "expect 1.0")
        row.update(ci_low=0.9)
        self.assertEqual(tables.verdict(row), "expect 1.0 ok")


class Migration(unittest.TestCase):
    def test_goals_counters_and_report(self):
        with tempfile.TemporaryDirectory() as d:
            runs = [parse.load_log(p) for p in synth_runs(
                d, {("arm64", "migrate", 64): 2.6, ("arm64", "migrate", 4): 1.0,
                    ("arm64", "migrate_back", 64): 3.0,
                    ("x86_64", "migrate", 64): 1.1}, n=6)]
            samples = flagged([s for r in runs for s in r["samples"]])
            rows = analyse.analyse(samples, resamples=200)
            lines = tables.targets(rows)
            self.assertIn("- no MADV_PAGEOUT pair measured", lines)
            mig = [x for x in lines if "move_pages()" in x]
            self.assertEqual(len(mig), 3)
            self.assertIn("arm64 4K", mig[0])
            self.assertIn("arm64 64K", mig[1])
            self.assertIn("reaches the goal of 2.5x", mig[1])
            self.assertIn("x86_64 64K", mig[2])
            self.assertIn("**below the goal of 1.6x**", mig[2])
            self.assertTrue(all("this run is timed" in x for x in mig))
            self.assertFalse(any("this run is timed" in x
                                 for x in tables.targets(rows, icount=True)))
            # The 4K migration point counts as a regression below the limit.
            self.assertFalse([r for r in rows if r["regression"]])
            head, body = tables.migration_counters_table(rows, "arm64")
            self.assertEqual(len(body), 6)
            self.assertEqual(body[0][:5], ("migrate", "4K", "vanilla", "65536", "65536"))
            self.assertEqual(tables.counters_table(rows, "arm64")[1], [])
            path = os.path.join(d, "report.md")
            reportmd.write_report(path, runs, samples, rows,
                                  reportmd.environment(runs), False)
            with open(path) as f:
                rep = f.read()
            self.assertIn("Migration counters", rep)
            self.assertIn("Every sample's counters match the intended path.", rep)


class Output(unittest.TestCase):
    def test_report_sections_and_plot(self):
        with tempfile.TemporaryDirectory() as d:
            runs = [parse.load_log(p) for p in synth_runs(
                d, {("arm64", "pageout", 64): 2.0, ("arm64", "pageout", 4): 1.0}, n=6)]
            samples = flagged([s for r in runs for s in r["samples"]])
            rows = analyse.analyse(samples, resamples=100)
            png = os.path.join(d, "speedup.png")
            self.assertEqual(bool(plot.plot(png, rows)), HAVE_MPL)
            self.assertEqual(os.path.exists(png), HAVE_MPL)
            self.assertFalse(plot.plot(png + "2", []))
            # A CI that misses its ratio by a rounding error (one run a
            # side) or more (skewed runs) still plots.
            off = [dict(r) for r in rows]
            for r in off:
                if r["speedup"] is not None:
                    r["ci_low"] = r["ci_high"] = r["speedup"] * (1 + 1e-15)
            self.assertEqual(bool(plot.plot(os.path.join(d, "off.png"), off)), HAVE_MPL)
            # Every arch of the rows gets a line, riscv64 too; rows
            # without a ratio draw nothing and write no plot.
            rv = [dict(r, arch="riscv64") for r in rows]
            self.assertEqual(plot.plot(os.path.join(d, "rv.png"), rv),
                             ["riscv64"] if HAVE_MPL else False)
            self.assertFalse(plot.plot(os.path.join(d, "none.png"),
                                       [dict(r, speedup=None) for r in rows]))
            path = os.path.join(d, "report.md")
            reportmd.write_report(path, runs, samples, rows,
                                  reportmd.environment(runs), True)
            with open(path) as f:
                rep = f.read()
            for head in ("## Setup", "## Targets", "## Method", "## arm64",
                         "## Per-boot medians (ms)", "## Counter checks"):
                self.assertIn("\n%s\n" % head, rep)
            self.assertIn("![speedup against folio size](speedup.png)", rep)

    def test_command_line_prints_the_paths(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            logs = synth_runs(d, {("x86_64", "pageout", 64): 1.0}, n=4)
            rc, text, _ = run_main(["-o", out, "--resamples", "100"] + logs)
            self.assertEqual(rc, 0)
            self.assertIn("report:  %s/report.md" % out, text)
            self.assertIn("JSON:    %s/samples.json" % out, text)
            self.assertIn("plot:    %s" % (out + "/speedup.png" if HAVE_MPL else "none"), text)



class Profile(unittest.TestCase):
    """The per-function table of make profile (benchlib/profile.py)."""

    def call(self, **funcs):
        return {"total": sum(funcs.values()), "funcs": funcs}

    def test_medians_ignore_one_slow_call(self):
        calls = [self.call(f=10, lock=5), self.call(f=10, lock=40),
                 self.call(f=12)]
        self.assertEqual(profile.medians(calls), {"f": 10, "lock": 5})

    def test_table_orders_by_difference_and_keeps_clones(self):
        vanilla = [self.call(walk=139, **{"adv.constprop.0": 96, "ttu": 523})] * 3
        patched = [self.call(walk=139, adv=128, ttu=530)] * 3
        lines = profile.table("x86_64", "ttu", vanilla, patched).splitlines()
        self.assertIn("vanilla      758", lines[1])
        self.assertIn("patched      797", lines[2])
        rows = [line.split()[0] for line in lines[4:]]
        self.assertEqual(rows, ["adv", "adv.constprop.0", "ttu", "walk"])
        self.assertTrue(lines[4].endswith("+128"))
        self.assertTrue(lines[6].endswith("+7"))
        self.assertTrue(lines[7].endswith("+0"))


if __name__ == "__main__":
    unittest.main(verbosity=1)
