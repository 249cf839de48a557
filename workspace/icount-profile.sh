#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# icount-profile.sh "ARCHES" VARIANT FUNC [PBARGS]
#
# Where do the instructions that make bench ICOUNT=0 counts go?  For each
# arch, boot the vanilla and the patched kernel (build/o/<arch>-<kernel>-
# VARIANT) with the profile plan (one pb_bench workload, PBARGS: bench=,
# size=, see workspace/guest/plans/profile), attach gdb to QEMU's gdbstub,
# single-step whole calls of the kernel function FUNC and count the
# instructions per function they run in (workspace/icount_profile.py).
# Prints, per arch, the instructions per call of FUNC and, function by
# function, vanilla against patched; the JSON per kernel and the consoles
# stay in build/profile/.
#
# Single-stepping costs about a millisecond per instruction: a call of a
# few thousand instructions takes seconds, a whole MADV_PAGEOUT of 128 MiB
# would take hours, so profile the per-folio function (try_to_unmap_one,
# the default), not the syscall.  PB_SKIP and PB_CALLS (3 and 3) choose
# which calls are counted.  The guest runs as under make bench ICOUNT=0
# (-icount shift=0, one vCPU), so that it takes the same paths: with one
# CPU, x86 reclaim flushes the TLB at once instead of deferring it.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
BUILD=${BUILD:-$REPO/build}
ARCHES=${1:-x86_64 arm64}; VARIANT=${2:-bench}; FUNC=${3:-try_to_unmap_one}
PBARGS=${4:-}
OUT=$BUILD/profile
mkdir -p "$OUT"
GDB=$(command -v gdb-multiarch || true)
[ -n "$GDB" ] || { echo "profile: gdb-multiarch is missing (make deps)"; exit 1; }

profile_one() {	# arch kernel -> $OUT/<arch>-<kernel>.json
	local arch=$1 kernel=$2 o=$BUILD/o/$1-$2-$VARIANT port qpid i
	local log=$OUT/$arch-$kernel.log json=$OUT/$arch-$kernel.json
	[ -f "$o/kernel.img" ] || { echo "profile: no $o/kernel.img (make kernels VARIANT=$VARIANT)"; return 1; }
	port=$((20000 + RANDOM % 20000))
	rm -f "$json"
	PB_GDB=$port PB_ACCEL=tcg PB_ICOUNT=0 "$REPO/workspace/qemu-run.sh" "$arch" "$o/kernel.img" \
		"$BUILD/initramfs-$arch.cpio.gz" profile "$log" "$PB_LIMIT_BOOT_PROFILE" "$PBARGS" >/dev/null 2>&1 &
	qpid=$!
	for i in $(seq 50); do
		ss -ltn 2>/dev/null | grep -q "127.0.0.1:$port " && break
		sleep 0.2
	done
	PB_SMAP=$o/System.map PB_FUNC=$FUNC PB_PORT=$port PB_ARCH=$arch PB_OUT=$json \
		timeout "$PB_LIMIT_PROFILE_GDB" "$GDB" -batch -nx -q -x "$REPO/workspace/icount_profile.py" \
		>"$OUT/$arch-$kernel.gdb" 2>&1
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	[ -s "$json" ] || { echo "profile: $arch $kernel: no calls counted ($OUT/$arch-$kernel.gdb, $log)"; return 1; }
}

rc=0
for arch in $ARCHES; do
	for kernel in vanilla patched; do
		echo "profile: $arch $kernel: $FUNC, ${PBARGS:-bench=lazyfree,size=64}"
		profile_one "$arch" "$kernel" || { rc=1; continue 2; }
	done
	"$REPO/workspace/benchlib/profile.py" "$arch" "$FUNC" \
		"$OUT/$arch-vanilla.json" "$OUT/$arch-patched.json" | tee "$OUT/$arch.txt"
done
exit $rc
