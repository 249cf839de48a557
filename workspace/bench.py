#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Analyse the console logs of the bench plans: vanilla against patched.

    bench.py [-o OUTDIR] [--strict] LOG...

Every LOG is the console log of one boot.  Its labels (arch, kernel =
vanilla|patched, boot index, accelerator, ...) come from, in order of
precedence:
  - an argument written ARCH:KERNEL:BOOT:PATH,
  - a sidecar PATH.meta.json (or PATH without .log + .meta.json) holding a
    flat JSON object, e.g. {"arch": "arm64", "kernel": "patched",
    "boot": 1, "accel": "tcg", "kernel_version": "7.3.4",
    "kernel_commit": "abc123", "qemu": "7.2.22", "host_cpu": "..."},
  - the sidecar PATH.accel written by qemu-run.sh,
  - a file name of the form ARCH-KERNEL-BOOT.log,
  - the guest's own PB-BEGIN / PB-INFO lines (arch, kernel release).

Each timed run of pb_bench is a line "PB-SAMPLE {json}".  Samples with
"warmup": 1 are kept in samples.json and left out of the statistics.  For
every (arch, workload, folio size, region size) and kernel the statistics
are n, mean, median, sample standard deviation, min and max of the time of
the timed region.  The speedup is mean(vanilla) / mean(patched) (a ratio
of means; above 1 the patched kernel is faster), with a 95% percentile
bootstrap confidence interval (each kernel's runs resampled independently,
4000 resamples, fixed seed).  The ratio of medians is shown beside it.

Every sample is checked against the counters that prove the intended path
ran (see check_sample()); a sample that fails a check is flagged in the
table, the report and samples.json.  --strict makes flagged samples, a
workload measured on only one kernel, or an order-0 (4K) MADV_PAGEOUT
speedup below 0.98 whose whole CI lies below 1 fail the command.

Writes OUTDIR/report.md, OUTDIR/samples.json, OUTDIR/speedup.png and
prints one side-by-side table per arch.
"""

import argparse
import datetime
import json
import math
import os
import platform
import random
import re
import subprocess
import sys
import zlib

KERNELS = ("vanilla", "patched")
BOOTSTRAP_RESAMPLES = 4000
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

BENCH_ORDER = ("pageout", "mixed", "lazyfree", "madvfree", "munmap")
BENCH_TITLE = {
    "pageout": "MADV_PAGEOUT",
    "mixed": "MADV_PAGEOUT, mixed AnonExclusive",
    "lazyfree": "lazyfree MADV_PAGEOUT",
    "madvfree": "MADV_FREE",
    "munmap": "munmap",
}
ARCH_ALIASES = {"aarch64": "arm64", "arm64": "arm64", "x86_64": "x86_64",
                "x86": "x86_64", "amd64": "x86_64"}

SAMPLE_RE = re.compile(r"PB-SAMPLE\s+(\{.*\})")
INFO_RE = re.compile(r"PB-INFO\s+(\{.*\})")
TLB_RE = re.compile(r"PB-TLB\s+(\{.*\})")
BEGIN_RE = re.compile(r"PB-BEGIN\s+(.*)")
END_RE = re.compile(r"PB-END rc=(\d+)")
NAME_RE = re.compile(r"(?P<arch>x86_64|arm64|aarch64)[-_](?P<kernel>vanilla|patched)"
                     r"[-_](?:boot)?(?P<boot>\d+)")


# ---------------------------------------------------------------- statistics

def mean(xs):
    return sum(xs) / len(xs)


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def stdev(xs):
    """Sample standard deviation (n - 1); 0 for a single value."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def describe(xs):
    return dict(n=len(xs), mean=mean(xs), median=median(xs), stdev=stdev(xs),
                min=min(xs), max=max(xs))


def percentile(sorted_xs, q):
    """Linear-interpolation percentile of an already sorted list, q in [0, 1]."""
    if not sorted_xs:
        raise ValueError("empty")
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def speedup_ci(base, new, resamples=BOOTSTRAP_RESAMPLES, level=0.95, seed=1):
    """mean(base) / mean(new) and its percentile bootstrap CI.

    The two groups are resampled independently (a stratified bootstrap).
    Returns (ratio, low, high); low == high == ratio when both groups hold
    a single value.
    """
    ratio = mean(base) / mean(new)
    rng = random.Random(seed)
    nb, nn = len(base), len(new)
    stats = []
    for _ in range(resamples):
        sb = sum(base[rng.randrange(nb)] for _ in range(nb))
        sn = sum(new[rng.randrange(nn)] for _ in range(nn))
        stats.append((sb / nb) / (sn / nn))
    stats.sort()
    alpha = (1 - level) / 2
    return ratio, percentile(stats, alpha), percentile(stats, 1 - alpha)


