# SPDX-License-Identifier: GPL-2.0
"""Text and Markdown tables of the statistics, and how each cell is formatted."""

from .analyse import REGRESSION_LIMIT, target_goal
from .checks import ARM64_TLBI_PAGE, ARM64_TLBI_RANGE, tlbcount_sum
from .parse import KERNELS


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


MIGRATION_BENCHES = ("migrate", "migrate_back")


def counters_table(rows, arch):
    """Mean counter deltas per folio, to show which path ran."""
    body = []
    for r in rows:
        if r["arch"] != arch or r["bench"] in MIGRATION_BENCHES:
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


def migration_counters_table(rows, arch):
    """Mean counter deltas of the migration legs, splits per folio."""
    body = []
    for r in rows:
        if r["arch"] != arch or r["bench"] not in MIGRATION_BENCHES:
            continue
        folios = (r["mib"] << 10) // r["size_kb"] if r["mib"] else None
        for k in KERNELS:
            c = r[k + "_counters"]
            if not c or not r[k]:
                continue

            def per_folio(f):
                v = c.get(f)
                return "%.2f" % (v / folios) if v is not None and folios else "-"
            body.append((r["bench"], fmt_size(r["size_kb"]), k,
                         fmt_num(c.get("moved")), fmt_num(c.get("pgmigrate_success")),
                         fmt_num(c.get("pgmigrate_fail")), per_folio("split"),
                         per_folio("split_deferred"), fmt_num(c.get("thp_migration_split")),
                         per_folio("nr_tlb_local_flush_one"),
                         fmt_num(c.get("nr_tlb_remote_flush")),
                         "%d" % r[k + "_flagged"]))
    head = ("workload", "size", "kernel", "moved", "pgmigrate_success",
            "pgmigrate_fail", "split/folio", "split_deferred/folio",
            "thp_migration_split", "tlb_one/folio", "tlb_remote", "flagged")
    return head, body


def tlb_table(trows, arch):
    body = []
    for t in trows:
        if t["arch"] != arch:
            continue
        fl = t["flushes"]
        if fl is None:		# not traced (no tlb:tlb_flush event)
            continue
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


# The tlbcount columns per arch: (heading, counter names summed).  Kinds
# not listed (e.g. tlbi_vmalle1is) are summed under "other TLBI".
TLBCOUNT_COLUMNS = {
    "arm64": (("TLBI page", ARM64_TLBI_PAGE),
              ("TLBI range", ARM64_TLBI_RANGE),
              ("TLBI ASID/all", ("tlbi_aside1is", "tlbi_vmalle1is", "tlbi_aside1",
                                 "tlbi_vmalle1")),
              ("DSB ISHST", ("dsb_ishst",)),
              ("DSB ISH", ("dsb_ish",)),
              ("DSB other", ("dsb_sy", "dsb_st", "dsb_ld", "dsb_nsh", "dsb_nshst",
                             "dsb_nshld", "dsb_ishld", "dsb_osh", "dsb_oshst",
                             "dsb_oshld", "dsb_nxs")),
              ("ISB", ("isb",)),
              ("unfolds", ("fn___contpte_try_unfold",)),
              ("folds", ("fn_contpte_convert", "-fn___contpte_try_unfold"))),
    "x86_64": (("flushes run", ("fn_flush_tlb_func",)),
               ("IPI rounds", ("fn_native_flush_tlb_multi",)),
               ("INVLPG", ("invlpg",)),
               ("CR3 writes", ("mov_cr3",)),
               ("INVPCID", ("invpcid",)),
               ("INVLPGB+TLBSYNC", ("invlpgb", "tlbsync")),
               ("CR4 writes", ("mov_cr4",))),
    "riscv64": (("SFENCE.VMA addr+ASID", ("sfence_vma_addr_asid",)),
                ("addr", ("sfence_vma_addr",)),
                ("ASID", ("sfence_vma_asid",)),
                ("all", ("sfence_vma_all",)),
                ("SINVAL.VMA", ("sinval_vma_addr_asid", "sinval_vma_addr",
                                "sinval_vma_asid", "sinval_vma_all")),
                ("SFENCE.W.INVAL/INVAL.IR", ("sfence_w_inval", "sfence_inval_ir"))),
}


