#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-steps.sh: the steps of make check (TIER=gate) and make check-full
# (TIER=full), in an order that keeps both CPUs busy.
#
# The tiers differ in what they boot: the gate boots each arch's check
# plan on its gate sizes (test-guest.sh, plans/check); the full tier the
# whole check plan, then the mm selftests boots, compared with vanilla.
# Everything else is the same steps.
#
# A TCG guest keeps about 1.4 of the two CPUs busy (a selftests boot:
# 802 s of CPU in 593 s), and the guest boots are half of a cold make
# check.  So, once the kernels of the first arches are built, their boots
# start (test-guest.sh: every arch's check boot, then the selftests
# boots, which a build beside them slows far more), and beside them,
# under SCHED_IDLE:
#  1. the kernel of the last arch (riscv64 in make check), which its
#     boots wait for (test-guest.sh's KERNEL_READY);
#  2. then the host checks: lint, the userspace harness, the Coccinelle
#     tests and the unit tests.  They come after that kernel because lint
#     compiles objects in the test kernels' O= directories.
# SCHED_IDLE, not only nice 19: a vCPU thread that wakes preempts a
# SCHED_IDLE task at once, and a CPU that runs only such tasks counts as
# idle when the woken thread is placed.  At nice 19 beside a kernel
# build, the x86_64 selftests boot took 12:13 instead of 9:52 and
# uffd-unit-tests was killed at its 300 s limit; under SCHED_IDLE the
# boot took 9:13 (uffd-unit-tests 195 s) while the build went on.
# The quick bench boots right after the guest boots, on the kernels and
# initramfs they booted (BENCH_BUILT=1: no make patched, which would
# build in the O= directories that lint may still be compiling in).  The
# output of the work beside the boots is printed after theirs, from
# build/progress/check-beside.out; any step that fails still fails the
# run.
#
# The full tier then runs the KUnit suite with kunit.py (make kunit:
# UML, x86_64, arm64 and riscv64) and the icount no-regression points on the
# distribution-like bench kernels (make bench ICOUNT=0 GOALS=1
# VARIANT=bench: this script's own VARIANT is the test kernels'; pageout
# 4K and 64K, lazyfree 64K, migrate 4K and 64K, x86_64 and arm64 of
# ARCHES), which fail below their goals (or, for the points still below
# them, below their floors: workspace/benchlib/analyse.py).
#
# Environment (from the Makefile): TIER (gate or full), ARCHES,
# LINT_ARCHES, BENCH_ARCHES, VARIANT, TIMEOUT (empty: the limits of
# workspace/limits.sh); MAKE.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCHES=${ARCHES:?arches}
VARIANT=${VARIANT:-test}
TIMEOUT=${TIMEOUT:-}
TIER=${TIER:-full}
case $TIER in
gate) PLANS=${PLANS:-check} ;;
full) PLANS=${PLANS:-check selftests} ;;
*) echo "check-steps: TIER is gate or full, not $TIER" >&2; exit 2 ;;
esac
export PLANS TIER
MAKE=${MAKE:-make}
HOST_CHECKS=(lint test-harness test-cocci test-bench-unit)
OUT=$BUILD/progress/check-beside.out
READY=$BUILD/progress/check-beside.kernel-rc

mk() { "$MAKE" -s -C "$REPO" "$@"; }

if [ "${1:-}" = --beside ]; then
	# The work beside the boots (run below, in its own session).
	late=${2:-}
	krc=0
	if [ -n "$late" ]; then
		mk patched ARCHES="$late"
		krc=$?
		echo $krc >"$READY"
	fi
	lint=()
	[ -n "${LINT_ARCHES:-}" ] && lint=(LINT_ARCHES="$LINT_ARCHES")
	mk -k "${HOST_CHECKS[@]}" "${lint[@]}" && [ $krc = 0 ]
	exit $?
fi