def boot_speedup_ci(base, new, resamples=BOOTSTRAP_RESAMPLES, level=0.95, seed=1):
    """mean(base) / mean(new) with a two-level percentile bootstrap CI.

    base and new map each boot to its list of runs.  Every resample draws,
    per kernel, as many boots as it has with replacement and then each
    drawn boot's runs with replacement, so the CI covers the boot-to-boot
    spread (under TCG often larger than the run-to-run one) and not only
    the spread of runs.  Needs two boots per kernel; the ratio is of the
    means over all runs, as in speedup_ci().
    """
    all_b = [x for runs in base.values() for x in runs]
    all_n = [x for runs in new.values() for x in runs]
    ratio = mean(all_b) / mean(all_n)
    rng = random.Random(seed)
    bb, bn = list(base.values()), list(new.values())

    def draw(boots):
        total = count = 0
        for _ in boots:
            runs = boots[rng.randrange(len(boots))]
            for _ in runs:
                total += runs[rng.randrange(len(runs))]
            count += len(runs)
        return total / count

    stats = sorted(draw(bb) / draw(bn) for _ in range(resamples))
    alpha = (1 - level) / 2
    return ratio, percentile(stats, alpha), percentile(stats, 1 - alpha)


def delta_ci(base, new, level=0.95):
    """Delta-method CI of mean(base) / mean(new) (normal approximation).

    Used as a cross-check of the bootstrap in the tests and in samples.json.
    """
    z = {0.95: 1.959964, 0.99: 2.575829}[level]
    mb, mn = mean(base), mean(new)
    r = mb / mn
    var = (stdev(base) ** 2 / len(base)) / mn ** 2 + \
        (mb ** 2) * (stdev(new) ** 2 / len(new)) / mn ** 4
    half = z * math.sqrt(var)
    return r, r - half, r + half


# -------------------------------------------------------------------- parsing

def parse_log_text(text):
    """Return (samples, infos, begin, end_rc, bad_lines, tlb) of one console log.

    A line may carry console noise before the marker; a sample whose JSON
    was broken by interleaved kernel output is counted in bad_lines.  tlb
    holds the PB-TLB lines (TLB flushes traced over one untimed run).
    """
    samples, infos, bad, tlb = [], [], [], []
    begin, end_rc = {}, None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.replace("\r", "")
        m = SAMPLE_RE.search(line)
        if m:
            try:
                obj = json.loads(m.group(1))
                if not isinstance(obj, dict) or "ns" not in obj or "bench" not in obj:
                    raise ValueError("not a sample")
                obj["_line"] = lineno
                samples.append(obj)
            except ValueError:
                bad.append((lineno, line))
            continue
        if "PB-SAMPLE" in line:
            bad.append((lineno, line))
            continue
        m = INFO_RE.search(line)
        if m:
            try:
                infos.append(json.loads(m.group(1)))
            except ValueError:
                bad.append((lineno, line))
            continue
        m = TLB_RE.search(line)
        if m:
            try:
                tlb.append(json.loads(m.group(1)))
            except ValueError:
                bad.append((lineno, line))
            continue
        m = BEGIN_RE.search(line)
        if m:
            for tok in m.group(1).split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    begin[k] = v
            continue
        m = END_RE.search(line)
        if m:
            end_rc = int(m.group(1))
    return samples, infos, begin, end_rc, bad, tlb


def split_spec(arg):
    """ARCH:KERNEL:BOOT:PATH -> (labels, path); a plain path -> ({}, path)."""
    parts = arg.split(":", 3)
    if len(parts) == 4 and parts[1] in KERNELS and parts[2].isdigit():
        return dict(arch=parts[0], kernel=parts[1], boot=int(parts[2])), parts[3]
    return {}, arg


def sidecar_meta(path):
    meta = {}
    base = path[:-4] if path.endswith(".log") else path
    for cand in (base + ".meta.json", path + ".meta.json"):
        if os.path.exists(cand):
            with open(cand) as f:
                meta.update(json.load(f))
            break
    if "accel" not in meta and os.path.exists(path + ".accel"):
        with open(path + ".accel") as f:
            meta["accel"] = f.read().strip()
    return meta


