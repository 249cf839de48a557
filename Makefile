# SPDX-License-Identifier: GPL-2.0
#
# pgtable_batch workspace.  `make bench` and `make check` are the two
# entry points; both install what they need first.  See README.md.

SHELL := /bin/bash
B := build
ARCHES ?= x86_64 arm64
VARIANT ?= test
TREE ?= $(B)/tree
TIMEOUT ?= 900
QUICK ?=
W := workspace

.PHONY: all deps base tree series refresh kernels vanilla patched \
	guest-bin initramfs test-harness test-cocci test-bench-unit \
	test-guest lint bench check bisect-check clean help selftests-baseline \
	verify-unmap

all: help

help:
	@sed -n 's/^    make /make /p' README.md

deps:
	@BUILD=$(B) $(W)/deps.sh

base: deps
	@BUILD=$(B) $(W)/base.sh

tree: base
	@$(W)/tree.sh $(TREE)

refresh:
	@$(W)/tree.sh --refresh $(TREE)

series: tree
	@rm -rf $(B)/series && mkdir -p $(B)/series
	@git -C $(TREE) config "branch.$$(git -C $(TREE) symbolic-ref --short HEAD).description" \
		"$$(cat patches/cover-letter)"
	@git -C $(TREE) format-patch -q --cover-letter --cover-from-description=subject \
		--no-signature -o $(CURDIR)/$(B)/series pristine..HEAD
	@echo "series: $$(ls $(B)/series | wc -l) files in $(B)/series"

# Kernels: build/o/<arch>-<vanilla|patched>-<variant>/kernel.img
vanilla: base
	@for a in $(ARCHES); do \
		flock $(B)/cpu.lock $(W)/kbuild.sh $$a $(VARIANT) $(B)/base $(B)/o/$$a-vanilla-$(VARIANT) || exit 1; \
	done

patched: tree
	@for a in $(ARCHES); do \
		flock $(B)/cpu.lock $(W)/kbuild.sh $$a $(VARIANT) $(TREE) $(B)/o/$$a-patched-$(VARIANT) || exit 1; \
	done

kernels: vanilla patched

# Static guest programs and the mm selftests, per arch.
guest-bin: tree
	@for a in $(ARCHES); do $(W)/guest-bin.sh $$a $(TREE) || exit 1; done

initramfs: guest-bin
	@for a in $(ARCHES); do \
		$(W)/initramfs.sh $$a $(B)/initramfs-$$a.cpio.gz $(B)/guest-bin/$$a $(B)/selftests/$$a || exit 1; \
	done

test-harness: tree
	@$(MAKE) -s -C tools/testing/pgtable_batch KSRC=$(CURDIR)/$(TREE)

test-cocci: deps tree
	@TREE=$(TREE) tools/testing/coccinelle/run.sh

test-bench-unit:
	@python3 $(W)/test_bench.py

# Boot the patched kernels and run the in-guest suites (KUnit runs at boot).
test-guest: patched initramfs
	@$(W)/test-guest.sh "$(ARCHES)" $(VARIANT) $(TIMEOUT)

lint: kernels
	@$(W)/lint.sh $(TREE)

bisect-check: tree
	@$(W)/bisect-check.sh $(TREE) "$(ARCHES)"

# try_to_unmap_one()'s batched swap PTEs against the per-PTE result, on an
# instrumented kernel (workspace/mm-verify/).
verify-unmap: initramfs
	@$(W)/verify-unmap.sh $(TREE) "$(ARCHES)"

# The main job: vanilla and patched side by side, both arches.
bench: deps
	@$(W)/bench.sh $(if $(QUICK),--quick)

check: lint test-harness test-cocci test-bench-unit test-guest
	@$(MAKE) -s bench QUICK=1 BOOTS=1 VARIANT=$(VARIANT)
	@echo "check: all passed"

clean:
	rm -rf $(B)/o $(B)/tree $(B)/series $(B)/guest-bin $(B)/selftests $(B)/logs $(B)/bench

# Record the vanilla mm selftest results that test-guest compares against.
selftests-baseline: vanilla initramfs
	@for a in $(ARCHES); do \
		log=$(B)/logs/$$a-vanilla-$(VARIANT)-selftests.log; \
		$(W)/qemu-run.sh $$a $(B)/o/$$a-vanilla-$(VARIANT)/kernel.img \
			$(B)/initramfs-$$a.cpio.gz selftests $$log $(TIMEOUT) && \
		$(W)/selftests-compare.sh $$a $$log --record || exit 1; \
	done
