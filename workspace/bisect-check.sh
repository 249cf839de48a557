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
if [ "$FROM" -gt 1 ] || [ "$TO" -lt "${#commits[@]}" ]; then
	echo "bisect-check: commits $FROM to $TO of ${#commits[@]} build on $ARCHES"
else
	echo "bisect-check: all ${#commits[@]} commits build on $ARCHES"
fi