def load_log(arg):
    """Parse one log argument into a run dict with labels and samples."""
    labels, path = split_spec(arg)
    with open(path, errors="replace") as f:
        text = f.read()
    samples, infos, begin, end_rc, bad, tlb = parse_log_text(text)
    meta = sidecar_meta(path)
    m = NAME_RE.search(os.path.basename(path))
    guessed = dict(arch=m.group("arch"), kernel=m.group("kernel"),
                   boot=int(m.group("boot"))) if m else {}
    run = {}
    for src in (guessed, meta, labels):
        run.update(src)
    if "arch" not in run:
        arch = begin.get("arch") or (infos[0].get("machine") if infos else None)
        if arch:
            run["arch"] = arch
    run["arch"] = ARCH_ALIASES.get(run.get("arch"), run.get("arch"))
    release = begin.get("kernel") or (infos[0].get("release") if infos else None)
    run.setdefault("kernel_version", run.get("release") or release)
    run["guest_release"] = release
    if begin.get("cpus", "").isdigit():
        run["guest_cpus"] = int(begin["cpus"])
    run.setdefault("boot", 0)
    run["boot"] = int(run["boot"])
    run.setdefault("accel", "unknown")
    run["log"] = path
    run["end_rc"] = end_rc
    run["bad_lines"] = bad
    run["infos"] = infos
    run["tlb"] = tlb
    for s in samples:
        s.update(arch=run["arch"], kernel=run.get("kernel"), boot=run["boot"],
                 log=path)
    run["samples"] = samples
    return run


# ------------------------------------------------------------ counter checks

def check_sample(s):
    """List of reasons why the counters of sample @s are off (empty if fine).

    Checks only what holds on both kernels of Linux 7.3: each run must have
    allocated folios of the requested size, and the timed region must have
    done the work the workload is about (every folio swapped out whole,
    every page lazily freed, every folio unmapped), with no split and no
    fallback.  Counters the guest kernel does not expose are not checked.
    """
    flags = []
    size = s.get("size_kb", 0)
    folios = s.get("folios")
    pages = s.get("pages")
    bench = s.get("bench")
    large = size > 4
    swap = s.get("swap_kb", 0) > 0

    def expect(field, want, why):
        if field in s and want is not None and s[field] != want:
            flags.append("%s=%s, want %s (%s)" % (field, s[field], want, why))

    if s.get("ns", 0) <= 0:
        flags.append("ns=%s: no time measured" % s.get("ns"))
    if large:
        expect("setup_anon_fault_alloc", folios, "folios of %dkB allocated" % size)
        expect("setup_anon_fault_fallback", 0, "no allocation fallback")

    if bench in ("pageout", "mixed"):
        # Zero-filled folios are not written but recorded as zero in the
        # swap table (swpout_zero counts their pages, mTHP swpout not).
        zero = s.get("swpout_zero")
        if not swap:
            flags.append("no swap: MADV_PAGEOUT cannot swap out")
        elif "pswpout" not in s:
            flags.append("no /proc/vmstat events (CONFIG_VM_EVENT_COUNTERS=n): "
                         "cannot tell whether the pages were swapped out")
        else:
            if zero is not None:
                if s["pswpout"] + zero != pages:
                    flags.append("pswpout+swpout_zero=%d, want %d (every page "
                                 "swapped out)" % (s["pswpout"] + zero, pages))
            else:
                expect("pswpout", pages, "every page written to swap")
            if large and "swpout" in s:
                zero_folios = (zero or 0) // (pages // folios)
                if s["swpout"] + zero_folios != folios:
                    flags.append("swpout=%d (+%d zero-filled folios), want %d (every "
                                 "folio swapped out whole)" % (s["swpout"], zero_folios, folios))
        if swap and large:
            expect("swpout_fallback", 0, "no split before swap-out")
            expect("split", 0, "no folio split")
        if bench == "mixed":
            expect("setup_split_deferred", 0,
                   "the rewritten page reused the folio instead of a COW copy")
    elif bench == "lazyfree":
        expect("pglazyfreed", pages, "every page discarded as lazyfree")
        expect("pswpout", 0, "lazyfree pages are not swapped")
        if large:
            expect("split_deferred", 0, "batched lazyfree unmap (seed 002)")
            expect("split", 0, "no folio split")
    elif bench == "madvfree":
        # Folios still in a per-CPU LRU batch are not moved to the lazyfree
        # list and not counted, and the counter is system-wide (another
        # task's MADV_FREE adds to it): allow 1% either way.
        if "pglazyfree" in s and not pages * 0.99 <= s["pglazyfree"] <= pages * 1.01:
            flags.append("pglazyfree=%d, want %d (every page marked lazyfree)"
                         % (s["pglazyfree"], pages))
        if large:
            expect("split", 0, "no folio split (seed 003)")
    elif bench == "munmap":
        if large:
            expect("nr_anon", -folios if folios is not None else None,
                   "every folio freed")
            expect("split_deferred", 0, "fully unmapped folios are not queued")
            if s.get("pte_map"):
                expect("setup_thp_split_pmd", folios,
                       "PMD-sized folios PTE-mapped before the munmap")
    return flags


