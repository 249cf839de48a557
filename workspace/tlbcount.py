#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The tlbcount plugin's counts in a console log (qemu-run.sh PB_TLBCOUNT=1).

    tlbcount.py check LOG

Fails (exit 1, the reasons on stdout) when the plugin counted a different
number of regions than the guest marked, when a marked region has no
counts, or when a region with a known count (pb_bench unmap1's "expect":
N single-page munmap()s, each one invalidation of one page) differs from
it.  A key of "expect" is a sum of counts, "a+b-c"; with the prefix
"self:" of the marking vCPU's counts alone.  On success it prints the
known-count results, one line each.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.checks import tlbcount_sum  # noqa: E402
from benchlib.parse import parse_log_text  # noqa: E402


def expect_failures(t):
    """Reasons why marked PB-TLB record @t misses its "expect" counts."""
    out = []
    for key, want in t.get("expect", {}).items():
        insns = t.get("insns", {})
        expr = key = key.replace(" ", "")
        if key.startswith("self:"):
            insns, expr = t.get("insns_self", {}), key[5:]
        got = tlbcount_sum(insns, [k.lstrip("+") for k in re.findall(r"[+-]?[^+-]+", expr)])
        if got != want:
            out.append("%s %dkB: %s = %d, want %d (counts: %s)"
                       % (t.get("bench"), t.get("size_kb", 0),
                          key, got, want, insns))
    return out


def check(text):
    """(failures, notes) of one console log's text."""
    _, _, _, _, bad, tlb = parse_log_text(text)
    fails = [why for lineno, why in bad if lineno == 0]
    notes = []
    has_counts = "PB-TLBCOUNT" in text
    for t in tlb:
        if not t.get("marked"):
            continue
        if "insns" not in t:
            if has_counts:
                fails.append("%s %skB: no counts" % (t.get("bench"), t.get("size_kb")))
            else:
                fails.append("the plugin counted no region")
                break
            continue
        if "expect_skipped" in t:
            notes.append("%s: no known count (%s on)" % (t.get("bench"), t["expect_skipped"]))
        f = expect_failures(t)
        fails.extend(f)
        if "expect" in t and not f:
            notes.append("%s: %s exact" % (t.get("bench"), ", ".join(
                "%s = %d" % kv for kv in t["expect"].items())))
    return fails, notes


def main(argv):
    if len(argv) != 3 or argv[1] != "check":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[2], errors="replace") as f:
        fails, notes = check(f.read())
    for n in notes:
        print("tlbcount known count: " + n, file=sys.stderr)
    if fails:
        print("; ".join(fails))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
