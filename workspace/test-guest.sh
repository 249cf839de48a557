#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-guest.sh "ARCHES" VARIANT [TIMEOUT]
#
# Boot the patched kernel of each arch and run the in-guest suites: the
# KUnit conformance suite runs at boot, then the "check" plan (integrity
# and stress) and, on the arches of $SELFTEST_ARCHES, the "selftests" plan
# (mm selftests).  Logs are kept in
# build/logs/.  Any failure of any boot fails the target.
#
# TIER=gate (make check) gives the check plan tier=gate: the same steps on
# fewer folio sizes (plans/check), and the mm selftests of
# $GATE_SELFTESTS in the same boot, compared with vanilla; TIER=full
# (make check-full, the default) runs the plan whole.  The gate's logs
# are <arch>-patched-<variant>-check-gate.log.  Each boot's time limit is
# its plan's in workspace/limits.sh; a TIMEOUT given overrides them all.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCHES=${1:?arches}; VARIANT=${2:-test}; TIMEOUT=${3:-}
TIER=${TIER:-full}
# The mm selftests the gate's check boot runs: split_huge_page_test (15 s)
# reaches the converted loop of __split_huge_pmd_locked() that freezes a
# PMD-mapped THP, which no program of ours does.
GATE_SELFTESTS=${GATE_SELFTESTS:-split_huge_page_test}
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
KUNIT_SUITES=${KUNIT_SUITES:-pgtable_batch}
PLANS=${PLANS:-check selftests}
# The mm selftests boot: 8:39 on x86_64 and 10:00 on arm64 under TCG
# (cold make check of b61fdc1), compared with the recorded vanilla
# baseline.
SELFTEST_ARCHES=${SELFTEST_ARCHES:-x86_64 arm64}
# The check plan's pgtable_batch_migrate (about 1:10 on x86_64 and arm64, 2:10 on
# riscv64) runs on these arches; on the others the plan gets migrate=0.
# The migration batching is generic mm code, tested on both arches of the
# series; riscv64's migration entries are in its KUnit suite.
MIGRATE_ARCHES=${MIGRATE_ARCHES:-x86_64 arm64}
# KERNEL_READY=ARCH:FILE:PID: the kernel of ARCH is being built beside
# the boots (make check, workspace/check-steps.sh) by process PID, which
# writes the build's exit code to FILE.  ARCH's boots wait for it.
KERNEL_READY=${KERNEL_READY:-}
LOGS=$BUILD/logs
mkdir -p "$LOGS"

# limit PLAN: the time limit of one boot of PLAN.
limit() {
	if [ -n "$TIMEOUT" ]; then echo "$TIMEOUT"; else pb_limit_boot "$1" "$TIER"; fi
}

# key_tier PLAN: what the progress key of a boot of PLAN adds for the
# tier (the gate's check boot is not the full one's: its own times).
key_tier() {
	[ "$1" = check ] && [ "$TIER" = gate ] && echo -gate
	return 0
}

# in_list LIST WORD: whether WORD is one of the words of LIST.
in_list() {
	case " $1 " in *" $2 "*) return 0 ;; esac
	return 1
}

# kernel_ready ARCH: whether ARCH's kernel is there to boot (waits for
# the build of KERNEL_READY).
kernel_ready() {
	local a f pid krc
	[ -n "$KERNEL_READY" ] || return 0
	IFS=: read -r a f pid <<<"$KERNEL_READY"
	[ "$a" = "$1" ] || return 0
	if [ ! -f "$f" ]; then
		echo "guest: $1: waiting for its kernel, built beside the boots"
		while [ ! -f "$f" ] && kill -0 "$pid" 2>/dev/null; do
			sleep 5
		done
	fi
	krc=$(cat "$f" 2>/dev/null) || krc="no exit code"
	if [ "$krc" != 0 ]; then
		echo "guest: $1: its kernel build failed or stopped ($krc)"
		return 1
	fi
	echo "guest: $1: kernel built"
}

# One guest boot under workspace/progress.py: the plan's milestones as they
# come, the time left from the last run's time of the same boot.
run() {	# key label then-keys qemu-run.sh arguments...
	local key=$1 label=$2 then=$3
	shift 3
	"$REPO/workspace/progress.py" run --key "$key" --label "$label" --then "$then" \
		--follow "$5" -- "$REPO/workspace/qemu-run.sh" "$@"
}

# A selftest that passed or skipped a different number of cases than on
# vanilla runs once more, alone, on a fresh boot.  A difference that
# repeats fails; one that does not is reported with its skip reasons above
# and passes: whether some cases skip depends on timing (a folio still in
# another CPU's LRU add batch is not paged out, a THP allocation can fail)
# on vanilla too.  A case that fails where vanilla passes is never rerun.
retry() {	# arch kernel initrd baseline differ-file
	local names log
	if grep -qx '!fail' "$5"; then return 1; fi
	names=$(sort -u "$5" | tr '\n' ' ')
	names=${names% }
	[ -n "$names" ] || return 1
	log=$LOGS/$1-patched-$VARIANT-selftests-retry.log
	echo "guest: $1: running $names once more on a fresh boot"
	run "guest-$1-patched-$VARIANT-selftests-retry" "guest $1 selftests again" "" \
		"$1" "$2" "$3" selftests "$log" "$(limit selftests)" \
		"${PBARGS:+$PBARGS,}selftests=${names// /+}" || return 1
	BASELINE=$4 ONLY="$names" "$REPO/workspace/selftests-compare.sh" "$1" "$log" || return 1
	echo "guest: $1: $names matched vanilla on the second boot (first boot's differences above)"
}