# ----------------------------------------------------------------- analysis

def group_key(s):
    return (s["arch"], s["bench"], s["size_kb"], s.get("mib"))


def sort_key(k):
    arch, bench, size, mib = k
    bi = BENCH_ORDER.index(bench) if bench in BENCH_ORDER else len(BENCH_ORDER)
    return (arch or "", bi, bench, size, mib or 0)


def seed_for(bench, size, arch):
    return SEEDS.get((bench, size, arch)) or SEEDS.get((bench, size, None))


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
        row["regression"] = bool(bench == "pageout" and size == 4 and
                                 row["speedup"] is not None and
                                 row["speedup"] < REGRESSION_LIMIT)
        rows.append(row)
    return rows


COUNTER_FIELDS = ("swpout", "swpout_fallback", "split_deferred", "split",
                  "pswpout", "swpout_zero", "thp_swpout", "thp_swpout_fallback", "pglazyfree",
                  "pglazyfreed", "nr_anon", "nr_tlb_local_flush_one",
                  "nr_tlb_local_flush_all", "nr_tlb_remote_flush",
                  "nr_tlb_remote_flush_received")


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


# ------------------------------------------------------------------- output

def fmt_size(kb):
    if kb >= 1024 and kb % 1024 == 0:
        return "%dM" % (kb // 1024)
    return "%dK" % kb


def fmt_stats(st):
    if not st:
        return "-"
    rel = 100 * st["stdev"] / st["mean"] if st["mean"] else 0
    return "%d %s/%s ±%.0f%%" % (st["n"], fmt_ms(st["mean"]), fmt_ms(st["median"]), rel)


def fmt_ms(v):
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    if v >= 1:
        return "%.2f" % v
    return "%.3f" % v


def fmt_ratio(row):
    if row["speedup"] is None:
        return "-"
    return "%.3f [%.3f, %.3f]" % (row["speedup"], row["ci_low"], row["ci_high"])


def fmt_seed(row):
    seed = row["seed"]
    if not seed:
        return ""
    s = "%.2fx (%s)" % (seed["ratio"], seed["seed"])
    if seed.get("in_base"):
        s += " in base"
    if row.get("mib") and seed.get("mib") and row["mib"] != seed["mib"]:
        s += ", seed at %d MiB" % seed["mib"]
    return s


def verdict(row):
    notes = []
    if row["vanilla_flagged"] or row["patched_flagged"]:
        notes.append("FLAGGED v%d/p%d" % (row["vanilla_flagged"], row["patched_flagged"]))
    if row["regression"]:
        notes.append("REGRESSION" if row["ci_high"] < 1 else "below %.2f" % REGRESSION_LIMIT)
    if row["speedup"] is not None and row["seed"] and not row["seed"].get("in_base"):
        if row["ci_low"] <= row["seed"]["ratio"] <= row["ci_high"]:
            notes.append("seed in CI")
        elif row["speedup"] >= row["seed"]["ratio"]:
            notes.append(">= seed")
        else:
            notes.append("< seed")
    if row["seed"] and row["seed"].get("in_base") and row["speedup"] is not None:
        notes.append("expect 1.0" + (" ok" if row["ci_low"] <= 1 <= row["ci_high"] else ""))
    return ", ".join(notes)


TABLE_HEAD = ("workload", "size", "MiB", "vanilla n mean/median ms ±sd",
              "patched n mean/median ms ±sd", "speedup [95% CI]", "med.ratio",
              "seed", "notes")


def table_rows(rows, arch):
    out = []
    for r in rows:
        if r["arch"] != arch:
            continue
        out.append((r["bench"], fmt_size(r["size_kb"]), str(r["mib"]),
                    fmt_stats(r["vanilla"]), fmt_stats(r["patched"]),
                    fmt_ratio(r),
                    "%.3f" % r["median_speedup"] if r["median_speedup"] else "-",
                    fmt_seed(r), verdict(r)))
    return out


def text_table(head, body):
    widths = [max(len(str(c)) for c in col) for col in zip(head, *body)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for b in body:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(b, widths)).rstrip())
    return "\n".join(lines)


def md_table(head, body):
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    for b in body:
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in b) + " |")
    return "\n".join(lines)


