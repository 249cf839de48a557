# SPDX-License-Identifier: GPL-2.0
"""Group the samples per (arch, workload, folio size, region) and kernel,
and compute each group's statistics, speedup and CI."""

import zlib

from .parse import KERNELS
from .stats import (BOOTSTRAP_RESAMPLES, boot_speedup_ci, delta_ci, describe,
                    mean, median, speedup_ci)


# A 4K MADV_PAGEOUT speedup below this counts as a regression.
REGRESSION_LIMIT = 0.98

# Speedups reported by the seed postings (shared/seeds/), as
# old-time / new-time, keyed by (bench, size_kb, arch or None = any).
# "in_base" marks changes that Linux 7.3 already contains: both of our
# kernels have them, so the expected vanilla/patched ratio there is 1.
SEEDS = {
    ("pageout", 64, "arm64"): dict(ratio=37401913 / 17420282, seed="000",
                                   mib=256, note="37.4 -> 17.4 ms, M3 VM"),
    ("pageout", 64, "x86_64"): dict(ratio=54986286 / 51930795, seed="000",
                                    mib=256, note="55.0 -> 51.9 ms, bare metal"),
    ("pageout", 4, None): dict(ratio=1.0, seed="000", mib=256,
                               note="no regression at 4K"),
    ("lazyfree", 64, None): dict(ratio=0.172 / 0.072, seed="002", mib=128,
                                 in_base=True,
                                 note="0.172 -> 0.072 s, split_deferred 2048 -> 0"),
    ("munmap", 16, None): dict(ratio=1.10, seed="004", mib=1024, in_base=True),
    ("munmap", 32, None): dict(ratio=1.15, seed="004", mib=1024, in_base=True),
    ("munmap", 64, None): dict(ratio=1.17, seed="004", mib=1024, in_base=True),
    ("munmap", 128, None): dict(ratio=1.21, seed="004", mib=1024, in_base=True),
    ("munmap", 256, None): dict(ratio=1.22, seed="004", mib=1024, in_base=True),
    ("munmap", 512, None): dict(ratio=1.22, seed="004", mib=1024, in_base=True),
    ("munmap", 1024, None): dict(ratio=1.23, seed="004", mib=1024, in_base=True),
    ("munmap", 2048, None): dict(ratio=1.27, seed="004", mib=1024, in_base=True),
}
for _kb, _old, _new in ((4, 0.590251, 0.590259), (16, 2.990447, 0.185655),
                        (32, 2.547831, 0.104870), (64, 2.457796, 0.052812),
                        (128, 2.281034, 0.032777), (256, 2.230387, 0.017496),
                        (512, 2.189106, 0.010781), (1024, 2.183949, 0.007753),
                        (2048, 0.002799, 0.002804)):
    SEEDS[("madvfree", _kb, None)] = dict(ratio=_old / _new, seed="003",
                                          mib=1024, in_base=True,
                                          note="%.3f -> %.3f s" % (_old, _new))

BENCH_ORDER = ("pageout", "mixed", "lazyfree", "madvfree", "munmap",
               "migrate", "migrate_back", "mkclean", "mkclean_wait")
BENCH_TITLE = {
    "pageout": "MADV_PAGEOUT",
    "mixed": "MADV_PAGEOUT, mixed AnonExclusive",
    "lazyfree": "lazyfree MADV_PAGEOUT",
    "madvfree": "MADV_FREE",
    "munmap": "munmap",
    "migrate": "move_pages() to the other node",
    "migrate_back": "move_pages() back",
    "mkclean": "writeback start of a dirty shared file mapping (ext4)",
    "mkclean_wait": "msync(MS_SYNC) after it: the wait for the I/O",
}


def group_key(s):
    return (s["arch"], s["bench"], s["size_kb"], s.get("mib"))


def sort_key(k):
    arch, bench, size, mib = k
    bi = BENCH_ORDER.index(bench) if bench in BENCH_ORDER else len(BENCH_ORDER)
    return (arch or "", bi, bench, size, mib or 0)


def seed_for(bench, size, arch):
    return SEEDS.get((bench, size, arch)) or SEEDS.get((bench, size, None))


