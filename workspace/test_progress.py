#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of progress.py (estimates, object counts, following a console
log, running a step) and summary.py (the summary of make check)."""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import progress  # noqa: E402
import summary  # noqa: E402


class Dirs(unittest.TestCase):
    """Point both modules at a scratch build directory."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.saved = (progress.DIR, progress.TIMES, summary.BUILD, summary.PROGRESS)
        progress.DIR = summary.PROGRESS = os.path.join(self.d, "progress")
        progress.TIMES = os.path.join(progress.DIR, "times.json")
        summary.BUILD = self.d

    def tearDown(self):
        progress.DIR, progress.TIMES, summary.BUILD, summary.PROGRESS = self.saved
        self.tmp.cleanup()


def run_step(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = progress.main(argv)
    return rc, out.getvalue()


class Progress(Dirs):
    def test_estimates_from_the_readme_then_from_the_last_run(self):
        self.assertEqual(progress.estimate("guest-arm64-patched-test-selftests", {}),
                         (280, "README"))
        self.assertEqual(progress.estimate("guest-x86_64-vanilla-test-bench-quick-b1", {}),
                         (75, "README"))
        self.assertEqual(progress.estimate("guest-arm64-patched-bench-bench-b4", {}),
                         (180, "README"))
        self.assertEqual(progress.estimate("no-such-step", {}), (None, None))
        progress.record("lint", secs=42.0, end=1)
        self.assertEqual(progress.estimate("lint"), (42.0, "last run"))

    def test_count_objects_written_since(self):
        os.makedirs(os.path.join(self.d, "o", "mm"))
        old = os.path.join(self.d, "o", "old.o")
        for p in (old, os.path.join(self.d, "o", "mm", "rmap.o"),
                  os.path.join(self.d, "o", "mm", "rmap.c")):
            open(p, "w").close()
        os.utime(old, (1, 1))
        self.assertEqual(progress.count_objects(os.path.join(self.d, "o"), 100), 1)

    def test_follower_skips_the_previous_log_and_reads_the_rewritten_one(self):
        log = os.path.join(self.d, "g.log")
        with open(log, "w") as f:
            f.write("PB-PROGRESS 9/9 of the last run\n")
        os.utime(log, (1, 1))
        fo = progress.Follower(log)
        self.assertEqual(fo.lines(), [])
        with open(log, "w") as f:	# truncated by the new boot
            f.write("PB-BEGIN plan=check\r\nhalf a li")
        self.assertEqual(fo.lines(), ["PB-BEGIN plan=check"])
        with open(log, "a") as f:
            f.write("ne\nPB-END rc=0\n")
        # The runner rewrites the log when the guest is done.
        os.rename(log, log + ".old")
        with open(log, "w") as f:
            f.write("something else\n")
        self.assertEqual(fo.lines(), ["half a line", "PB-END rc=0"])
        fo.close()

    def test_kernel_build_eta_follows_the_object_pace(self):
        args = progress.main.__globals__["argparse"].Namespace(
            key="kernel-x86_64-vanilla-test", label=None, objects=self.d, then="",
            lock=None, follow=None)
        step = progress.Step(args)
        self.assertEqual(step.est, 540)
        self.assertEqual(step.objs_expected, 887)
        step.objs = 887 // 4 + 1	# a quarter in 60 s: by pace 180 s left, by time 480 s
        self.assertAlmostEqual(step.left(60), 0.75 * 480 + 0.25 * 180, delta=2)
        step.objs = 10	# too few to tell the pace: the time estimate
        self.assertAlmostEqual(step.left(60), 480)
        step.objs = 887 * 9 // 10	# nine tenths: mostly the pace
        self.assertLess(step.left(500), 0.1 * 40 + 0.9 * 56 + 1)
        args.key = "kernel-arm64-patched-test"
        self.assertEqual(progress.Step(args).objs_expected, 811)

    def test_lock_waits_in_line_and_is_held_by_the_command(self):
        lk = os.path.join(self.d, "cpu.lock")
        holder = subprocess.Popen(["flock", lk, "sleep", "2.5"])
        time.sleep(0.5)
        beat = progress.HEARTBEAT
        progress.HEARTBEAT = 1
        try:
            rc, out = run_step(["run", "--key", "k", "--label", "kernel", "--lock", lk, "--",
                                "sh", "-c", "flock -n %s true && echo free || echo held" % lk])
        finally:
            progress.HEARTBEAT = beat
            holder.wait()
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"kernel: waiting for .*cpu.lock \(another build holds it\)$")
        self.assertRegex(lines[1], r"kernel: still waiting for .*cpu.lock, 0:01$")
        self.assertEqual(lines[-1], "held")

    def test_the_last_runs_are_kept(self):
        for secs in (600, 30, 31):
            progress.record("k", secs=secs, end=int(time.time()))
        e = progress.load_times()["k"]
        self.assertEqual(e["secs"], 31)
        self.assertEqual([r[0] for r in e["runs"]], [600, 30, 31])
        for secs in range(10):
            progress.record("k", secs=secs, end=int(time.time()))
        self.assertEqual(len(progress.load_times()["k"]["runs"]), 5)

    def test_a_step_is_recorded_only_when_it_passes(self):
        rc, out = run_step(["run", "--key", "s", "--", "sh", "-c", "echo one; echo two"])
        self.assertEqual(rc, 0)
        self.assertEqual(out, "one\ntwo\n")	# quick: nothing of its own
        with open(os.path.join(progress.DIR, "s.log")) as f:
            self.assertEqual(f.read(), "one\ntwo\n")
        self.assertIn("s", progress.load_times())
        rc, out = run_step(["run", "--key", "t", "--label", "step t", "--", "sh", "-c",
                            "echo bad; exit 3"])
        self.assertEqual(rc, 3)
        self.assertRegex(out, r"^bad\n\d\d:\d\d:\d\d step t: FAILED \(exit 3\) in 0:00\n$")
        self.assertNotIn("t", progress.load_times())

    def test_a_long_step_announces_itself_and_beats(self):
        quiet, beat = progress.QUIET, progress.HEARTBEAT
        progress.QUIET, progress.HEARTBEAT = 1, 1
        try:
            rc, out = run_step(["run", "--key", "guest-x86_64-patched-test-check",
                                "--label", "boot 1/2", "--then",
                                "guest-arm64-patched-test-check", "--", "sleep", "3.5"])
        finally:
            progress.QUIET, progress.HEARTBEAT = quiet, beat
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"boot 1/2: started 0:01 ago, ~4 min \(README\)$")
        self.assertRegex(lines[1], r"boot 1/2: 0:0\d, ~4 min left, ~8 min for all$")
        self.assertRegex(lines[-1], r"boot 1/2: done in 0:0[34] \(estimate 4:15\)$")
        self.assertAlmostEqual(progress.load_times()["guest-x86_64-patched-test-check"]["secs"],
                               3.5, delta=1)


