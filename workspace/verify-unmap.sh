#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verify-unmap.sh TREE "ARCHES"
#
# Check the batched anon unmap of try_to_unmap_one() against the per-PTE
# path, PTE by PTE, on an instrumented kernel (workspace/mm-verify/):
# TREE's HEAD plus verify-rmap-debug.patch, built as the test variant in a
# worktree of its own, booted with mm_partial and the mmverify plan.  The
# instrumented try_to_unmap_one() compares every swap PTE it writes with
# what swp_pte_prepare() gives for that page and its original PTE, checks
# the PTEs it restores, and injects failures of the swap dup and of the
# anon-exclusive sharing on request.  A mismatch, lost data, a leaked swap
# count or a kernel report fails the run.  The same kernel checks
# try_to_migrate_one()'s migration entries and remove_migration_pte()'s
# restored PTEs against the per-PTE results (mig_*, remove_* counters),
# and every PTE of a run page_vma_mkclean_one() cleans for writeback
# (mkclean_*, on pgtable_batch_mkclean's cases on the guest's ext4 disk).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
TREE=$(realpath "${1:?tree}"); ARCHES=${2:-x86_64 arm64}
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
TIMEOUT=${TIMEOUT:-$PB_LIMIT_BOOT_VERIFY}
V=$REPO/workspace/mm-verify
WT=$BUILD/verify-tree

# The instrumentation on top of the tree's HEAD, in a worktree of its own.
"$REPO/workspace/patched-worktree.sh" "$TREE" "$WT" "$V/verify-rmap-debug.patch"

rc=0
for arch in $ARCHES; do
	case $arch in
	x86_64) CC=gcc ;;
	arm64) CC=aarch64-linux-gnu-gcc ;;
	*) echo "verify-unmap: unknown arch $arch" >&2; exit 1 ;;
	esac
	out=$BUILD/o/$arch-verify-test
	flock "$BUILD/cpu.lock" "$REPO/workspace/kbuild.sh" "$arch" test "$WT" "$out"
	bin=$BUILD/verify-bin/$arch
	mkdir -p "$bin"
	$CC -static -O2 -Wall -Werror -o "$bin/mm_partial" "$V/mm_partial.c"
	initrd=$BUILD/initramfs-verify-$arch.cpio.gz
	# The guest programs and the tree's mm selftests (pgtable_batch_*).
	"$REPO/workspace/initramfs.sh" "$arch" "$initrd" "$BUILD/guest-bin/$arch" \
		"$BUILD/selftests/$arch" \
		"$bin" "$V/mmverify.plan"
	log=$BUILD/logs/$arch-verify-mmverify.log
	"$REPO/workspace/qemu-run.sh" "$arch" "$out/kernel.img" "$initrd" \
		mmverify "$log" "$TIMEOUT" || { rc=1; continue; }
	# The counters of the instrumentation: what was checked, that the
	# mixed, partial and restore paths really ran (swap-out, migration
	# and the restore of migration entries), and no mismatch.
	echo "verify-unmap: $arch: $(sed -n 's/^# ttu_dbg \([a-z_]*\) \([0-9]*\)$/\1=\2/p' "$log" | tr '\n' ' ')"
	for c in checked batches mixed partial restored injected \
		mig_checked mig_batches mig_mixed mig_restored mig_injected \
		remove_checked remove_runs mkclean_checked mkclean_runs; do
		n=$(sed -n "s/^# ttu_dbg $c \([0-9]*\)$/\1/p" "$log")
		[ "${n:-0}" -gt 0 ] || { echo "verify-unmap: $arch: nothing counted as $c" >&2; rc=1; }
	done
	for c in mismatch mig_mismatch remove_mismatch mkclean_mismatch; do
		n=$(sed -n "s/^# ttu_dbg $c \([0-9]*\)$/\1/p" "$log")
		[ -n "$n" ] && [ "$n" = 0 ] || { echo "verify-unmap: $arch: $c=${n:-missing}" >&2; rc=1; }
	done
done
exit $rc
