#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function of the counted regions, vanilla against
patched (qemu-run.sh PB_TLBPROF=1 boots, best under PB_ICOUNT: one vCPU,
exact counts).

    tlbprof.py [--top N] [--bench NAME] [--size KB] VANILLA.log PATCHED.log

Each LOG needs its LOG.prof beside it.  The n-th PB-PROFILE line of LOG.prof
is the n-th marked PB-TLB record of LOG (the region the guest marked).  For
every (workload, size) of both boots it prints the instructions per folio
of each function whose count differs, the largest differences first, and
the totals, and the functions only one kernel has (inlined or outlined
by the series) among them.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.parse import parse_log_text  # noqa: E402


def regions(log):
    """{(bench, size_kb): (folios, {function: instructions})} of one boot."""
    with open(log, errors="replace") as f:
        tlb = [t for t in parse_log_text(f.read())[5] if t.get("marked")]
    profs = []
    with open(log + ".prof") as f:
        for line in f:
            if line.startswith("PB-PROFILE "):
                profs.append(json.loads(line.split(" ", 1)[1]))
    if len(profs) != len(tlb):
        sys.exit("%s: %d profiled regions, %d marked PB-TLB records"
                 % (log, len(profs), len(tlb)))
    return {(t["bench"], t["size_kb"]): (t["folios"], p["funcs"])
            for t, p in zip(tlb, profs)}


def compare(van, pat, top):
    """Text lines comparing one region's profiles (per folio)."""
    (fv, a), (fp, b) = van, pat
    rows = []
    for fn in set(a) | set(b):
        va, pa = a.get(fn, 0) / fv, b.get(fn, 0) / fp
        if abs(pa - va) >= 0.05:
            rows.append((pa - va, fn, va, pa))
    rows.sort(key=lambda r: -abs(r[0]))
    tv, tp = sum(a.values()) / fv, sum(b.values()) / fp
    out = ["%-44s %12s %12s %10s" % ("function", "vanilla", "patched", "diff")]
    for d, fn, va, pa in rows[:top]:
        note = " (patched only)" if fn not in a else " (vanilla only)" if fn not in b else ""
        out.append("%-44s %12.1f %12.1f %+10.1f%s" % (fn, va, pa, d, note))
    rest = sum(r[0] for r in rows[top:])
    if rows[top:]:
        out.append("%-44s %12s %12s %+10.1f" % ("(%d more)" % len(rows[top:]), "", "", rest))
    out.append("%-44s %12.1f %12.1f %+10.1f  ratio %.4f"
               % ("total per folio", tv, tp, tp - tv, tv / tp if tp else 0))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--bench")
    ap.add_argument("--size", type=int)
    ap.add_argument("vanilla")
    ap.add_argument("patched")
    args = ap.parse_args(argv)
    rv, rp = regions(args.vanilla), regions(args.patched)
    for key in sorted(set(rv) & set(rp)):
        if args.bench and key[0] != args.bench or args.size and key[1] != args.size:
            continue
        print("== %s %dK: instructions per folio (%d folios) ==" % (key[0], key[1], rv[key][0]))
        print("\n".join(compare(rv[key], rp[key], args.top)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