def host_cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return "%s (%d CPUs)" % (line.split(":", 1)[1].strip(), os.cpu_count())
    except OSError:
        pass
    return platform.processor() or platform.machine()


def qemu_version(arch):
    exe = {"x86_64": "qemu-system-x86_64", "arm64": "qemu-system-aarch64"}.get(arch)
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                             timeout=10).stdout
        return out.splitlines()[0].strip() if out else None
    except (OSError, subprocess.SubprocessError):
        return None


def environment(runs):
    """Per arch: accelerators, kernel versions, QEMU, host CPU."""
    env = {}
    for r in runs:
        e = env.setdefault(r["arch"], dict(accel=set(), kernels={}, qemu=set(),
                                           host_cpu=set(), boots={}, clocksource=set(),
                                           cpus=set()))
        e["accel"].add(r.get("accel", "unknown"))
        for info in r.get("infos", []):
            if info.get("clocksource"):
                e["clocksource"].add(info["clocksource"])
        if r.get("guest_cpus"):
            e["cpus"].add(r["guest_cpus"])
        kv = r.get("kernel_version") or r.get("guest_release") or "unknown"
        if r.get("kernel_commit"):
            kv += " (%s)" % r["kernel_commit"]
        e["kernels"].setdefault(r.get("kernel"), set()).add(kv)
        e["boots"].setdefault(r.get("kernel"), set()).add(r["boot"])
        if r.get("qemu"):
            e["qemu"].add(r["qemu"])
        if r.get("host_cpu"):
            e["host_cpu"].add(r["host_cpu"])
    for arch, e in env.items():
        if not e["qemu"]:
            v = qemu_version(arch)
            if v:
                e["qemu"].add(v)
        if not e["host_cpu"]:
            e["host_cpu"].add(host_cpu())
    return env


def counters_table(rows, arch):
    """Mean counter deltas per folio, to show which path ran."""
    body = []
    for r in rows:
        if r["arch"] != arch:
            continue
        for k in KERNELS:
            c = r[k + "_counters"]
            if not c or not r[k]:
                continue
            folios = (r["mib"] << 10) // r["size_kb"] if r["mib"] else None
            tlb = c.get("nr_tlb_local_flush_one")
            body.append((r["bench"], fmt_size(r["size_kb"]), k,
                         fmt_num(c.get("swpout")), fmt_num(c.get("swpout_fallback")),
                         fmt_num(c.get("split_deferred")), fmt_num(c.get("pswpout")),
                         fmt_num(c.get("swpout_zero")),
                         fmt_num(c.get("pglazyfreed") if r["bench"] == "lazyfree"
                                 else c.get("pglazyfree")),
                         "%.2f" % (tlb / folios) if tlb is not None and folios else "-",
                         fmt_num(c.get("nr_tlb_remote_flush")),
                         "%d" % r[k + "_flagged"]))
    head = ("workload", "size", "kernel", "swpout", "swpout_fallback",
            "split_deferred", "pswpout", "swpout_zero", "pglazyfree(d)", "tlb_one/folio",
            "tlb_remote", "flagged")
    return head, body


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
            rows.append(row)
    return rows


def tlb_table(trows, arch):
    body = []
    for t in trows:
        if t["arch"] != arch:
            continue
        fl = t["flushes"]
        # A full flush has no page count: pages/flush is over the others.
        ranged = fl - (t["full_flushes"] or 0)
        body.append((t["bench"], fmt_size(t["size_kb"]), t["kernel"], "%d" % t["runs"],
                     "%d" % t["folios"], fmt_num(t["swpout"]),
                     fmt_num(fl), "%.2f" % (fl / t["folios"]),
                     "%.1f" % (t["flushed_pages"] / ranged) if ranged else "-",
                     fmt_num(t["full_flushes"]), fmt_num(t["ipis_sent"]),
                     "%d" % t["lost"]))
    head = ("workload", "size", "kernel", "runs", "folios", "swpout", "flushes",
            "flushes/folio", "pages/flush", "full", "IPIs sent", "events lost")
    return head, body


def fmt_num(v):
    if v is None:
        return "-"
    return "%d" % v if float(v).is_integer() else "%.1f" % v


