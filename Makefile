# SPDX-License-Identifier: GPL-2.0
#
# pgtable_batch workspace.  `make bench` and `make check` are the two
# entry points; both install what they need first (so does make
# check-full, the full tier).  See README.md.

SHELL := /bin/bash
B := build
ARCHES ?= x86_64 arm64
# Two tiers of checks.  make check, the gate (CI's, and what every
# submission passes), boots x86_64 and arm64 once each; make check-full
# boots riscv64 as well (the generic loops on a third encoding) and the
# mm selftests.  ARCHES=... on the command line sets all the lists below.
# Their sparse and W=1 checks run on the two arches the series has code
# for; make lint ARCHES=riscv64 checks riscv64 too (about 3 min more,
# cold: the vanilla objects of another configured tree).  So does their
# quick benchmark (make bench ARCHES=riscv64 measures riscv64).
ifeq ($(origin ARCHES),command line)
CHECK_ARCHES := $(ARCHES)
FULL_ARCHES := $(ARCHES)
CHECK_LINT_ARCHES := $(ARCHES)
CHECK_BENCH_ARCHES := $(ARCHES)
else
CHECK_ARCHES ?= x86_64 arm64
FULL_ARCHES ?= x86_64 arm64 riscv64
CHECK_LINT_ARCHES ?= x86_64 arm64
CHECK_BENCH_ARCHES ?= x86_64 arm64
endif
VARIANT ?= test
TREE ?= $(B)/tree
# Empty: each boot's limit is its plan's in workspace/limits.sh.
TIMEOUT ?=
# What the checks run is set on make's command line only: a variable of
# the same name in the shell's environment (a CI runner's TIMEOUT, say)
# does not reach the scripts that read it.
CMDLINE_ONLY := TIMEOUT PBARGS PLANS SELFTEST_ARCHES MIGRATE_ARCHES KUNIT_SUITES \
	GATE_SELFTESTS KERNEL_READY TIER
$(foreach v,$(CMDLINE_ONLY),$(if $(filter environment%,$(origin $(v))),\
	$(eval unexport $(v))$(eval $(v) :=)))
QUICK ?=
FUNC ?= try_to_unmap_one
W := workspace
# A long step: its output, elapsed time and an estimate of the time left
# (workspace/progress.py; build/progress/ keeps the times of the last run).
STEP := $(W)/progress.py run

