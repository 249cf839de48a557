#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-check.sh TREE "ARCHES"
#
# Build every commit of the series (pristine..HEAD of TREE) on every arch,
# incrementally in one worktree and one O= directory per arch, so that
# each step after the first only rebuilds what it touched.  Stops at the
# first commit that does not build and names it.  A commit that changes
# only files the kernel build does not read (Documentation/,
# scripts/coccinelle/, tools/) builds exactly as its parent did and is
# reported as such instead of being rebuilt.
#
# Then, on the last commit, the pgtable_batch KUnit suite is built as a
# module on every arch, as KUNIT_ALL_TESTS=m builds it: a small kernel
# (the tinyconfig bench variant plus workspace/configs/kunit-module.config) with
# CONFIG_MODULES=y and CONFIG_PGTABLE_BATCH_KUNIT_TEST=m, so that modpost
# fails on any symbol the suite uses that is not exported to it.  It is
# a cold kernel build per arch the first time (one O= directory per arch,
# build/o/<arch>-kunit-module); BISECT_MODULE=0 skips it.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
TREE=$(realpath "${1:?tree}"); ARCHES=${2:-x86_64 arm64}
WT=$BUILD/bisect-wt
VARIANT=${VARIANT:-test}
# BISECT_FROM=N and BISECT_TO=M check only the N-th to M-th commits
# (1-based), e.g. after a fix.
FROM=${BISECT_FROM:-1}

if [ ! -d "$WT/.git" ] && [ ! -f "$WT/.git" ]; then
	git -C "$TREE" worktree add -q --detach "$WT" pristine
fi
mapfile -t commits < <(git -C "$TREE" rev-list --reverse pristine..HEAD)
TO=${BISECT_TO:-${#commits[@]}}
n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	[ "$n" -lt "$FROM" ] || [ "$n" -gt "$TO" ] && continue
	git -C "$WT" checkout -q --detach "$c"
	subj=$(git -C "$WT" log -1 --format=%s)
	if [ "$n" -gt "$FROM" ] && ! git -C "$WT" diff-tree --no-commit-id --name-only -r "$c" |
		grep -qvE '^(Documentation|scripts/coccinelle|tools)/'; then
		echo "bisect-check: [$n/${#commits[@]}] no build input changed, same as [$((n - 1))]: $subj"
		continue
	fi
	for arch in $ARCHES; do
		start=$(date +%s)
		if ! flock "$BUILD/cpu.lock" "$REPO/workspace/kbuild.sh" "$arch" "$VARIANT" "$WT" \
			"$BUILD/o/$arch-bisect" >"$BUILD/o/bisect-$arch.log" 2>&1; then
			tail -30 "$BUILD/o/bisect-$arch.log"
			echo "bisect-check: [$n/${#commits[@]}] $subj does not build on $arch"
			exit 1
		fi
		if grep -q 'warning:' "$BUILD/o/bisect-$arch.log"; then
			grep 'warning:' "$BUILD/o/bisect-$arch.log" | head
			echo "bisect-check: [$n/${#commits[@]}] $subj builds with warnings on $arch"
			exit 1
		fi
		echo "bisect-check: [$n/${#commits[@]}] $arch ok ($(($(date +%s) - start))s): $subj"
	done
done

module_check() {	# arch: build the suite as a module at the tree's HEAD
	local o=$BUILD/o/$1-kunit-module log=$BUILD/o/kunit-module-$1.log start
	start=$(date +%s)
	if ! PB_CONFIGS=kunit-module.config flock "$BUILD/cpu.lock" "$REPO/workspace/kbuild.sh" \
		"$1" bench-tiny "$WT" "$o" vmlinux modules >"$log" 2>&1; then
		{ grep -E 'ERROR|error:' "$log" || tail -20 "$log"; } | head -20
		echo "bisect-check: the KUnit suite does not build as a module on $1 ($log)"
		return 1
	fi
	if ! grep -q '^CONFIG_PGTABLE_BATCH_KUNIT_TEST=m' "$o/.config" ||
		[ ! -f "$o/mm/tests/pgtable_batch_kunit.ko" ]; then
		echo "bisect-check: no mm/tests/pgtable_batch_kunit.ko built on $1 ($o/.config)"
		return 1
	fi
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" | head
		echo "bisect-check: the KUnit module builds with warnings on $1"
		return 1
	fi
	echo "bisect-check: $1 KUnit suite as a module ok, modpost passed ($(($(date +%s) - start))s)"
}
if [ "${BISECT_MODULE:-1}" != 0 ]; then
	git -C "$WT" checkout -q --detach "$(git -C "$TREE" rev-parse HEAD)"
	for arch in $ARCHES; do
		module_check "$arch" || exit 1
	done
fi

if [ "$FROM" -gt 1 ] || [ "$TO" -lt "${#commits[@]}" ]; then
	echo "bisect-check: commits $FROM to $TO of ${#commits[@]} build on $ARCHES"
else
	echo "bisect-check: all ${#commits[@]} commits build on $ARCHES"
fi