def tlbcount_table(trows, arch):
    """TLB maintenance instructions per folio (the tlbcount plugin) of one
    arch: one row per (workload, size, kernel) that has counts."""
    cols = TLBCOUNT_COLUMNS.get(arch, ())
    known = {n.lstrip("-") for _, names in cols for n in names}
    body = []
    for t in trows:
        ins = t.get("insns")
        if t["arch"] != arch or not ins:
            continue
        cells = [fmt_per(tlbcount_sum(ins, names)) for _, names in cols]
        if arch == "arm64":
            cells.insert(3, fmt_per(sum(v for k, v in ins.items()
                                        if k.startswith("tlbi_") and k not in known)))
        body.append([t["bench"], fmt_size(t["size_kb"]), t["kernel"],
                     "%d" % t["counted"], "%d" % t["folios"]] + cells)
    head = ["workload", "size", "kernel", "runs", "folios"] + [c for c, _ in cols]
    if arch == "arm64":
        head.insert(8, "other TLBI")
    return head, body


def fmt_per(v):
    """A per-folio count: 0, an integer, or two decimals."""
    if abs(v) < 0.005:
        return "0"
    return "%d" % round(v) if abs(v - round(v)) < 0.005 else "%.2f" % v


def fmt_num(v):
    if v is None:
        return "-"
    return "%d" % v if float(v).is_integer() else "%.1f" % v


def against(row, goal, what):
    """How a row's speedup and CI stand against @goal ("the seed's 2.15x")."""
    if row["ci_low"] >= goal:
        return "reaches %s (whole CI above it)" % what
    if row["speedup"] >= goal:
        return "reaches %s (CI reaches below it)" % what
    return "**below %s**" % what


def goal_targets(rows, icount):
    """The migration goals (instruction counts, against the first leg) and
    the writeback goals."""
    out = []
    for r in rows:
        goal = target_goal(r["bench"], r["size_kb"], r["arch"])
        if goal is None or r["speedup"] is None:
            continue
        how = against(r, goal, "the goal of %.3gx" % goal)
        if not icount:
            how += "; the goal is in instruction counts (ICOUNT=0), this run is timed"
        what = ("move_pages() of %d MiB to the other node" % r["mib"]
                if r["bench"] == "migrate" else
                "writeback start of %d MiB of dirty shared file pages" % r["mib"])
        out.append("- %s %s %s: speedup %s: %s." % (
            r["arch"], fmt_size(r["size_kb"]), what, fmt_ratio(r), how))
    return out


def targets(rows, icount=False):
    """The acceptance lines: headline against the seed, 4K no-regression,
    and the migration goals."""
    out = []
    for arch in sorted({r["arch"] for r in rows}):
        for r in rows:
            if r["arch"] != arch or r["bench"] != "pageout" or r["speedup"] is None:
                continue
            if r["size_kb"] == 64 and r["seed"]:
                goal = r["seed"]["ratio"]
                how = against(r, goal, "the seed's %.2fx" % goal)
                out.append("- %s 64K MADV_PAGEOUT: speedup %s: %s." % (arch, fmt_ratio(r), how))
            elif r["size_kb"] == 4:
                if r["speedup"] >= REGRESSION_LIMIT:
                    how = "no regression (limit %.2f)" % REGRESSION_LIMIT
                elif r["ci_high"] >= 1:
                    how = "below %.2f but the CI includes 1" % REGRESSION_LIMIT
                else:
                    how = "**REGRESSION** (below %.2f, whole CI below 1)" % REGRESSION_LIMIT
                out.append("- %s 4K MADV_PAGEOUT: speedup %s: %s." % (arch, fmt_ratio(r), how))
    if not out:
        out.append("- no MADV_PAGEOUT pair measured")
    return out + goal_targets(rows, icount)
