# SPDX-License-Identifier: GPL-2.0
"""report.md: the setup each boot ran on, the method, the tables per arch,
the per-boot medians and the counter checks."""

import datetime
import os
import platform
import re
import subprocess

from .analyse import REGRESSION_LIMIT, per_boot_medians, sort_key
from .parse import KERNELS
from .stats import BOOTSTRAP_RESAMPLES
from .tables import (TABLE_HEAD, counters_table, fmt_ms, fmt_size, md_table,
                     migration_counters_table, table_rows, targets, tlb_table,
                     tlbcount_table)


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
        if r.get("config"):
            kv += "; config: %s" % r["config"]
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
    lines += ["", "## Targets", ""] + targets(rows, icount_run(env)) + ["",
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
              "",
              "`migrate` moves a region (256 MiB unless the table says otherwise) of the named folio size "
              "(PMD-sized folios PTE-mapped first) to the other NUMA node "
              "with one move_pages() call naming every page, timed around the "
              "call; `migrate_back` then moves it back the same way. The first "
              "leg is the one the migration goals are about: it migrates the "
              "same folios on both kernels. On the way back vanilla 7.3 splits "
              "every large folio that its first leg left queued as partially "
              "mapped (split/folio in the migration counters), so that leg "
              "measures the split fix as much as the batching.",
              ""]
    for arch in sorted({r["arch"] for r in rows}):
        lines += ["## %s" % arch, "", md_table(TABLE_HEAD, table_rows(rows, arch)), ""]
        head, body = counters_table(rows, arch)
        lines += ["Mean counter deltas over the timed region per run "
                  "(tlb_one/folio is nr_tlb_local_flush_one divided by the "
                  "number of folios; `-` where the kernel does not expose it):",
                  "", md_table(head, body), ""]
        head, body = migration_counters_table(rows, arch)
        if body:
            lines += ["Migration counters, mean deltas over the timed leg per "
                      "run (moved: pages on the target node afterwards; "
                      "pgmigrate_* are system-wide):", "", md_table(head, body), ""]
        head, body = tlb_table(trows, arch)
        if body:
            lines += ["TLB flushes over one more, untimed run per boot, counted "
                      "with the tlb:tlb_flush trace event (kernels with "
                      "tracing): flushes the unmapping CPU did (local and "
                      "batched shootdowns; nr_tlb_local_flush_one counts "
                      "their pages), their mean size, full flushes and "
                      "flush IPIs sent to the other CPU:",
                      "", md_table(head, body), ""]
        head, body = tlbcount_table(trows, arch)
        if body:
            lines += ["TLB maintenance per folio over the same untimed runs, "
                      "counted by instruction with the tlbcount QEMU plugin "
                      "(workspace/tlbcount.c) on every vCPU between two "
                      "markers around the unmap or move_pages() call "
                      "(arm64: TLBI by operation, DSB by domain, ISB, calls of "
                      "__contpte_try_unfold and the other contpte conversions, "
                      "folds; x86_64: flush_tlb_func() runs, local and remote, "
                      "IPI rounds, INVLPG, CR3/CR4 writes).  The limit for one "
                      "fully mapped 64K folio: at most one range invalidation "
                      "and its barrier (none when reclaim defers the flush to "
                      "its batch) and no unfold.  unmap1 is the method's known "
                      "count: every other page of a region munmap()ed one by "
                      "one, so 0.50 single-page invalidations per page, exact "
                      "or the boot fails:",
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
