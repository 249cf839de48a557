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

--split TREE also splits each kernel's instructions per folio into the
functions the series touches and the others.  "Touched" are the functions
whose code the series' diff (git -C TREE diff pristine series -- mm
include arch: build/tree) changes or adds: those named in its hunk
headers and those defined on its added lines, compared without a GCC
clone suffix (.constprop.0, .isra.0, .part.0).
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.parse import parse_log_text  # noqa: E402


def summed(pairs):
    """A JSON object whose repeated keys add up: static functions of the
    same name (two copies of a .constprop clone in different files) are
    one key each in a PB-PROFILE line."""
    out = {}
    for k, v in pairs:
        out[k] = out.get(k, 0) + v if isinstance(v, int) and k in out else v
    return out


def regions(log):
    """{(bench, size_kb): (folios, {function: instructions})} of one boot."""
    with open(log, errors="replace") as f:
        tlb = [t for t in parse_log_text(f.read())[5] if t.get("marked")]
    profs = []
    with open(log + ".prof") as f:
        for line in f:
            if line.startswith("PB-PROFILE "):
                p = json.loads(line.split(" ", 1)[1], object_pairs_hook=summed)
                if sum(p["funcs"].values()) != p["total"]:
                    sys.exit("%s: region %s: the functions sum to %d, not %d"
                             % (log, p["region"], sum(p["funcs"].values()), p["total"]))
                profs.append(p)
    if len(profs) != len(tlb):
        sys.exit("%s: %d profiled regions, %d marked PB-TLB records"
                 % (log, len(profs), len(tlb)))
    out = {}
    for t, p in zip(tlb, profs):
        key = (t["bench"], t["size_kb"])
        if key in out:
            print("tlbprof: %s: %s %dK counted again (region %d): the last one is used"
                  % (log, key[0], key[1], p["region"]), file=sys.stderr)
        out[key] = (t["folios"], p["funcs"])
    return out


def touched_functions(tree):
    """The function names the series' diff changes or adds (see --split)."""
    diff = subprocess.run(["git", "-C", tree, "diff", "pristine", "series", "--",
                           "mm", "include", "arch"], capture_output=True, text=True,
                          check=True).stdout
    names = set()
    for line in diff.splitlines():
        if line.startswith("@@"):
            m = re.search(r"@@.*@@.*?\b(\w+)\(", line)
        elif line.startswith("+") and re.match(r"\+[a-z]", line):
            m = re.search(r"\b(\w+)\($", line) or re.search(r"^\+[a-z][\w\s*]*\b(\w+)\(", line)
        else:
            continue
        if m:
            names.add(m.group(1))
    return names


def split(van, pat, touched, top=12):
    """Text lines: each kernel's instructions per folio in touched and other
    functions, and the patched kernel's largest functions (* touched)."""
    out = []
    for name, (folios, funcs) in (("vanilla", van), ("patched", pat)):
        t = sum(c for f, c in funcs.items() if f.split(".")[0] in touched) / folios
        total = sum(funcs.values()) / folios
        out.append("%s: %.0f per folio, %.0f in touched functions, %.0f in others"
                   % (name, total, t, total - t))
    folios, funcs = pat
    big = sorted(funcs.items(), key=lambda kv: -kv[1])[:top]
    out.append("patched, largest: " + ", ".join(
        "%s%s %.0f" % (f, "*" if f.split(".")[0] in touched else "", c / folios)
        for f, c in big))
    return out


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
    ap.add_argument("--split", metavar="TREE",
                    help="split into the functions the series touches and the others")
    ap.add_argument("vanilla")
    ap.add_argument("patched")
    args = ap.parse_args(argv)
    rv, rp = regions(args.vanilla), regions(args.patched)
    touched = touched_functions(args.split) if args.split else None
    if touched is not None:
        print("%d functions touched by the series" % len(touched))
    for key in sorted(set(rv) & set(rp)):
        if args.bench and key[0] != args.bench or args.size and key[1] != args.size:
            continue
        print("== %s %dK: instructions per folio (%d folios) ==" % (key[0], key[1], rv[key][0]))
        print("\n".join(compare(rv[key], rp[key], args.top)))
        if touched is not None:
            print("\n".join(split(rv[key], rp[key], touched)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
