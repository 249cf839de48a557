#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bench.py's modules (workspace/benchlib/), on synthetic
console logs."""

import json
import os
import random
import statistics
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import analyse, checks, parse, stats, tables  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False


def sample(bench_name="pageout", size_kb=64, mib=256, ns=1000000, run=0,
           warmup=0, swap_kb=1048576, **over):
    """A PB-SAMPLE object with the counters of a correct run."""
    folios = (mib << 10) // size_kb
    pages = mib << 8
    s = dict(bench=bench_name, size_kb=size_kb, mib=mib, run=run,
             warmup=warmup, ns=ns, folios=folios, pages=pages, pte_map=0,
             swap_kb=swap_kb, pswpout=0, pglazyfree=0, pglazyfreed=0,
             thp_split_pmd=0, nr_tlb_local_flush_one=pages)
    if size_kb > 4:
        s.update(swpout=0, swpout_fallback=0, split_deferred=0, split=0,
                 nr_anon=0, setup_anon_fault_alloc=folios,
                 setup_anon_fault_fallback=0, setup_split_deferred=0,
                 setup_thp_split_pmd=0)
    if bench_name in ("pageout", "mixed"):
        s["pswpout"] = pages
        s["swpout_zero"] = 0
        if size_kb > 4:
            s["swpout"] = folios
            s["nr_anon"] = -folios
    elif bench_name == "lazyfree":
        s["pglazyfreed"] = pages
    elif bench_name == "madvfree":
        s["pglazyfree"] = pages
    elif bench_name == "munmap" and size_kb > 4:
        s["nr_anon"] = -folios
        if size_kb == 2048:
            s["pte_map"] = 1
            s["setup_thp_split_pmd"] = folios
    elif bench_name in ("migrate", "migrate_back"):
        s.update(moved=pages, pgmigrate_success=pages, pgmigrate_fail=0,
                 thp_migration_split=0, pte_map=int(size_kb == 2048))
    s.update(over)
    return s


def log_text(arch, kernel, samples, noise=True):
    lines = ["[    0.000000] Linux version 7.3.4 (%s)" % kernel,
             "PB-BEGIN plan=bench kernel=7.3.4-%s arch=%s cpus=2"
             % (kernel, "aarch64" if arch == "arm64" else arch),
             "TAP version 13", "1..1",
             'PB-INFO {"prog":"pb_bench","release":"7.3.4-%s","machine":"%s",'
             '"clocksource":"%s"}'
             % (kernel, arch, "refined-jiffies" if arch == "x86_64" else "arch_sys_counter")]
    for i, s in enumerate(samples):
        line = "PB-SAMPLE " + json.dumps(s)
        if noise and i % 7 == 3:
            line = "\r" + line + "\r"
        lines.append(line)
    lines += ["ok 1 pageout", "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0",
              "PB-END rc=0"]
    return "\n".join(lines) + "\n"


class Stats(unittest.TestCase):
    def test_describe_matches_statistics_module(self):
        xs = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
        d = stats.describe(xs)
        self.assertEqual(d["n"], 8)
        self.assertAlmostEqual(d["mean"], statistics.mean(xs))
        self.assertAlmostEqual(d["median"], statistics.median(xs))
        self.assertAlmostEqual(d["stdev"], statistics.stdev(xs))
        self.assertEqual((d["min"], d["max"]), (1.0, 9.0))
        self.assertEqual(stats.median([5, 1, 3]), 3)
        self.assertEqual(stats.stdev([7.0]), 0.0)

    def test_ci_bounds_interpolate_between_ranks(self):
        self.assertEqual(stats.ci_bounds(list(range(41))), (1, 39))
        # Positions 0.025 * 10 and 0.975 * 10 of 0..10, as numpy's default.
        lo, hi = stats.ci_bounds(list(range(11)))
        self.assertAlmostEqual(lo, 0.25)
        self.assertAlmostEqual(hi, 9.75)
        self.assertEqual(stats.ci_bounds(list(range(201)), 0.99), (1, 199))
        self.assertEqual(stats.ci_bounds([7.0]), (7.0, 7.0))
        with self.assertRaises(ValueError):
            stats.ci_bounds(list(range(41)), 0.97)

    def test_delta_ci_z_from_the_normal_distribution(self):
        base, new = [10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 6.5]
        r, lo, hi = stats.delta_ci(base, new)
        _, _, hi99 = stats.delta_ci(base, new, level=0.99)
        self.assertAlmostEqual(r, 2.0)
        self.assertAlmostEqual(r - lo, hi - r)
        self.assertAlmostEqual((hi99 - r) / (hi - r), 2.575829 / 1.959964, places=5)

    def test_boot_ci_covers_the_drift_between_boots(self):
        rng = random.Random(3)
        # Same work on both kernels, but each boot runs at its own pace.
        def boots(n):
            out = {}
            for b in range(n):
                pace = rng.choice((0.8, 1.0, 1.25))
                out[b] = [rng.gauss(100 * pace, 3) for _ in range(8)]
            return out
        hits = 0
        for t in range(20):
            van, pat = boots(4), boots(4)
            r, lo, hi = stats.boot_speedup_ci(van, pat, resamples=300, seed=t)
            flat_v = [x for v in van.values() for x in v]
            flat_p = [x for v in pat.values() for x in v]
            _, rlo, rhi = stats.speedup_ci(flat_v, flat_p, resamples=300, seed=t)
            self.assertGreater(hi - lo, rhi - rlo)
            self.assertAlmostEqual(r, stats.mean(flat_v) / stats.mean(flat_p))
            hits += lo <= 1.0 <= hi
        self.assertGreaterEqual(hits, 16)

    def test_ratio_is_of_means(self):
        # Skewed on purpose: the ratio of medians would be 2.
        r, lo, hi = stats.speedup_ci([10, 20, 60], [10, 10, 10], resamples=200)
        self.assertAlmostEqual(r, 3.0)
        self.assertLessEqual(lo, r)
        self.assertGreaterEqual(hi, r)

    def test_constant_samples_give_a_point_interval(self):
        r, lo, hi = stats.speedup_ci([4.0] * 5, [2.0] * 7, resamples=100)
        self.assertEqual((r, lo, hi), (2.0, 2.0, 2.0))

    def test_ci_covers_true_ratio_and_agrees_with_delta_method(self):
        rng = random.Random(7)
        base = [rng.gauss(100, 8) for _ in range(30)]
        new = [rng.gauss(50, 5) for _ in range(30)]
        r, lo, hi = stats.speedup_ci(base, new)
        self.assertLess(lo, 2.0)
        self.assertGreater(hi, 2.0)
        _, dlo, dhi = stats.delta_ci(base, new)
        width = hi - lo
        self.assertLess(abs(lo - dlo), 0.25 * width)
        self.assertLess(abs(hi - dhi), 0.25 * width)

    def test_ci_shrinks_with_more_runs(self):
        rng = random.Random(3)
        widths = []
        for n in (8, 80):
            base = [rng.gauss(100, 10) for _ in range(n)]
            new = [rng.gauss(100, 10) for _ in range(n)]
            _, lo, hi = stats.speedup_ci(base, new, resamples=1000)
            self.assertLess(lo, 1.0 + 1e-9 + (hi - lo))  # sanity
            widths.append(hi - lo)
        self.assertLess(widths[1], widths[0] / 2)

    def test_ci_coverage(self):
        """About 95% of intervals from repeated experiments hold the truth."""
        rng = random.Random(11)
        hits, trials = 0, 120
        for t in range(trials):
            base = [rng.gauss(30, 3) for _ in range(20)]
            new = [rng.gauss(20, 2) for _ in range(20)]
            _, lo, hi = stats.speedup_ci(base, new, resamples=400, seed=t)
            hits += lo <= 1.5 <= hi
        self.assertGreater(hits / trials, 0.85)
        self.assertLess(hits / trials, 1.0)

    def test_bootstrap_is_deterministic(self):
        a, b = [1.0, 2.0, 3.5, 2.2], [1.1, 0.9, 1.3]
        self.assertEqual(stats.speedup_ci(a, b, seed=5), stats.speedup_ci(a, b, seed=5))


class Parse(unittest.TestCase):
    def test_parse_samples_infos_and_noise(self):
        ss = [sample(run=0, warmup=1), sample(run=0), sample(run=1), sample(run=2),
              sample(run=3)]
        text = log_text("x86_64", "vanilla", ss)
        text += "[   12.345678] random: crng init done\n"
        text += 'PB-SAMPLE {"bench":"pageout","size_kb":64,"ns":12[    3.1] audit\n'
        got, infos, begin, rc, bad, tlb = parse.parse_log_text(text)
        self.assertEqual(tlb, [])
        self.assertEqual(len(got), 5)
        self.assertEqual([s["warmup"] for s in got], [1, 0, 0, 0, 0])
        self.assertEqual(got[1]["ns"], 1000000)
        self.assertEqual(len(infos), 1)
        self.assertEqual(begin["arch"], "x86_64")
        self.assertEqual(begin["kernel"], "7.3.4-vanilla")
        self.assertEqual(rc, 0)
        self.assertEqual(len(bad), 1)

    def test_marker_after_console_prefix(self):
        text = "[  1.0] foo PB-SAMPLE " + json.dumps(sample()) + "\n"
        got = parse.parse_log_text(text)[0]
        self.assertEqual(len(got), 1)

    def test_labels_from_spec_sidecar_and_name(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "arm64-patched-3.log")
            with open(p, "w") as f:
                f.write(log_text("arm64", "patched", [sample()]))
            run = parse.load_log(p)
            self.assertEqual((run["arch"], run["kernel"], run["boot"]),
                             ("arm64", "patched", 3))
            self.assertEqual(run["kernel_version"], "7.3.4-patched")
            with open(p + ".accel", "w") as f:
                f.write("tcg\n")
            self.assertEqual(parse.load_log(p)["accel"], "tcg")
            with open(os.path.join(d, "arm64-patched-3.meta.json"), "w") as f:
                json.dump(dict(accel="kvm", boot=4, kernel_commit="abc"), f)
            run = parse.load_log(p)
            self.assertEqual((run["accel"], run["boot"]), ("kvm", 4))
            run = parse.load_log("x86_64:vanilla:9:" + p)
            self.assertEqual((run["arch"], run["kernel"], run["boot"]),
                             ("x86_64", "vanilla", 9))
            self.assertEqual(run["samples"][0]["kernel"], "vanilla")

    def test_tlb_lines_are_parsed_and_tabled(self):
        def tlb(kernel, flushes, pages, full=0):
            return "PB-TLB " + json.dumps(dict(
                bench="pageout", size_kb=64, mib=256, folios=4096, pages=65536,
                flushes=flushes, flushed_pages=pages, full_flushes=full,
                ipis_sent=0, remote_flushes=0, task_switch=3,
                events_written=flushes + 3, events_lost=0, swpout=4096,
                swpout_fallback=0)) + "\n"
        with tempfile.TemporaryDirectory() as d:
            runs = []
            # Patched boot 2 adds full flushes, which have no page count.
            for kernel, fl in (("vanilla", 65536), ("patched", 4096)):
                for boot in (1, 2):
                    full = 100 if (kernel, boot) == ("patched", 2) else 0
                    p = os.path.join(d, "x86_64-%s-%d.log" % (kernel, boot))
                    with open(p, "w") as f:
                        f.write(log_text("x86_64", kernel, [sample()]) +
                                tlb(kernel, fl + full, 65536, full))
                    runs.append(parse.load_log(p))
            self.assertEqual(runs[0]["tlb"][0]["flushes"], 65536)
            rows = {r["kernel"]: r for r in analyse.tlb_rows(runs)}
            self.assertEqual(rows["vanilla"]["runs"], 2)
            self.assertAlmostEqual(rows["vanilla"]["flushes"], 65536)
            self.assertAlmostEqual(rows["patched"]["flushes"], 4146)
            head, body = tables.tlb_table(analyse.tlb_rows(runs), "x86_64")
            cells = {b[2]: dict(zip(head, b)) for b in body}
            self.assertEqual(cells["patched"]["flushes/folio"], "1.01")
            self.assertEqual(cells["vanilla"]["flushes/folio"], "16.00")
            self.assertEqual(cells["vanilla"]["pages/flush"], "1.0")
            self.assertEqual(cells["patched"]["pages/flush"], "16.0")
            self.assertEqual(cells["patched"]["full"], "50")
            self.assertEqual(tables.tlb_table(analyse.tlb_rows(runs), "arm64")[1], [])

    def test_arch_from_guest_when_unlabelled(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "boot.log")
            with open(p, "w") as f:
                f.write(log_text("arm64", "patched", [sample()]))
            self.assertEqual(parse.load_log(p)["arch"], "arm64")


class TlbCount(unittest.TestCase):
    LOG = "\n".join([
        'PB-TLB {"bench":"unmap1","size_kb":4,"folios":1024,"pages":1024,"marked":1,'
        '"traced":0,"expect":{"self:tlbi_vale1is":512}}',
        'PB-TLB {"bench":"pageout","size_kb":64,"folios":4096,"marked":1,"traced":0}',
        'PB-TLB {"bench":"pageout","size_kb":64,"folios":4096,"flushes":4096}',
        'PB-TLBCOUNT {"region":1,"vcpus":2,"counts":{"tlbi_vale1is":513,"dsb_ish":526},'
        '"self":{"tlbi_vale1is":512}}',
        'PB-TLBCOUNT {"region":2,"vcpus":2,"counts":{"tlbi_rvale1is":4096}}',
    ]) + "\n"

    def test_counts_go_to_the_marked_records_in_order(self):
        _, _, _, _, bad, tlb = parse.parse_log_text(self.LOG)
        self.assertEqual(bad, [])
        self.assertEqual(tlb[0]["insns"], {"tlbi_vale1is": 513, "dsb_ish": 526})
        self.assertEqual(tlb[0]["insns_self"], {"tlbi_vale1is": 512})
        self.assertEqual(tlb[1]["insns"], {"tlbi_rvale1is": 4096})
        self.assertNotIn("insns", tlb[2])	# an older, unmarked record

    def test_region_count_mismatch_is_bad(self):
        text = self.LOG.replace('PB-TLBCOUNT {"region":2', 'X {"region":2')
        bad = parse.parse_log_text(text)[4]
        self.assertEqual(len(bad), 1)
        self.assertIn("1 regions counted by tlbcount, 2 marked", bad[0][1])
        # Which region is whose is unknown: no record gets counts.
        tlb = parse.parse_log_text(text)[5]
        self.assertFalse([t for t in tlb if "insns" in t])

    def test_known_count(self):
        import tlbcount
        fails, notes = tlbcount.check(self.LOG)
        self.assertEqual(fails, [])
        self.assertEqual(notes, ["unmap1: self:tlbi_vale1is = 512 exact"])
        fails, _ = tlbcount.check(self.LOG.replace('"self":{"tlbi_vale1is":512}',
                                                   '"self":{"tlbi_vale1is":511}'))
        self.assertEqual(len(fails), 1)
        self.assertIn("self:tlbi_vale1is = 511, want 512", fails[0])
        # All vCPUs' counts, and a sum with a difference (x86_64: INVLPG
        # less the kernel page flushes).
        text = self.LOG.replace('{"self:tlbi_vale1is":512}}', '{"a+b-c":512}}').replace(
            '"tlbi_vale1is":513,', '"a":500,"b":13,"c":1,')
        self.assertEqual(tlbcount.check(text)[0], [])
        self.assertTrue(tlbcount.check(text.replace('"c":1', '"c":2'))[0])
        # Marked regions and no counts at all: the plugin did not run.
        fails, _ = tlbcount.check("\n".join(self.LOG.splitlines()[:3]))
        self.assertEqual(fails, ["the plugin counted no region"])

    def test_table_per_folio(self):
        _, _, _, _, _, tlb = parse.parse_log_text(self.LOG)
        tlb[1]["insns"] = {"tlbi_vale1is": 65536, "tlbi_rvale1is": 8192,
                           "fn_contpte_convert": 8192, "fn___contpte_try_unfold": 4096,
                           "tlbi_vmalle1is": 2}
        rows = analyse.tlb_rows([dict(arch="arm64", kernel="vanilla", tlb=tlb[1:2])])
        head, body = tables.tlbcount_table(rows, "arm64")
        cell = dict(zip(head, body[0]))
        self.assertEqual((cell["TLBI page"], cell["TLBI range"], cell["unfolds"],
                          cell["folds"], cell["TLBI ASID/all"]), ("16", "2", "1", "1", "0"))
        self.assertEqual(tables.tlbcount_table(rows, "x86_64")[1], [])


class Checks(unittest.TestCase):
    def test_traced_flushes_prove_the_batched_unmap(self):
        # As the x86_64 test kernel printed it in make check's quick bench.
        t = {"bench": "pageout", "size_kb": 64, "mib": 256, "folios": 4096,
             "pages": 65536, "flushes": 4096, "flushed_pages": 65536,
             "events_written": 4096, "events_lost": 0}
        self.assertEqual(checks.check_tlb(t), [])
        self.assertEqual(checks.check_tlb(dict(t, flushes=100)), [])	# deferred
        # A CI run whose task had run on both CPUs: a few batch flushes more.
        self.assertEqual(checks.check_tlb(dict(t, flushes=4100)), [])
        # 8K folios unmapped per PTE: two flushes per folio.
        eight = dict(t, size_kb=8, folios=32768, pages=65536)
        self.assertEqual(checks.check_tlb(dict(eight, flushes=32768)), [])
        self.assertTrue(checks.check_tlb(dict(eight, flushes=65536)))
        per_pte = checks.check_tlb(dict(t, flushes=65536, events_written=65536))
        self.assertEqual(len(per_pte), 1)
        self.assertIn("65536 TLB flushes for 4096 folios", per_pte[0])
        self.assertTrue(checks.check_tlb(dict(t, events_lost=3)))
        self.assertTrue(checks.check_tlb(dict(t, events_written=0)))
        self.assertEqual(checks.check_tlb(dict(t, size_kb=4, flushes=65536)), [])
        self.assertEqual(checks.check_tlb(dict(t, bench="migrate", flushes=65536)), [])

    def test_tlbcount_limit(self):
        # As the arm64 bench kernels counted 64K MADV_PAGEOUT (tlbcount).
        batched = {"tlbi_rvale1is": 4096, "tlbi_aside1is": 127, "dsb_ish": 4244,
                   "dsb_ishst": 4239, "isb": 1903}
        per_pte = {"tlbi_vale1is": 65536, "tlbi_rvale1is": 4096,
                   "fn_contpte_convert": 4096, "fn___contpte_try_unfold": 4096,
                   "dsb_ishst": 69763, "dsb_ish": 8315}
        # A kernel without ARM64_TLB_RANGE: one flush of 16 TLBIs a folio.
        no_range = {"tlbi_vale1is": 65536, "dsb_ishst": 4219, "dsb_ish": 4260}
        t = {"bench": "pageout", "size_kb": 64, "folios": 4096, "pages": 65536,
             "marked": 1, "traced": 0, "insns": batched}
        self.assertTrue(checks.tlb_checked(t, "arm64"))
        self.assertEqual(checks.check_tlb(t, "arm64"), [])
        self.assertEqual(checks.check_tlb(dict(t, insns=no_range), "arm64"), [])
        fl = checks.check_tlb(dict(t, insns=per_pte), "arm64")
        self.assertEqual(len(fl), 3, fl)
        self.assertIn("69632 TLBI by address for 65536 pages", fl[0])
        self.assertIn("69763 DSB ISHST (flushes) for 4096 folios", fl[1])
        self.assertIn("4096 contpte unfolds", fl[2])
        # Not judged: x86_64 (no such limit; the trace judges pageout), a
        # PMD-mapped 2M folio under MADV_PAGEOUT, order-0 folios.
        self.assertEqual(checks.check_tlb(dict(t, insns=per_pte), "x86_64"), [])
        self.assertFalse(checks.tlb_checked(dict(t, insns=per_pte), "x86_64"))
        self.assertEqual(checks.check_tlb(dict(t, insns=per_pte, size_kb=2048,
                                               folios=128), "arm64"), [])
        self.assertTrue(checks.check_tlb(dict(t, insns=per_pte, bench="migrate",
                                              size_kb=2048, folios=128), "arm64"))
        self.assertEqual(checks.check_tlb(dict(t, insns=per_pte, size_kb=4), "arm64"), [])

    def test_correct_runs_are_not_flagged(self):
        for b, kb in (("pageout", 64), ("pageout", 4), ("pageout", 2048),
                      ("mixed", 64), ("lazyfree", 64), ("madvfree", 16),
                      ("madvfree", 4), ("munmap", 2048), ("munmap", 64),
                      ("migrate", 64), ("migrate", 4), ("migrate", 2048),
                      ("migrate_back", 64)):
            mib = 128 if b == "lazyfree" else 256
            self.assertEqual(checks.check_sample(sample(b, kb, mib=mib)), [],
                             "%s %d" % (b, kb))

    def test_wrong_counters_are_flagged(self):
        # 64K MADV_PAGEOUT of 256 MiB must swap out 4096 folios whole.
        flags = checks.check_sample(sample(swpout=2048, swpout_fallback=2048))
        self.assertEqual(len(flags), 2)
        self.assertIn("swpout=2048 (+0 zero-filled folios), want 4096", flags[0])
        self.assertIn("swpout_fallback=2048, want 0", flags[1])
        # Zero-filled folios: recorded as zero, no mTHP swpout, no pswpout.
        zero = dict(pswpout=0, swpout=0, swpout_zero=65536, zero_filled=1)
        self.assertEqual(checks.check_sample(sample(**zero)), [])
        self.assertEqual(checks.check_sample(sample(size_kb=4, **zero)), [])
        half = dict(zero, swpout_zero=32768)
        self.assertEqual(len(checks.check_sample(sample(**half))), 2)
        s = sample()
        del s["pswpout"], s["swpout_zero"]
        self.assertIn("CONFIG_VM_EVENT_COUNTERS", checks.check_sample(s)[0])
        self.assertTrue(checks.check_sample(sample(swap_kb=0)))
        self.assertTrue(checks.check_sample(sample(pswpout=100)))
        # Folios of another size were allocated.
        self.assertTrue(checks.check_sample(sample(setup_anon_fault_alloc=0,
                                                  setup_anon_fault_fallback=4096)))
        # Lazyfree as before seed 002: every folio queued for deferred split.
        self.assertTrue(checks.check_sample(sample("lazyfree", 64, mib=128,
                                                  split_deferred=2048)))
        self.assertTrue(checks.check_sample(sample("madvfree", 64, split=16384)))
        self.assertTrue(checks.check_sample(sample("madvfree", 4, pglazyfree=1000)))
        # A few folios left in a per-CPU LRU batch are not counted.
        self.assertEqual(checks.check_sample(sample("madvfree", 4, pglazyfree=65528)), [])
        # Another task's MADV_FREE counts too, a little; twice as many pages not.
        self.assertEqual(checks.check_sample(sample("madvfree", 4, pglazyfree=65537)), [])
        self.assertTrue(checks.check_sample(sample("madvfree", 4, pglazyfree=131072)))
        self.assertTrue(checks.check_sample(sample("munmap", 64, nr_anon=-1)))
        self.assertTrue(checks.check_sample(sample("munmap", 2048,
                                                  setup_thp_split_pmd=0)))
        self.assertTrue(checks.check_sample(sample("mixed", 64,
                                                  setup_split_deferred=4096)))
        self.assertTrue(checks.check_sample(sample(ns=0)))
        # Migration: every page moved, nothing split on the first leg.
        self.assertIn("moved=65000, want 65536",
                      checks.check_sample(sample("migrate", 64, moved=65000))[0])
        self.assertIn("pgmigrate_success=4096, want >= 65536",
                      checks.check_sample(sample("migrate", 64,
                                                 pgmigrate_success=4096))[0])
        # Compaction elsewhere in the guest may add to the system-wide count.
        self.assertEqual(checks.check_sample(sample("migrate", 64,
                                                    pgmigrate_success=65600)), [])
        self.assertTrue(checks.check_sample(sample("migrate", 4, pgmigrate_fail=1)))
        self.assertTrue(checks.check_sample(sample("migrate", 64, split=4096)))
        self.assertTrue(checks.check_sample(sample("migrate", 2048,
                                                  thp_migration_split=128)))
        # Vanilla splits on the way back: shown, not flagged.
        self.assertEqual(checks.check_sample(sample("migrate_back", 64, split=4096)), [])

    def test_missing_counters_are_not_required(self):
        s = sample()
        for k in ("swpout", "swpout_fallback", "nr_tlb_local_flush_one"):
            del s[k]
        self.assertEqual(checks.check_sample(s), [])


class Goals(unittest.TestCase):
    def rows(self, arch, **speedups):
        out = []
        for key, r in speedups.items():
            bench, size = key.rsplit("_", 1)
            out.append(dict(arch=arch, bench=bench, size_kb=int(size), mib=256,
                            speedup=r, ci_low=r - 0.001, ci_high=r + 0.001))
        return out

    def test_every_goal_met(self):
        rows = self.rows("x86_64", pageout_4=1.0, pageout_64=1.3, lazyfree_64=1.0,
                         migrate_4=0.999, migrate_64=1.7)
        self.assertEqual(analyse.goal_failures(rows, ["x86_64", "riscv64"]), [])

    def test_below_goal_and_missing_point_fail(self):
        # arm64's pageout 64K goal (1.35) is above x86_64's (1.25).
        rows = self.rows("arm64", pageout_4=0.995, pageout_64=1.3, lazyfree_64=1.0,
                         migrate_64=2.6)
        got = analyse.goal_failures(rows, ["arm64"])
        self.assertEqual(len(got), 3, got)
        self.assertTrue(any(g.startswith("arm64 pageout 4K: 0.995") for g in got))
        self.assertTrue(any(g.startswith("arm64 pageout 64K: 1.300") for g in got))
        self.assertTrue(any("migrate 4K: not measured" in g for g in got))

    def test_floors_hold_regressions_of_known_misses(self):
        rows = self.rows("arm64", pageout_4=1.0, pageout_64=1.339, lazyfree_64=1.0,
                         migrate_4=0.988, migrate_64=2.353)
        known = []
        self.assertEqual(analyse.goal_failures(rows, ["arm64"], known), [])
        self.assertEqual(len(known), 3, known)
        self.assertTrue(all("(known), not below its floor" in k for k in known))
        # Without the list the goals alone judge.
        self.assertEqual(len(analyse.goal_failures(rows, ["arm64"])), 3)
        # Below a floor: a regression, whatever the goal.
        rows[1].update(speedup=1.30, ci_low=1.299, ci_high=1.301)
        got = analyse.goal_failures(rows, ["arm64"], [])
        self.assertEqual(len(got), 1)
        self.assertIn("pageout 64K: 1.300", got[0])
        self.assertIn("below its floor 1.335", got[0])
        # The ratio judges the floor, not the CI's upper end.
        rows[1].update(speedup=1.333, ci_low=1.331, ci_high=1.338)
        self.assertEqual(len(analyse.goal_failures(rows, ["arm64"], [])), 1)
        # Without the list: below the goal, and not said to be below the floor.
        rows[1].update(speedup=1.339, ci_low=1.338, ci_high=1.340)
        got = analyse.goal_failures(rows, ["arm64"])
        self.assertTrue(any(g.startswith("arm64 pageout 64K: 1.339") and "floor" not in g
                            for g in got), got)

    def test_a_ci_that_reaches_the_goal_is_not_below_it(self):
        rows = self.rows("x86_64", pageout_4=0.9975, pageout_64=1.3, lazyfree_64=1.0,
                         migrate_4=0.9995, migrate_64=1.7)
        known = []
        self.assertEqual(analyse.goal_failures(rows, ["x86_64"], known), [])
        self.assertEqual(len(known), 1)
        self.assertIn("pageout 4K: 0.998 [0.997, 0.999], below its goal 0.998, its CI "
                      "reaching it", known[0])
        rows[0].update(speedup=0.996, ci_high=0.997)
        self.assertEqual(len(analyse.goal_failures(rows, ["x86_64"], [])), 1)

    def test_one_kernel_only_is_not_measured(self):
        rows = self.rows("x86_64", pageout_4=1.0, pageout_64=1.3, lazyfree_64=1.0,
                         migrate_4=1.0, migrate_64=1.7)
        rows[0]["speedup"] = None
        got = analyse.goal_failures(rows, ["x86_64"])
        self.assertEqual(got, ["x86_64 pageout 4K: not measured on both kernels "
                               "(goal 0.998)"])


if __name__ == "__main__":
    # The analysis and output parts are tested in test_bench_output.py.
    import test_bench_output
    loader = unittest.defaultTestLoader
    suite = unittest.TestSuite(loader.loadTestsFromModule(m) for m in
                               (sys.modules[__name__], test_bench_output))
    sys.exit(not unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful())