define HELP_VARS
variables (default):
  ARCHES="x86_64 arm64"     the arches to build, boot and benchmark
  CHECK_ARCHES="x86_64 arm64"          the arches of make check (the gate)
  FULL_ARCHES="x86_64 arm64 riscv64"   the arches of make check-full
  CHECK_LINT_ARCHES="x86_64 arm64"     the arches of both tiers' sparse and W=1
  CHECK_BENCH_ARCHES="x86_64 arm64"    the arches of both tiers' quick benchmark
  VARIANT=test              test (debug options, KUnit) or bench (none)
  TREE=build/tree           the patched tree
  TIMEOUT=N                 seconds per guest boot (default: workspace/limits.sh)
  PBARGS=key=val,...        passed to the guest plans
  SELFTEST_ARCHES="x86_64 arm64"  test-guest: the arches that run the mm selftests
  MIGRATE_ARCHES="x86_64 arm64"   test-guest: the arches whose check plan runs pgtable_batch_migrate
  QUICK=1                   bench: the short plan (a smoke test)
  KERNELS=patched           bench: boot the patched kernels only (counter checks, no ratios)
  BOOTS=N                   bench: boots per kernel (4, QUICK=1: 2)
  AA=1                      bench: vanilla against vanilla (the method's noise)
  ICOUNT=N                  bench: QEMU -icount shift=N (instruction counts)
  BENCH_CONFIG=distro       bench: distro (Debian's options, -O2) or tiny (tinyconfig, -Os)
  GOALS=1                   bench: fail below the icount no-regression goals
  FUNC=try_to_unmap_one     profile: the kernel function whose calls are counted
  BISECT_FROM=N BISECT_TO=M bisect-check: a range of the series' commits
  KUNIT_ARCHES="um x86_64 arm64 riscv64"  kunit: the arches kunit.py builds and runs
  JOBS=N                    parallel jobs of a kernel build (nproc)
  FUZZ_MIN=20               fuzz: minutes per arch (two boots: mTHP all, mixed)
  FUZZ_ARCHES="x86_64 arm64"  fuzz: the arches (Debian has no riscv64 trinity/stress-ng in bookworm)
  FUZZ_SEED=1               fuzz: the first trinity seed (the mixed boot's: +1000)
endef
export HELP_VARS

.PHONY: all deps base tree series refresh kernels vanilla patched check-full kunit \
	guest-bin initramfs test-harness test-cocci test-bench-unit \
	test-guest lint bench check bisect-check clean help selftests-baseline \
	verify-unmap test-lpa2 profile fuzz

all: help

help: ## this list
	@echo "usage: make [target] [variable=value ...]"
	@echo "targets (the pipeline: deps, base, tree, kernels, initramfs, tests, bench):"
	@awk -F ':.*## ' '/^[a-z0-9-]+:.*## / { printf "  %-19s %s\n", $$1, $$2 }' \
		$(firstword $(MAKEFILE_LIST))
	@echo "$$HELP_VARS"

deps: ## install the host packages (quick when present)
	@$(STEP) --key deps -- env BUILD=$(B) ARCHES="$(ARCHES)" $(W)/deps.sh

base: deps ## Debian's linux-source-7.3 and sparse (build/base, build/sparse)
	@$(STEP) --key base -- env BUILD=$(B) ARCHES="$(ARCHES)" $(W)/base.sh

tree: base ## pristine 7.3 + patches/series, one commit per step (build/tree)
	@$(STEP) --key tree -- $(W)/tree.sh $(TREE)

refresh: ## write edited tree commits back to patches/
	@$(W)/tree.sh --refresh $(TREE)

# SIGNOFF="Name <address>" (or git config user.name/user.email): the
# identity the series is posted under (workspace/series.sh).
# (SIGNOFF reaches the script through the environment, unquoted by no
# shell.)
export SIGNOFF
series: tree ## the series to post, under SIGNOFF's identity, checkpatch'ed (build/series/)
	@$(W)/series.sh $(TREE) $(B)/series

# Kernels: build/o/<arch>-<vanilla|patched>-<variant>/kernel.img
# --lock takes build/cpu.lock (flock(2), as flock(1) does) and says so
# while another build holds it.
vanilla: base ## vanilla 7.3 guest kernels (VARIANT=test|bench)
	@for a in $(ARCHES); do \
		$(STEP) --key kernel-$$a-vanilla-$(VARIANT) --label "kernel $$a vanilla $(VARIANT)" \
			--lock $(B)/cpu.lock --objects $(B)/o/$$a-vanilla-$(VARIANT) -- \
			$(W)/kbuild.sh $$a $(VARIANT) $(B)/base $(B)/o/$$a-vanilla-$(VARIANT) || exit 1; \
	done

patched: tree ## patched guest kernels (VARIANT=test|bench)
	@for a in $(ARCHES); do \
		$(STEP) --key kernel-$$a-patched-$(VARIANT) --label "kernel $$a patched $(VARIANT)" \
			--lock $(B)/cpu.lock --objects $(B)/o/$$a-patched-$(VARIANT) -- \
			$(W)/kbuild.sh $$a $(VARIANT) $(TREE) $(B)/o/$$a-patched-$(VARIANT) || exit 1; \
	done

kernels: vanilla patched ## both, for every arch of ARCHES

# Static guest programs and the mm selftests, per arch.
guest-bin: tree ## the static guest programs and mm selftests per arch
	@for a in $(ARCHES); do \
		$(STEP) --key guest-bin-$$a --label "guest programs $$a" -- \
			$(W)/guest-bin.sh $$a $(TREE) || exit 1; \
	done

initramfs: guest-bin ## the guests' initramfs per arch
	@for a in $(ARCHES); do \
		$(W)/initramfs.sh $$a $(B)/initramfs-$$a.cpio.gz $(B)/guest-bin/$$a $(B)/selftests/$$a || exit 1; \
	done

# kunit.py as a kernel developer runs it (mm/tests/.kunitconfig), per arch.
KUNIT_ARCHES ?= um x86_64 arm64 riscv64
kunit: tree ## the KUnit suite run by the tree's kunit.py (KUNIT_ARCHES: um x86_64 arm64 riscv64)
	@$(MAKE) -s deps ARCHES="$(sort $(ARCHES) $(filter riscv64,$(KUNIT_ARCHES)))"
	@$(STEP) --key kunit --label "kunit.py $(KUNIT_ARCHES)" -- $(W)/kunit.sh $(TREE) $(KUNIT_ARCHES)

test-harness: tree ## userspace conformance harness of the batch helpers (ASan/UBSan)
	@$(STEP) --key test-harness -- $(MAKE) -s -C tools/testing/pgtable_batch KSRC=$(CURDIR)/$(TREE)

test-cocci: deps tree ## the Coccinelle scripts against their expected output
	@$(STEP) --key test-cocci -- env TREE=$(TREE) tools/testing/coccinelle/run.sh

# The Python scripts name Debian's python3 in their first line (deps.sh
# installs python3-matplotlib for it), whatever python3 comes first in PATH.
test-bench-unit: ## unit tests of bench.py (workspace/benchlib/), progress.py, summary.py, check-steps.sh, selftests-compare.sh, kunit_check.py, fuzz.sh
	@$(STEP) --key test-bench-unit -- sh -c \
		'$(W)/test_bench.py && $(W)/test_progress.py && $(W)/test_check_steps.sh && \
		$(W)/test_selftests_compare.sh && $(W)/test_kunit_check.py && $(W)/test_fuzz.sh'

# Boot the patched kernels and run the in-guest suites (KUnit runs at boot).
test-guest: patched initramfs ## boot the patched kernels: KUnit, integrity, stress, mm selftests
	@$(STEP) --key test-guest -- $(W)/test-guest.sh "$(ARCHES)" $(VARIANT) $(TIMEOUT)

lint: tree ## checkpatch, kernel-doc, htmldocs, sparse and W=1 against vanilla
	@$(STEP) --key lint -- env ARCHES="$(or $(LINT_ARCHES),$(ARCHES))" $(W)/lint.sh $(TREE)

bisect-check: tree ## build every commit of the series on both arches
	@$(W)/bisect-check.sh $(TREE) "$(ARCHES)"

# arm64 with LPA2 (52-bit PA, 4K pages): the patched test kernel with
# configs/arm64-lpa2.config, KUnit at boot (not in check: one more kernel).
test-lpa2: tree ## arm64 LPA2 guest (52-bit PA, 4K pages): the KUnit suite
	@$(MAKE) -s initramfs ARCHES=arm64
	@$(W)/test-lpa2.sh $(TREE) $(TIMEOUT)

# try_to_unmap_one()'s batched swap PTEs against the per-PTE result, on an
# instrumented kernel (workspace/mm-verify/).
verify-unmap: initramfs ## batched swap PTEs against the per-PTE result (instrumented kernel)
	@$(W)/verify-unmap.sh $(TREE) "$(ARCHES)"

# Adversaries nobody here wrote: Debian's trinity and stress-ng against
# the patched test kernels, a report that vanilla does not also give
# fails (workspace/fuzz.sh; logs and inherited reports in build/fuzz/).
FUZZ_MIN ?= 20
FUZZ_ARCHES ?= x86_64 arm64
FUZZ_SEED ?= 1
fuzz: deps tree ## trinity and stress-ng against the patched test kernels (FUZZ_MIN per arch)
	@$(MAKE) -s patched VARIANT=test ARCHES="$(FUZZ_ARCHES)"
	@for a in $(FUZZ_ARCHES); do \
		$(W)/fuzz-bin.sh $$a $(B)/fuzz-bin/$$a.root && \
		$(W)/initramfs.sh $$a $(B)/initramfs-fuzz-$$a.cpio.gz $(B)/fuzz-bin/$$a.root || exit 1; \
	done
	@$(W)/fuzz.sh "$(FUZZ_ARCHES)" $(FUZZ_MIN) $(FUZZ_SEED)

# Where an ICOUNT ratio comes from: single-step calls of the kernel function
# FUNC under gdb, vanilla and patched (bench kernels unless VARIANT= is
# given), and count instructions per function.  PBARGS picks the workload
# (bench=lazyfree,size=64 by default; workspace/guest/plans/profile).
profile: deps ## instructions per function of FUNC's calls, vanilla vs patched (gdb)
	@v=$${VARIANT:-bench}; $(MAKE) -s kernels initramfs VARIANT=$$v && \
		$(W)/icount-profile.sh "$(ARCHES)" $$v "$(FUNC)" "$(PBARGS)"

# The main job: vanilla and patched side by side, both arches.
bench: deps ## vanilla against patched, the seed benchmarks (QUICK=1: a smoke run)
	@$(W)/bench.sh $(if $(QUICK),--quick)

.PHONY: check-steps summary summary-full

# make check and make check-full run their steps in a sub-make, then
# print the summary of what they measured (workspace/summary.py), whether
# they passed or not.  README.md, "What make check runs", says what each
# tier runs and what covers the full tier's steps in the gate.
# $(call check-tier,TIER,ARCHES,TARGET): one tier's steps, then its summary.
define check-tier
	@mkdir -p $(B)/progress && date +%s >$(B)/progress/check.start
	@rc=0; $(MAKE) -s check-steps TIER=$(1) ARCHES="$(2)" \
		LINT_ARCHES="$(CHECK_LINT_ARCHES)" BENCH_ARCHES="$(CHECK_BENCH_ARCHES)" || rc=$$?; \
	$(W)/summary.py --tier $(1) --arches "$(2)" --variant $(VARIANT); \
	if [ $$rc = 0 ]; then echo "$(3): all passed"; else echo "$(3): FAILED"; fi; \
	exit $$rc
endef

check: ## the gate (CI): host checks, one debug boot per arch, quick bench
	$(call check-tier,gate,$(CHECK_ARCHES),check)

check-full: ## the full tier: the gate's steps whole, riscv64, mm selftests vs vanilla
	$(call check-tier,full,$(FULL_ARCHES),check-full)

# The steps: lint, test-harness, test-cocci, test-bench-unit, test-guest,
# and the benchmark's smoke run, which boots the patched test kernels
# only: the bench plan runs and its counters prove each run's path
# (bench.py --check-counters); ratios against vanilla are make bench's.
# workspace/check-steps.sh orders them: the host checks and the last
# arch's kernel build run beside the check boots (SCHED_IDLE), the
# selftests boots (check-full) after them, then the smoke run.
check-steps:
	@MAKE="$(MAKE)" TIER=$(TIER) ARCHES="$(ARCHES)" LINT_ARCHES="$(LINT_ARCHES)" \
		BENCH_ARCHES="$(BENCH_ARCHES)" VARIANT=$(VARIANT) TIMEOUT=$(TIMEOUT) \
		$(W)/check-steps.sh

summary: ## the summary of the last make check again
	@$(W)/summary.py --tier gate --arches "$(CHECK_ARCHES)" --variant $(VARIANT)

summary-full: ## the summary of the last make check-full again
	@$(W)/summary.py --tier full --arches "$(FULL_ARCHES)" --variant $(VARIANT)

# (build/ccache and build/dl: where earlier versions kept the caches.)
clean: ## remove the kernels, tree, logs and bench results (not the caches)
	rm -rf $(B)/o $(B)/tree $(B)/series $(B)/series.checkpatch.txt $(B)/guest-bin \
		$(B)/selftests $(B)/logs $(B)/bench $(B)/ccache $(B)/dl

# Record the vanilla mm selftest results that test-guest compares against.
selftests-baseline: vanilla initramfs ## record the vanilla mm selftest results
	@for a in $(ARCHES); do \
		log=$(B)/logs/$$a-vanilla-$(VARIANT)-selftests.log; \
		$(W)/qemu-run.sh $$a $(B)/o/$$a-vanilla-$(VARIANT)/kernel.img \
			$(B)/initramfs-$$a.cpio.gz selftests $$log $(TIMEOUT) && \
		$(W)/selftests-compare.sh $$a $$log --record || exit 1; \
	done