def targets(rows):
    """The issue's acceptance lines: headline against the seed, 4K no-regression."""
    out = []
    for arch in sorted({r["arch"] for r in rows}):
        for r in rows:
            if r["arch"] != arch or r["bench"] != "pageout" or r["speedup"] is None:
                continue
            if r["size_kb"] == 64 and r["seed"]:
                goal = r["seed"]["ratio"]
                if r["ci_low"] >= goal:
                    how = "reaches the seed's %.2fx (whole CI above it)" % goal
                elif r["speedup"] >= goal:
                    how = "reaches the seed's %.2fx (CI reaches below it)" % goal
                else:
                    how = "**below the seed's %.2fx**" % goal
                out.append("- %s 64K MADV_PAGEOUT: speedup %s: %s." % (arch, fmt_ratio(r), how))
            elif r["size_kb"] == 4:
                if r["speedup"] >= REGRESSION_LIMIT:
                    how = "no regression (limit %.2f)" % REGRESSION_LIMIT
                elif r["ci_high"] >= 1:
                    how = "below %.2f but the CI includes 1" % REGRESSION_LIMIT
                else:
                    how = "**REGRESSION** (below %.2f, whole CI below 1)" % REGRESSION_LIMIT
                out.append("- %s 4K MADV_PAGEOUT: speedup %s: %s." % (arch, fmt_ratio(r), how))
    return out or ["- no MADV_PAGEOUT pair measured"]


AA_NOTE = ("**A/A calibration.** The \"patched\" kernel here is vanilla 7.3 with "
           "`workspace/bench-aa-layout.patch`: 1 KiB of text that never runs, added to "
           "mm/rmap.c.  Both kernels do the same work, so every ratio should be 1; how "
           "far it is from 1, beyond its CI, is what the kernel image's layout and the "
           "host's drift alone do to these measurements.  Read the vanilla/patched "
           "ratios of `make bench` against it.")


ICOUNT_NOTE = ("**The guests ran under TCG with `-icount`** (`make bench ICOUNT=N`): "
               "QEMU advances the guest's clocks by 2^N ns per guest instruction, "
               "so every time here is an instruction count of the guest, on one "
               "vCPU, free of the host's load.  It is close to deterministic, "
               "and it does not see what an instruction costs on a CPU: cache "
               "and TLB misses, barriers, TLB maintenance and IPIs are all one "
               "instruction.  Read the ratios as the change in instructions "
               "executed, next to the timed runs of `make bench`.")


def icount_run(env):
    return any("icount" in a for e in env.values() for a in e["accel"])


