#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kunit_check.py ARCH JSON: judge kunit.py's JSON results of the
pgtable_batch suite (workspace/kunit.sh).

Fails unless the suite is there with at least one case, no case failed
or crashed, and on arm64 pb_contpte_fold passed (the contpte overrides
were built and tested: without them it skips).  Prints one line of totals.
"""
import json
import sys


def walk(node, path, out):
    """Every test case below node as (path, name, status)."""
    for case in node.get("test_cases", []):
        out.append((path, case.get("name", ""), case.get("status", "")))
    for sub in node.get("sub_groups", []):
        walk(sub, path + [sub.get("name", "")], out)
    return out


def groups(node, path, out):
    """Every group as (path, its counts): kunit.py counts a missing case
    (fewer results than the plan) as an error of its group."""
    path = path + [node.get("name", "")]
    out.append((path, node.get("misc", {})))
    for sub in node.get("sub_groups", []):
        groups(sub, path, out)
    return out


def check(arch, data):
    """The problems found, and the counts by status."""
    problems = []
    cases = walk(data, [data.get("name", "")], [])
    ours = [c for c in cases if "pgtable_batch" in c[0]]
    counts = {}
    for _, _, status in ours:
        counts[status] = counts.get(status, 0) + 1
    if not ours:
        problems.append("no pgtable_batch case in the results")
    for path, misc in groups(data, [], []):
        # A failed case is reported above, by name.
        for key in ("errors", "crashed"):
            if misc.get(key):
                problems.append("%s: %s %d" % ("/".join(path[1:]) or "the run", key,
                                               misc[key]))
    for path, name, status in ours:
        if status not in ("PASS", "SKIP"):
            problems.append("%s: %s" % ("/".join(path[1:] + [name]), status))
    if arch == "arm64":
        fold = [s for _, n, s in ours if n == "pb_contpte_fold"]
        if fold != ["PASS"]:
            problems.append("arm64: the contpte overrides were not tested "
                            "(pb_contpte_fold: %s)" % (fold[0] if fold else "missing"))
    return problems, counts


def main():
    arch, path = sys.argv[1], sys.argv[2]
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print("kunit: %s: no results (%s)" % (arch, e))
        return 1
    problems, counts = check(arch, data)
    print("kunit: %s: pgtable_batch %s" % (
        arch, ", ".join("%s %d" % kv for kv in sorted(counts.items())) or "nothing"))
    for p in problems:
        print("kunit: %s: FAIL: %s" % (arch, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