# The goals in vanilla/patched instruction counts (make bench ICOUNT=0)
# on the distribution-like bench kernels: the no-regression points that
# bench.py --goals enforces, and the migration goals of the report's
# targets (the first move_pages() leg; there is no seed posting for
# migration).
ICOUNT_GOALS = {
    ("pageout", 4, None): 0.998,
    ("pageout", 64, "x86_64"): 1.25,
    ("pageout", 64, "arm64"): 1.35,
    ("lazyfree", 64, None): 0.998,
    ("migrate", 4, None): 0.998,
    ("migrate", 64, "x86_64"): 1.6,
    ("migrate", 64, "arm64"): 2.5,
}
# The writeback goals (issue 31), in the same instruction counts, of the
# start of the writeback ("mkclean": folio_mkclean() and the submission
# of the I/O): reported against the report's targets, not yet enforced
# by bench.py --goals (make check-full's icount points do not run it).
WRITEBACK_GOALS = {
    ("mkclean", 4, None): 0.998,
    ("mkclean", 64, "x86_64"): 1.3,
    ("mkclean", 64, "arm64"): 2.0,
}
ICOUNT_GOAL_ARCHES = ("x86_64", "arm64")
# The points that miss their goal today (issue 34; README, "On
# distribution-like kernels", has the profiles of why), each with a floor
# about 0.3% under the lowest of its measured levels (migrate 4K x86_64
# 0.993 and 0.995, arm64 0.988, 0.986 and 0.990; arm64 pageout 64K 1.339;
# arm64 migrate 64K 2.353 and 2.349), about what one boot's 4K points move
# with where the pages land.  A floor is not a goal: such a point is
# reported below its goal and fails when its ratio is below the floor, so
# that a regression cannot pass unseen while the goal is still open.
ICOUNT_FLOORS = {
    ("migrate", 4, "x86_64"): 0.990,
    ("migrate", 4, "arm64"): 0.983,
    ("pageout", 64, "arm64"): 1.335,
    ("migrate", 64, "arm64"): 2.342,
}


def icount_goal(bench, size, arch, goals=ICOUNT_GOALS):
    """The goal of a point on an arch in @goals, or None."""
    if arch not in ICOUNT_GOAL_ARCHES:
        return None
    return goals.get((bench, size, arch)) or goals.get((bench, size, None))


def goal_points(arches):
    """(arch, bench, size_kb, goal) of every goal of the given arches."""
    return [(a, b, s, icount_goal(b, s, a)) for a in sorted(set(arches))
            for (b, s) in sorted({(b, s) for (b, s, _) in ICOUNT_GOALS})
            if icount_goal(b, s, a) is not None]


def goal_failures(rows, arches, known=None):
    """The goal points of the given arches that were not measured on both
    kernels or that are below the goal, as text.  Below means the whole 95%
    CI: the instruction counts of one boot's runs still vary with where the
    page allocator puts the pages (about 0.2% at 4K), and a point whose CI
    reaches its goal is not shown to miss it; such a point goes to the list
    @known, when given, as does a point with a floor (ICOUNT_FLOORS) whose
    ratio is below its goal but not below its floor."""
    out = []
    for arch, bench, size, goal in goal_points(arches):
        got = [r for r in rows if (r["arch"], r["bench"], r["size_kb"]) ==
               (arch, bench, size) and r["speedup"] is not None]
        what = "%s %s %dK" % (arch, bench, size)
        floor = ICOUNT_FLOORS.get((bench, size, arch))
        if not got:
            out.append("%s: not measured on both kernels (goal %.3f)" % (what, goal))
        for r in got:
            if r["speedup"] >= goal:
                continue
            text = "%s: %.3f [%.3f, %.3f], below its goal %.3f" % (
                what, r["speedup"], r["ci_low"], r["ci_high"], goal)
            if r["ci_high"] >= goal:
                if known is not None:
                    known.append("%s, its CI reaching it" % text)
                else:
                    out.append(text)
            elif known is not None and floor is not None and r["speedup"] >= floor:
                known.append("%s (known), not below its floor %.3f" % (text, floor))
            elif floor is not None and r["speedup"] < floor:
                out.append("%s and below its floor %.3f" % (text, floor))
            else:
                out.append(text)
    return out


def target_goal(bench, size, arch):
    """The goal of a migration or writeback point, for the report's
    targets."""
    if bench == "migrate":
        return icount_goal(bench, size, arch)
    return icount_goal(bench, size, arch, WRITEBACK_GOALS)