def write_report(path, runs, samples, rows, env, png_ok, trows=(), aa=False):
    if aa:
        lines = ["# pgtable_batch benchmark: A/A calibration (vanilla vs vanilla)", "",
                 AA_NOTE, ""]
    else:
        lines = ["# pgtable_batch benchmark: vanilla vs patched", ""]
    lines.append("Generated %s from %d console logs, %d timed runs (%d warm-up runs "
                 "not counted)." % (
                     datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     len(runs), sum(1 for s in samples if not s.get("warmup")),
                     sum(1 for s in samples if s.get("warmup"))))
    lines.append("")
    lines.append("## Setup")
    lines.append("")
    for arch in sorted(env):
        e = env[arch]
        lines.append("- **%s**: accelerator %s; QEMU %s; host CPU %s." % (
            arch, "/".join(sorted(a.upper() for a in e["accel"])),
            "; ".join(sorted(e["qemu"])) or "unknown",
            "; ".join(sorted(e["host_cpu"]))))
        for k in KERNELS + tuple(x for x in e["kernels"] if x not in KERNELS):
            if k in e["kernels"]:
                lines.append("  - %s kernel: %s, boots %s" % (
                    k, ", ".join(sorted(e["kernels"][k])),
                    ", ".join(str(b) for b in sorted(e["boots"][k]))))
    for arch in sorted(env):
        cs = env[arch]["clocksource"]
        if cs:
            lines.append("- %s guest clocksource: %s." % (arch, ", ".join(sorted(cs))))
        if env[arch]["cpus"]:
            lines.append("- %s guest CPUs: %s." % (
                arch, ", ".join(str(c) for c in sorted(env[arch]["cpus"]))))
        if any("jiffies" in c for c in cs):
            lines += ["", "**Warning: the %s guest timed with a jiffies clocksource**: "
                      "CLOCK_MONOTONIC advances in whole ticks (4 ms at HZ=250), so "
                      "short workloads are quantized; the means over many runs are "
                      "still unbiased, the min/max are not." % arch, ""]
    if icount_run(env):
        lines += ["", ICOUNT_NOTE]
    elif any("TCG" in a.upper() for e in env.values() for a in e["accel"]):
        lines += ["",
                  "**The guests ran under TCG, QEMU's instruction emulator.** "
                  "Absolute times are emulation figures, not hardware ones: "
                  "TCG makes memory accesses, atomics, barriers and TLB "
                  "maintenance cost very different amounts than a CPU does. "
                  "Read only the vanilla/patched ratios, and those as "
                  "indications of how much work the batching removes."]
    lines += ["", "## Targets", ""] + targets(rows) + ["",
              "## Method",
              "",
              "Each workload runs `pb_bench` in the guest (zram swap with lz4, "
              "only the named mTHP size enabled, `4K` = all mTHP sizes off, "
              "`2M` = PMD THP). Times are CLOCK_MONOTONIC around the timed "
              "system call. Vanilla and patched boots alternate. Per kernel: "
              "n, mean/median in ms, ±sample standard deviation in %% of the "
              "mean. **speedup = mean(vanilla) / mean(patched)** (ratio of "
              "means; > 1 means the patched kernel is faster), 95%% CI by "
              "a two-level percentile bootstrap (%d resamples; per kernel, "
              "independently, the boots are resampled and then the runs of "
              "each drawn boot, so the CI covers the boot-to-boot drift that "
              "the per-boot medians below show; a point with one boot per "
              "kernel resamples runs only). med.ratio is median(vanilla) / "
              "median(patched). The "
              "seed column is the speedup of the seed posting "
              "(`shared/seeds/<n>_*.txt`); \"in base\" marks changes Linux 7.3 "
              "already contains, so both kernels have them and the expected "
              "ratio here is 1.0. A 4K MADV_PAGEOUT speedup below %.2f counts as "
              "a regression. `make bench AA=1` runs the same method on two "
              "kernels that do the same work (vanilla against vanilla with 1 KiB "
              "of unexecuted text): how far its ratios stray from 1 is the "
              "method's noise floor under this emulator, including what the "
              "layout of a kernel image alone does." % (BOOTSTRAP_RESAMPLES,
                                                         REGRESSION_LIMIT),
              ""]
    for arch in sorted({r["arch"] for r in rows}):
        lines += ["## %s" % arch, "", md_table(TABLE_HEAD, table_rows(rows, arch)), ""]
        head, body = counters_table(rows, arch)
        lines += ["Mean counter deltas over the timed region per run "
                  "(tlb_one/folio is nr_tlb_local_flush_one divided by the "
                  "number of folios; `-` where the kernel does not expose it):",
                  "", md_table(head, body), ""]
        head, body = tlb_table(trows, arch)
        if body:
            lines += ["TLB flushes over one more, untimed run per boot, counted "
                      "with the tlb:tlb_flush trace event (kernels with "
                      "tracing): flushes the unmapping CPU did (local and "
                      "batched shootdowns; nr_tlb_local_flush_one counts "
                      "their pages), their mean size, full flushes and "
                      "flush IPIs sent to the other CPU:",
                      "", md_table(head, body), ""]
    pb = per_boot_medians(samples)
    if pb:
        lines += ["## Per-boot medians (ms)", ""]
        head = ("arch", "workload", "size", "boots: kernel/boot = median")
        body = []
        for key in sorted(pb, key=sort_key):
            arch, bench, size, mib = key
            d = pb[key]
            body.append((arch, bench, fmt_size(size),
                         ", ".join("%s/%d=%s" % (k[0][0], k[1], fmt_ms(v))
                                   for k, v in sorted(d.items(), key=lambda kv: (kv[0][1], kv[0][0])))))
        lines += [md_table(head, body), ""]
    flagged = [s for s in samples if s["flags"]]
    lines += ["## Counter checks", ""]
    if flagged:
        lines.append("%d of %d samples have counters that do not match the "
                     "intended path; they are counted in the statistics and "
                     "marked FLAGGED in the tables:" % (len(flagged), len(samples)))
        lines.append("")
        reasons = {}
        for s in flagged:
            for why in s["flags"]:
                k = (s["arch"], s.get("kernel") or "?", s["bench"], s["size_kb"],
                     re.sub(r"=-?\d+,", "=N,", why))
                reasons.setdefault(k, []).append(s)
        for (arch, kernel, bench, size, why), ss in sorted(reasons.items(), key=lambda kv: (
                kv[0][0], kv[0][1], sort_key((kv[0][0], kv[0][2], kv[0][3], 0)), kv[0][4])):
            lines.append("- %s %s %s %s: %d samples (boots %s): %s%s" % (
                arch, kernel, bench, fmt_size(size), len(ss),
                ",".join(str(b) for b in sorted({x["boot"] for x in ss})), why,
                "" if "=N," not in why else "; e.g. " + next(
                    f for x in ss for f in x["flags"] if re.sub(r"=-?\d+,", "=N,", f) == why)))
    else:
        lines.append("Every sample's counters match the intended path.")
    bad = [(r["log"], ln) for r in runs for ln, _ in r["bad_lines"]]
    if bad:
        lines += ["", "%d PB-SAMPLE lines could not be parsed (console "
                  "interleaving), e.g. %s:%d." % (len(bad), bad[0][0], bad[0][1])]
    unfinished = [r["log"] for r in runs if r["end_rc"] != 0]
    if unfinished:
        lines += ["", "Boots without `PB-END rc=0`: " + ", ".join(unfinished)]
    lines.append("")
    if png_ok:
        lines += ["![speedup against folio size](speedup.png)", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def plot(path, rows):
    """Speedup against folio size, one panel per workload, one line per arch."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    benches = [b for b in BENCH_ORDER
               if any(r["bench"] == b and r["speedup"] is not None for r in rows)]
    if not benches:
        return False
    fig, axes = plt.subplots(1, len(benches), figsize=(max(7, 4.5 * len(benches)), 4.5),
                             squeeze=False)
    for ax, bench in zip(axes[0], benches):
        for arch, marker, color in (("arm64", "o", "C0"), ("x86_64", "s", "C1")):
            pts = sorted((r["size_kb"], r) for r in rows
                         if r["bench"] == bench and r["arch"] == arch and
                         r["speedup"] is not None)
            if not pts:
                continue
            xs = [p[0] for p in pts]
            ys = [p[1]["speedup"] for p in pts]
            err = [[y - p[1]["ci_low"] for y, p in zip(ys, pts)],
                   [p[1]["ci_high"] - y for y, p in zip(ys, pts)]]
            ax.errorbar(xs, ys, yerr=err, marker=marker, color=color, capsize=3,
                        label=arch)
            sx = [kb for kb in xs if seed_for(bench, kb, arch) and
                  not seed_for(bench, kb, arch).get("in_base")]
            if sx:
                ax.scatter(sx, [seed_for(bench, kb, arch)["ratio"] for kb in sx],
                           marker="*", s=120, zorder=5, color=color,
                           label="%s seed" % arch)
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xscale("log", base=2)
        ticks = sorted({r["size_kb"] for r in rows if r["bench"] == bench})
        ax.set_xticks(ticks)
        ax.set_xticklabels([fmt_size(t) for t in ticks], rotation=45)
        ax.set_xlabel("folio size")
        ax.set_ylabel("speedup (vanilla / patched mean time)")
        ax.set_title(BENCH_TITLE.get(bench, bench))
        ax.legend(fontsize=8)
    fig.suptitle("speedup of the patched kernel, 95% bootstrap CI "
                 "(TCG timings: read as ratios)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def reexec_for_matplotlib():
    """Run under the system python3 when this one lacks matplotlib."""
    try:
        import matplotlib  # noqa: F401 (only probing)
        return
    except ImportError:
        pass
    system = "/usr/bin/python3"
    if (os.path.exists(system) and not os.environ.get("PB_BENCH_REEXEC") and
            os.path.realpath(sys.executable) != os.path.realpath(system)):
        os.environ["PB_BENCH_REEXEC"] = "1"
        os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+", help="console logs, or ARCH:KERNEL:BOOT:PATH")
    ap.add_argument("-o", "--out", default=None,
                    help="output directory (default: build/bench of the repo)")
    ap.add_argument("--strict", action="store_true",
                    help="fail on flagged samples, unpaired workloads or a 4K regression")
    ap.add_argument("--resamples", type=int, default=BOOTSTRAP_RESAMPLES)
    ap.add_argument("--aa", action="store_true",
                    help="the logs are an A/A calibration: \"patched\" is vanilla "
                         "with a layout change (make bench AA=1)")
    args = ap.parse_args(argv)

    out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "..", "build", "bench")
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
    if icount_run(env):
        print("\nTCG with -icount: times are guest instruction counts on one vCPU; "
              "read the speedups as ratios of instructions executed.")
    elif any("TCG" in a.upper() for e in env.values() for a in e["accel"]):
        print("\nTCG: times are emulation figures; read the speedups as ratios only.")
    print("\nspeedup = mean(vanilla)/mean(patched), 95%% bootstrap CI; report: %s"
          % os.path.join(out, "report.md"))
    if not png_ok:
        print("note: matplotlib unavailable or nothing to plot; no speedup.png")

    flagged = sum(1 for s in samples if s["flags"])
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


if __name__ == "__main__":
    reexec_for_matplotlib()
    sys.exit(main())
