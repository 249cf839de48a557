#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that KSRC's mm code still has the orders tests/tlb.c replays.

The TLB model compiles the PTE helpers from the tree, but replays the
callers' sequences (mm/rmap.c, mm/migrate.c) from copies written in
tests/tlb.c.  Those replays pass only because of flushes that the kernel
code must keep: this script checks, on the tree, that each still comes
before the write it protects.  Comments are ignored.

    check_sequences.py KSRC           check the tree
    check_sequences.py --self-test KSRC   check that each rule fails on
                                          the tree with its flush removed
                                          (or a set_ptes() added)
"""
import re
import sys

# (file, function, call that must come first, call it must come before,
#  what the replay assumes)
ORDERS = [
    ("mm/rmap.c", "ttu_restore_ptes", "flush_tlb_range(", "set_ptes(",
     "a batch is restored only after a completed flush of its range "
     "(tests/tlb.c: partial restore fixed, restore all fixed)"),
    ("mm/rmap.c", "mkclean_pte_run", "get_and_clear_ptes(",
     "flush_tlb_range(",
     "a run is cleared before its flush, so that a write that must set a "
     "dirty bit faults (tests/tlb.c: mkclean)"),
    ("mm/rmap.c", "mkclean_pte_run", "flush_tlb_range(", "set_ptes(",
     "a cleaned run is written back only after a completed flush of its "
     "range, and no translation of it stays writable (tests/tlb.c: "
     "mkclean, mkclean without flush)"),
    ("mm/migrate.c", "migrate_folio_undo_src", "try_to_unmap_flush(",
     "remove_migration_ptes(",
     "a failed migration is undone only after the deferred flush "
     "(tests/tlb.c: migrate undo fixed)"),
    ("mm/migrate.c", "migrate_pages_batch", "try_to_unmap_flush(",
     "migrate_folios_move(",
     "the new folios are mapped only after the deferred flush "
     "(tests/tlb.c: migrate, two folios)"),
]
# (file, functions that may, call): the only writers of runs of present
# PTEs in the file, so that every write back of a cleared batch takes
# its flush.
ONLY = [
    ("mm/rmap.c", ("ttu_restore_ptes", "mkclean_pte_run"), "set_ptes("),
]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def functions(text):
    """Map the name of each function defined in text to its body."""
    out = {}
    for m in re.finditer(r"^[a-z][^;{}]*?\b(\w+)\([^;{}]*\)\s*\{", text,
                         re.M):
        end = re.compile(r"^\}", re.M).search(text, m.end())
        if end:
            out[m.group(1)] = text[m.end():end.start()]
    return out


def check(read):
    """read(path) -> text.  Returns the list of broken rules."""
    broken = []
    parsed = {}

    def bodies(path):
        if path not in parsed:
            parsed[path] = functions(strip_comments(read(path)))
        return parsed[path]

    for path, fn, first, then, why in ORDERS:
        b = bodies(path).get(fn)
        if b is None:
            broken.append("%s: no function %s()" % (path, fn))
            continue
        i, j = b.find(first), b.find(then)
        if j < 0:
            broken.append("%s: %s() has no %s" % (path, fn, then))
        elif i < 0 or i > j:
            broken.append("%s: %s() calls %s without %s before it: %s"
                          % (path, fn, then, first, why))
    for path, fns, call in ONLY:
        for other, b in sorted(bodies(path).items()):
            if other not in fns and call in b:
                broken.append("%s: %s() calls %s; only %s may, after "
                              "their flush" % (path, other, call,
                                               " and ".join(
                                                   "%s()" % f
                                                   for f in fns)))
    return broken


def edited(ksrc, path, fn, edit):
    """A reader of ksrc with the body of fn in path passed through edit."""
    def read(p):
        text = open("%s/%s" % (ksrc, p)).read()
        if p == path:
            body = functions(text)[fn]
            text = text.replace(body, edit(body), 1)
        return text
    return read


def self_test(ksrc):
    """Each rule must fail on the tree with its flush taken out."""
    cases = [("%s() without %s" % (fn, first),
              "%s() calls %s without %s" % (fn, then, first),
              edited(ksrc, path, fn, lambda b, first=first: re.sub(
                  r"[^\n]*%s[^;]*;" % re.escape(first), "", b)))
             for path, fn, first, then, _ in ORDERS]
    # A batch restored in try_to_unmap_one() itself, as 7.3 restores a
    # lazyfree batch.
    cases += [("%s in try_to_unmap_one()" % call, "only %s()" % fns[0],
               edited(ksrc, path, "try_to_unmap_one",
                      lambda b, call=call: "\n\t%s0);" % call + b))
              for path, fns, call in ONLY]
    failures = 0
    for name, mark, read in cases:
        ok = any(mark in x for x in check(read))
        print("%s: %s: %s" % ("ok" if ok else "FAIL", name,
                              "caught" if ok else "not caught"))
        failures += not ok
    return failures


def main():
    args = sys.argv[1:]
    if args[:1] == ["--self-test"]:
        sys.exit(1 if self_test(args[1]) else 0)
    ksrc = args[0]
    broken = check(lambda p: open("%s/%s" % (ksrc, p)).read())
    for b in broken:
        print("check_sequences: %s" % b)
    if broken:
        sys.exit(1)
    print("check_sequences: the orders that tests/tlb.c replays hold in "
          "%s (%d rules)" % (ksrc, len(ORDERS) + len(ONLY)))


main()
