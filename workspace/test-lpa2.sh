#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-lpa2.sh TREE [TIMEOUT]
#
# arm64 with LPA2 (52-bit physical addresses with 4K pages): build the
# patched test kernel with workspace/configs/arm64-lpa2.config and boot it
# under -cpu max, which has FEAT_LPA2, with the KUnit suites running at
# boot (the light "probe" plan).  With LPA2 in use, SWP_PFN_BITS is 40
# and the young bit of a migration entry is PTE bit 52, which a present
# entry uses as PTE_CONT: the pgtable_batch case "migration young dirty"
# checks that set_pte_at() and set_softleaf_ptes() keep it.  The run
# fails unless the guest passes (qemu-run.sh judges the log), the kernel
# reports that it uses LPA2 and the suite saw SWP_PFN_BITS 40.
#
# Output: build/o/arm64-patched-lpa2 and build/logs/arm64-lpa2.log
# (LPA2_O= and LPA2_LOG= move them); LPA2_INITRD= names the initramfs.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
TREE=$(realpath "${1:?tree}"); TIMEOUT=${2:-$PB_LIMIT_BOOT_LPA2}
O=${LPA2_O:-$BUILD/o/arm64-patched-lpa2}
LOG=${LPA2_LOG:-$BUILD/logs/arm64-lpa2.log}
INITRD=${LPA2_INITRD:-$BUILD/initramfs-arm64.cpio.gz}

PB_CONFIGS=arm64-lpa2.config flock "$BUILD/cpu.lock" \
	"$REPO/workspace/kbuild.sh" arm64 test "$TREE" "$O" || exit 1
grep -q '^CONFIG_ARM64_LPA2=y' "$O/.config" || { echo "test-lpa2: CONFIG_ARM64_LPA2 is not set in $O/.config"; exit 1; }

PB_KUNIT=1 "$REPO/workspace/qemu-run.sh" arm64 "$O/kernel.img" "$INITRD" probe "$LOG" "$TIMEOUT"
rc=$?
if ! grep -q 'CPU features: detected: 52-bit Virtual Addressing (LPA2)' "$LOG"; then
	echo "test-lpa2: the guest kernel does not run with LPA2 ($LOG)"; rc=1
fi
bits=$(sed -n 's/.*# pb_set_softleaf_ptes: SWP_PFN_BITS \([0-9]*\),.*/\1/p' "$LOG" | head -1)
if [ "$bits" != 40 ]; then
	echo "test-lpa2: the suite saw SWP_PFN_BITS ${bits:-(none)}, not 40 ($LOG)"; rc=1
fi
if ! grep -Eq '^(\[ *[0-9]+\.[0-9]+\] )?ok [0-9]+ pgtable_batch$' "$LOG"; then
	echo "test-lpa2: no passing pgtable_batch suite in $LOG"; rc=1
fi
grep -E 'CPU features: detected: 52-bit|SWP_PFN_BITS|ok [0-9]+ migration young dirty|ok [0-9]+ pgtable_batch$' "$LOG"
[ $rc = 0 ] && echo "test-lpa2: arm64 with LPA2: pgtable_batch passes"
exit $rc
