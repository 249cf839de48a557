#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kunit_check.py (the judge of make kunit's results)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kunit_check  # noqa: E402


def group(name, cases=(), subs=(), **misc):
    return {"name": name, "test_cases": [{"name": n, "status": s} for n, s in cases],
            "sub_groups": list(subs), "misc": misc}


def run(arch, *suite_children, **suite_misc):
    cases = [c for c in suite_children if isinstance(c, tuple)]
    subs = [c for c in suite_children if isinstance(c, dict)]
    suite = group("pgtable_batch", cases, subs, **suite_misc)
    return kunit_check.check(arch, group("KUnit Test Group", subs=[suite]))


FOLD_ON = ("pb_contpte_fold", "PASS")
FOLD_OFF = ("pb_contpte_fold", "SKIP")


class KunitCheck(unittest.TestCase):
    def test_pass(self):
        problems, counts = run("x86_64", ("pb_set_ptes", "PASS"), ("pb_x", "SKIP"))
        self.assertEqual(problems, [])
        self.assertEqual(counts, {"PASS": 1, "SKIP": 1})

    def test_failed_and_crashed_cases(self):
        problems, _ = run("um", ("pb_set_ptes", "FAIL"), ("pb_y", "ERROR"))
        self.assertEqual(len([p for p in problems if "FAIL" in p or "ERROR" in p]), 2)

    def test_missing_case_is_an_error_of_its_group(self):
        problems, _ = run("riscv64", ("pb_set_ptes", "PASS"), errors=1)
        self.assertTrue(any("errors 1" in p for p in problems), problems)

    def test_no_suite(self):
        problems, _ = kunit_check.check("um", group("KUnit Test Group"))
        self.assertTrue(any("no pgtable_batch case" in p for p in problems))

    def test_arm64_needs_contpte_on(self):
        self.assertEqual(run("arm64", FOLD_ON, ("pb_set_ptes", "PASS"))[0], [])
        self.assertTrue(any("contpte" in p for p in run("arm64", FOLD_OFF)[0]))
        self.assertTrue(any("contpte" in p for p in run("arm64", ("pb_set_ptes", "PASS"))[0]))
        # Elsewhere it skips.
        self.assertEqual(run("x86_64", FOLD_OFF, ("pb_set_ptes", "PASS"))[0], [])


if __name__ == "__main__":
    unittest.main()