# The last arch's kernel is built beside the boots of the others (with
# one arch, nothing is).
read -r -a arches <<<"$ARCHES"
late=
first=${arches[*]}
if [ ${#arches[@]} -gt 1 ]; then
	late=${arches[-1]}
	first=${arches[*]:0:${#arches[@]}-1}
fi

rm -f "$READY" "$OUT"
# (patched brings the tree up to date first, before anything runs beside.)
mk patched ARCHES="$first" || exit 1
mk initramfs ARCHES="$ARCHES" || exit 1

# Where SCHED_IDLE cannot be had, nice 19 alone (slower guests, see above).
idle=(chrt --idle 0)
how="under SCHED_IDLE"
if ! chrt --idle 0 true 2>/dev/null; then
	idle=()
	how="at nice 19 (no SCHED_IDLE here)"
fi
echo "check: beside the guest boots, $how:${late:+ the $late kernel, then} ${HOST_CHECKS[*]} ($OUT)"
# setsid: a process group of its own, killed with it if make check stops.
setsid -w "${idle[@]}" nice -n 19 "$0" --beside "$late" >"$OUT" 2>&1 </dev/null &
beside=$!
trap 'kill -- -$beside 2>/dev/null' EXIT

rc=0
key=test-guest
[ "$TIER" = gate ] && key=test-guest-gate
KERNEL_READY=${late:+$late:$READY:$beside} \
	"$REPO/workspace/progress.py" run --key "$key" -- \
	"$REPO/workspace/test-guest.sh" "${arches[*]}" "$VARIANT" "$TIMEOUT" || rc=1

# The quick bench boots the arches of this run whose kernel was built
# (the last arch's build beside the boots may have failed: test-guest.sh
# then waited for it and reported it); another arch's kernel.img would
# be an earlier run's.
bench=()
for a in ${BENCH_ARCHES:-$ARCHES}; do
	case " $ARCHES " in *" $a "*) ;; *) continue ;; esac
	[ "$a" = "$late" ] && [ "$(cat "$READY" 2>/dev/null)" != 0 ] && continue
	bench+=("$a")
done
if [ ${#bench[@]} -gt 0 ]; then
	"$REPO/workspace/progress.py" run --key bench-quick --label "bench QUICK=1 KERNELS=patched" -- \
		"$MAKE" -s -C "$REPO" bench QUICK=1 BOOTS=1 TLBCOUNT=1 VARIANT="$VARIANT" KERNELS=patched \
		BENCH_BUILT=1 ARCHES="${bench[*]}" || rc=1
else
	echo "check: no kernel to run the quick bench on"
	rc=1
fi

wait "$beside" || rc=1
trap - EXIT
echo "check: the work beside the boots:"
cat "$OUT"

if [ "$TIER" = full ]; then
	# The suite as kunit.py runs it: UML, x86_64, arm64 (contpte on) and
	# riscv64, each its own small kernel (mm/tests/.kunitconfig).
	"$REPO/workspace/progress.py" run --key kunit --label "kunit.py um x86_64 arm64 riscv64" -- \
		"$MAKE" -s -C "$REPO" kunit KUNIT_ARCHES="um x86_64 arm64 riscv64" || rc=1
	icount=()
	for a in x86_64 arm64; do
		case " $ARCHES " in *" $a "*) icount+=("$a") ;; esac
	done
	if [ ${#icount[@]} -gt 0 ]; then
		"$REPO/workspace/progress.py" run --key bench-icount \
			--label "bench ICOUNT=0 GOALS=1 (no-regression points)" -- \
			"$MAKE" -s -C "$REPO" bench ICOUNT=0 BOOTS=1 GOALS=1 VARIANT=bench ARCHES="${icount[*]}" \
			PBARGS=only=pageout:lazyfree:migrate,sizes=4:64,mig_sizes=4:64,runs=2,sweep_runs=2,mig_runs=2 || rc=1
	fi
fi
exit $rc