CHECK_LOG = """\
[    5.1]     # pgtable_batch: pass:23 fail:0 skip:1 total:24
[    5.1] # Totals: pass:23 fail:0 skip:1 total:24
PB-BEGIN plan=check kernel=7.3.4 arch=x86_64 cpus=2
# SUMMARY prog=pgtable_batch_integrity bytes_verified=1048576 swpouts=1 swapped_pages=16 mismatches=0
# check: integrity: rc=0 95 s
# SUMMARY prog=pgtable_batch_integrity bytes_verified=1048576 swpouts=1 swapped_pages=16 mismatches=0
# check: smallswap: rc=0 12 s
# SUMMARY prog=pgtable_batch_migrate bytes_verified=1048576 pages_migrated=4096 splits=0 mismatches=0
# check: migrate: rc=0 30 s
# SUMMARY prog=pgtable_batch_stress secs=20 bytes_verified=2097152 mismatches=2 forks=3
# check: stress: rc=1 24 s
# SUMMARY prog=faultinject injected=812 probability=10 bytes_verified=4194304 mismatches=0
# check: faultinject: rc=0 80 s
PB-END rc=1
"""


class Summary(Dirs):
    def test_a_skipped_fault_injection_says_why(self):
        lines = ["# check: faultinject: /plans/faultinject",
                 "ok - faultinject # SKIP no /sys/kernel/debug/fail_swap_dup",
                 "# check: faultinject: rc=0 5 s"]
        self.assertEqual(summary.check_log(lines)["fi_skip"], "no /sys/kernel/debug/fail_swap_dup")
        os.makedirs(os.path.join(self.d, "logs"))
        with open(os.path.join(self.d, "logs", "arm64-patched-test-check.log"), "w") as f:
            f.write("\n".join(lines) + "\n")
        text = "\n".join(summary.arch_lines("arm64", "test", []))
        self.assertIn("faults injected   none, skipped: no /sys/kernel/debug/fail_swap_dup", text)

    def test_migration_left_out_on_an_arch_says_so(self):
        lines = ["# check: migrate: not run (migrate=0)",
                 "# check: stress: pgtable_batch_stress -d 20 -m 16"]
        self.assertTrue(summary.check_log(lines)["mig_off"])
        self.assertFalse(summary.check_log(CHECK_LOG.splitlines())["mig_off"])
        os.makedirs(os.path.join(self.d, "logs"))
        with open(os.path.join(self.d, "logs", "riscv64-patched-test-check.log"), "w") as f:
            f.write("\n".join(lines) + "\n")
        text = "\n".join(summary.arch_lines("riscv64", "test", []))
        self.assertIn("migration         not run on this arch (MIGRATE_ARCHES)", text)

    def test_check_log(self):
        c = summary.check_log(CHECK_LOG.splitlines())
        self.assertEqual(c["kunit"], [("pgtable_batch", 23, 0, 1)])
        self.assertEqual(c["progs"]["pgtable_batch_integrity"]["bytes_verified"], 2 << 20)
        self.assertEqual(c["progs"]["faultinject"]["injected"], 812)
        self.assertEqual(c["steps"][3], ("stress", 1, 24))
        self.assertEqual(c["end"], "1")

    def test_a_failed_case_shows_what_it_printed(self):
        lines = ["# check: migrate: pgtable_batch_migrate -m 4", "ok 6 pinned 4kB",
                 "# inject: 100%: 10240 failures injected, 2 of 1024 pages moved",
                 "# inject: page 3: status 1, expected node 0",
                 "# inject 4kB: 1.17 s", "not ok 7 inject 4kB", "ok 8 race 4kB",
                 "not ok 9 unmap 4kB", "# SUMMARY prog=pgtable_batch_migrate mismatches=0",
                 "# check: migrate: rc=1 39 s", "# check: stress: pgtable_batch_stress",
                 "# a", "# b", "# c", "# d", "# e", "not ok 1 fork",
                 "not ok 2 swap", "# check: stress: rc=1 9 s", "PB-END rc=1"]
        c = summary.check_log(lines)
        self.assertEqual(c["failed"][0], ("migrate", "inject 4kB", [
            "inject: 100%: 10240 failures injected, 2 of 1024 pages moved",
            "inject: page 3: status 1, expected node 0"]))
        self.assertEqual(c["failed"][1], ("migrate", "unmap 4kB", []))
        self.assertEqual(c["failed"][2], ("stress", "fork", ["b", "c", "d", "e"]))
        os.makedirs(os.path.join(self.d, "logs"))
        with open(os.path.join(self.d, "logs", "x86_64-patched-test-check.log"), "w") as f:
            f.write("\n".join(lines) + "\n")
        text = "\n".join(summary.arch_lines("x86_64", "test", []))
        self.assertIn("check plan        FAILED (PB-END rc=1): migrate 0:39 rc=1, "
                      "stress 0:09 rc=1\n"
                      "    not ok          migrate: inject 4kB\n"
                      "                      inject: 100%: 10240 failures injected, 2 of 1024 "
                      "pages moved\n", text)
        self.assertIn("    not ok          1 more, in x86_64-patched-test-check.log", text)

    def test_the_summary_of_a_run(self):
        os.makedirs(os.path.join(self.d, "logs"))
        with open(os.path.join(self.d, "logs", "x86_64-patched-test-check.log"), "w") as f:
            f.write(CHECK_LOG)
        with open(os.path.join(self.d, "logs", "x86_64-patched-test-selftests.log"), "w") as f:
            f.write("PB-SELFTEST cow pass=640 skip=0 fail=0 rc=0 secs=30\n"
                    "PB-SELFTEST uffd-unit-tests pass=40 skip=26 fail=1 rc=1 secs=30\n")
        os.makedirs(progress.DIR)
        with open(os.path.join(progress.DIR, "test-guest.log"), "w") as f:
            f.write("selftests: x86_64 cow: pass=639 skip=1 fail=0, vanilla pass=640 skip=0 "
                    "fail=0\nselftests: arm64: 7 tests, same passes and skips as vanilla\n"
                    "guest: x86_64: cow matched vanilla on the second boot\n")
        with open(os.path.join(progress.DIR, "lint.log"), "w") as f:
            f.write("lint: checkpatch --strict: 21 commits, no errors or warnings\nnoise\n")
        now = int(time.time())
        with open(progress.TIMES, "w") as f:
            json.dump({"lint": dict(secs=301, end=now), "tree": dict(secs=20, end=1),
                       # built for check, checked again by bench: the build shows
                       "kernel-x86_64-patched-test": dict(
                           secs=28, end=now, runs=[[607, now - 900], [28, now]]),
                       "guest-x86_64-patched-test-check": dict(secs=299, end=now)}, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            summary.main(["--arches", "x86_64 arm64", "--since", str(now - 3600)])
        text = out.getvalue()
        for want in ("KUnit pgtable_batch 23 passed, 0 failed, 1 skipped",
                     "data integrity    9.0 MiB verified, 2 mismatches (swap 2.0 MiB, "
                     "migration 1.0 MiB",
                     "migration         4096 pages migrated, 0 large folios split",
                     "faults injected   812 swap dup failures",
                     "check plan        FAILED (PB-END rc=1): integrity 1:35, "
                     "smallswap 0:12, migrate 0:30, stress 0:24 rc=1, faultinject 1:20",
                     "mm selftests      2 tests, 680 passed, 26 skipped, 1 failed",
                     "vs vanilla:     cow: pass=639 skip=1 fail=0, vanilla pass=640",
                     "vs vanilla:     cow matched vanilla on the second boot\n  guest boots",
                     "guest boots       patched-test-check 4:59",
                     "arm64:\n  check plan        no log",
                     "lint:\n  checkpatch --strict: 21 commits, no errors or warnings\nsteps:",
                     "kernel-x86_64-patched-test 10:07",
                     "total: 1:00:"):
            self.assertIn(want, text)
        self.assertNotIn("tree", text)	# a step of an earlier run
        # An earlier run's selftests: not this run's result.
        os.utime(os.path.join(self.d, "logs", "x86_64-patched-test-selftests.log"),
                 (now - 7200, now - 7200))
        text = "\n".join(summary.arch_lines("x86_64", "test", [], now - 3600))
        self.assertIn("mm selftests      not run", text)
        self.assertLessEqual(len(text.splitlines()), 25)

    def test_the_gate_reads_its_own_logs(self):
        os.makedirs(os.path.join(self.d, "logs"))
        now = int(time.time())
        # The full tier's check log and selftests: not the gate's.
        with open(os.path.join(self.d, "logs", "x86_64-patched-test-check.log"), "w") as f:
            f.write(CHECK_LOG)
        with open(os.path.join(self.d, "logs", "x86_64-patched-test-selftests.log"), "w") as f:
            f.write("PB-SELFTEST cow pass=640 skip=0 fail=0 rc=0 secs=30\n")
        gate = os.path.join(self.d, "logs", "x86_64-patched-test-check-gate.log")
        with open(gate, "w") as f:
            f.write(CHECK_LOG.replace("# check: stress: rc=1 24 s", "# check: stress: rc=0 11 s")
                    .replace("PB-END rc=1", "PB-SELFTEST split_huge_page_test pass=19 skip=43 "
                             "fail=0 rc=0 secs=15\nPB-END rc=0"))
        saved = ["selftests: x86_64: 1 tests, same passes and skips as vanilla"]
        text = "\n".join(summary.arch_lines("x86_64", "test", saved, now - 60, "gate"))
        self.assertIn("stress 0:11", text)
        self.assertIn("mm selftests      1 tests, 19 passed, 43 skipped, 0 failed "
                      "(split_huge_page_test; check-full runs all)", text)
        self.assertIn("vs vanilla:     1 tests, same passes and skips as vanilla", text)
        # The full tier's summary does not read the gate's log.
        text = "\n".join(summary.arch_lines("x86_64", "test", [], now - 60, "full"))
        self.assertIn("stress 0:24 rc=1", text)
        # A gate log older than the run is not this run's.
        os.utime(gate, (now - 7200, now - 7200))
        text = "\n".join(summary.arch_lines("x86_64", "test", saved, now - 60, "gate"))
        self.assertIn("check plan        no log of this run", text)


if __name__ == "__main__":
    unittest.main(verbosity=1)