runs() {	# the boots to come: "arch plan" lines
	local arch plan
	for plan in $PLANS; do
		for arch in $ARCHES; do
			[ "$plan" = selftests ] && ! in_list "$SELFTEST_ARCHES" "$arch" && continue
			echo "$arch $plan"
		done
	done
}
total=$(runs | wc -l)

# compare ARCH KERNEL INITRD LOG [NAMES]: the selftests results in LOG (of
# the tests NAMES, default all) against vanilla's, and the rerun of the
# tests that differ.
compare() {
	local baseline='' vlog differ=${4%.log}.differ
	if ! grep -q "^$1 " "$REPO/workspace/guest/selftests.baseline" 2>/dev/null; then
		# No recorded vanilla results for this arch: measure them now,
		# on the vanilla kernel of the same variant.
		echo "guest: $1: no recorded selftests baseline, running them on vanilla"
		make -s -C "$REPO" vanilla ARCHES="$1" VARIANT="$VARIANT" || return 1
		vlog=$LOGS/$1-vanilla-$VARIANT-selftests.log
		baseline=$BUILD/selftests.baseline
		run "guest-$1-vanilla-$VARIANT-selftests" "guest $1 vanilla selftests" "" \
			"$1" "$BUILD/o/$1-vanilla-$VARIANT/kernel.img" \
			"$BUILD/initramfs-$1.cpio.gz" selftests "$vlog" "$(limit selftests)" "${PBARGS:-}" || return 1
		BASELINE=$baseline "$REPO/workspace/selftests-compare.sh" "$1" "$vlog" --record || return 1
	fi
	BASELINE=$baseline DIFFER=$differ ONLY=${5:-} "$REPO/workspace/selftests-compare.sh" \
		"$1" "$4" && return 0
	retry "$1" "$2" "$3" "$baseline" "$differ"
}

# The boots go plan by plan: every arch's check boot, then the selftests
# boots.  make check builds a kernel and runs lint beside the first boots
# (check-steps.sh), and a build beside it slows a selftests boot far
# more than a check boot: on cold make checks, x86_64's selftests boot
# took 14:25 beside a kernel build and 8:39 without (uffd-unit-tests
# 396 s and 177 s), its check boot 12:08 and 11:14.
rc=0
i=0
down=" "	# the arches whose kernel is not there
for plan in $PLANS; do
	for arch in $ARCHES; do
		kernel=$BUILD/o/$arch-patched-$VARIANT/kernel.img
		initrd=$BUILD/initramfs-$arch.cpio.gz
		in_list "$down" "$arch" && continue
		if [ "$plan" = selftests ] && ! in_list "$SELFTEST_ARCHES" "$arch"; then
			echo "guest: $arch: mm selftests not run (SELFTEST_ARCHES=\"$SELFTEST_ARCHES\")"
			continue
		fi
		if ! kernel_ready "$arch"; then
			down="$down$arch "
			rc=1
			continue
		fi
		[ -x "$REPO/workspace/guest/plans/$plan" ] || { echo "guest: no plan $plan"; rc=1; continue; }
		log=$LOGS/$arch-patched-$VARIANT-$plan$(key_tier "$plan").log
		i=$((i + 1))
		then=$(runs | tail -n +$((i + 1)) | awk -v v="$VARIANT" -v g="$(key_tier check)" \
			'{ printf "%sguest-%s-patched-%s-%s%s", (NR > 1 ? "," : ""), $1, v, $2, ($2 == "check" ? g : "") }')
		args=${PBARGS:-}
		if [ "$plan" = check ] && ! in_list "$MIGRATE_ARCHES" "$arch"; then
			args=migrate=0${args:+,$args}
		fi
		if [ "$plan" = check ]; then
			g=
			[ "$TIER" = gate ] && g=${GATE_SELFTESTS// /+}
			args=tier=$TIER${g:+,gate_selftests=$g}${args:+,$args}
		fi
		run "guest-$arch-patched-$VARIANT-$plan$(key_tier "$plan")" "boot $i/$total, $arch $plan" "$then" \
			"$arch" "$kernel" "$initrd" "$plan" "$log" "$(limit "$plan")" "$args" || rc=1
		# qemu-run.sh runs the built-in KUnit suites on "check" boots only.
		if [ "$plan" = check ] && [ "$VARIANT" = test ]; then
			for s in $KUNIT_SUITES; do
				if ! grep -Eq "^(\[ *[0-9]+\.[0-9]+\] )?[[:space:]]*ok [0-9]+ $s\$" "$log"; then
					echo "guest: $arch KUnit suite $s did not report ok in $log"
					rc=1
				fi
			done
		fi
		grep -h '^# SUMMARY' "$log" | sed "s/^/guest: $arch $plan: /"
		if [ "$plan" = selftests ]; then
			compare "$arch" "$kernel" "$initrd" "$log" || rc=1
		elif [ "$plan" = check ] && [ "$TIER" = gate ] && [ -n "$GATE_SELFTESTS" ]; then
			# The gate's selftests, compared as the selftests boots'
			# are (a test missing from the log fails).
			compare "$arch" "$kernel" "$initrd" "$log" "$GATE_SELFTESTS" || rc=1
		fi
	done
done
exit $rc