def analyse(samples, resamples=BOOTSTRAP_RESAMPLES):
    """Statistics per group key; samples must already carry "flags"."""
    groups = {}
    for s in samples:
        if s.get("warmup") or s.get("kernel") not in KERNELS:
            continue
        g = groups.setdefault(group_key(s), {k: [] for k in KERNELS})
        g[s["kernel"]].append(s)
    rows = []
    for key in sorted(groups, key=sort_key):
        arch, bench, size, mib = key
        g = groups[key]
        row = dict(arch=arch, bench=bench, size_kb=size, mib=mib)
        for k in KERNELS:
            ms = [x["ns"] / 1e6 for x in g[k]]
            row[k] = describe(ms) if ms else None
            row[k + "_flagged"] = sum(1 for x in g[k] if x["flags"])
            row[k + "_boots"] = sorted({x["boot"] for x in g[k]})
            row[k + "_counters"] = counter_means(g[k])
        if row["vanilla"] and row["patched"]:
            van = [x["ns"] for x in g["vanilla"]]
            pat = [x["ns"] for x in g["patched"]]
            seed = zlib.crc32(repr(key).encode())
            by_boot = {}
            for k in KERNELS:
                by_boot[k] = {}
                for x in g[k]:
                    by_boot[k].setdefault(x["boot"], []).append(x["ns"])
            if len(by_boot["vanilla"]) > 1 and len(by_boot["patched"]) > 1:
                r, lo, hi = boot_speedup_ci(by_boot["vanilla"], by_boot["patched"],
                                            resamples=resamples, seed=seed)
                row["ci_method"] = "boots"
            else:
                r, lo, hi = speedup_ci(van, pat, resamples=resamples, seed=seed)
                row["ci_method"] = "runs"
            row.update(speedup=r, ci_low=lo, ci_high=hi,
                       median_speedup=median(van) / median(pat))
            row["delta_ci"] = list(delta_ci(van, pat)[1:]) if len(van) > 1 and len(pat) > 1 else None
        else:
            row.update(speedup=None, ci_low=None, ci_high=None,
                       median_speedup=None, delta_ci=None)
        seed = seed_for(bench, size, arch)
        row["seed"] = seed
        row["regression"] = bool(bench in ("pageout", "migrate", "mkclean") and size == 4 and
                                 row["speedup"] is not None and
                                 row["speedup"] < REGRESSION_LIMIT)
        rows.append(row)
    return rows


COUNTER_FIELDS = ("swpout", "swpout_fallback", "split_deferred", "split",
                  "pswpout", "swpout_zero", "thp_swpout", "thp_swpout_fallback", "pglazyfree",
                  "pglazyfreed", "nr_anon", "nr_tlb_local_flush_one",
                  "nr_tlb_local_flush_all", "nr_tlb_remote_flush",
                  "nr_tlb_remote_flush_received", "moved", "pgmigrate_success",
                  "pgmigrate_fail", "thp_migration_success", "thp_migration_split",
                  "nr_written", "setup_nr_written", "folios_whole")


def counter_means(samples):
    out = {}
    for f in COUNTER_FIELDS:
        vals = [x[f] for x in samples if f in x]
        if vals:
            out[f] = mean(vals)
    return out


def per_boot_medians(samples):
    """{(arch, bench, size, mib): {(kernel, boot): median ms}} of timed runs."""
    out = {}
    for s in samples:
        if s.get("warmup") or s.get("kernel") not in KERNELS:
            continue
        out.setdefault(group_key(s), {}).setdefault(
            (s["kernel"], s["boot"]), []).append(s["ns"] / 1e6)
    return {k: {kb: median(v) for kb, v in d.items()} for k, d in out.items()}


def tlb_rows(runs):
    """Mean PB-TLB figures per (arch, bench, size, kernel)."""
    groups = {}
    for r in runs:
        for t in r.get("tlb", []):
            if not t.get("folios"):
                continue
            key = (r["arch"], t["bench"], t["size_kb"], t.get("mib"))
            groups.setdefault(key, {}).setdefault(r.get("kernel"), []).append(t)
    rows = []
    for key in sorted(groups, key=sort_key):
        for k in KERNELS:
            ts = groups[key].get(k)
            if not ts:
                continue
            folios = ts[0]["folios"]
            row = dict(arch=key[0], bench=key[1], size_kb=key[2], kernel=k,
                       runs=len(ts), folios=folios)
            for f in ("flushes", "flushed_pages", "full_flushes", "ipis_sent",
                      "swpout", "swpout_fallback"):
                vals = [t[f] for t in ts if f in t]
                row[f] = mean(vals) if vals else None
            row["lost"] = sum(max(t.get("events_lost", 0), 0) for t in ts)
            # The tlbcount plugin's counts, per folio, over the runs it counted.
            counted = [t["insns"] for t in ts if "insns" in t]
            if counted:
                kinds = sorted({k for c in counted for k in c})
                row["insns"] = {k: mean([c.get(k, 0) for c in counted]) / folios
                                for k in kinds}
                row["counted"] = len(counted)
            rows.append(row)
    return rows
