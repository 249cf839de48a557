#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of workspace/check-steps.sh and test-guest.sh's KERNEL_READY:
# a copy of the two scripts in a scratch directory, with a make, a
# progress.py and guest plans that only say what they were asked to do.
#  - the last arch's kernel is built beside the boots, before the host
#    checks, and its boots wait for it;
#  - a failed build of that kernel skips its boots and fails the run;
#  - every arch's check boot comes before the selftests boots, and each
#    arch's selftests are compared right after its boot;
#  - a failed host check fails the run, and the boots still run;
#  - with one arch nothing is built beside the boots;
#  - stopping make check stops the work beside the boots;
#  - the work beside the boots runs under SCHED_IDLE;
#  - the quick bench boots right after the guest boots, on the kernels
#    built (BENCH_BUILT=1), not on one whose build failed;
#  - TIER=gate boots the check plan only, with tier=gate, TIER=full the
#    check plan whole and the selftests, each boot with its plan's limit
#    from workspace/limits.sh.
# The conditions are eval'ed (and read $rc) in expect().
# shellcheck disable=SC2016,SC2034,SC2317
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-check-steps.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

mkdir -p "$T/workspace/guest/plans" "$T/build/progress"
cp "$REPO/workspace/check-steps.sh" "$REPO/workspace/test-guest.sh" "$REPO/workspace/limits.sh" \
	"$T/workspace/"
cat >"$T/workspace/progress.py" <<'EOF'
#!/bin/bash
while [ "$1" != -- ]; do shift; done
shift
exec "$@"
EOF
# make: logs its goals in order; FAIL_GOAL makes one fail, SLOW_GOAL
# makes one take 2 s, SLOWER_GOAL 4 s.
cat >"$T/make" <<'EOF'
#!/bin/bash
shift 3		# -s -C DIR
echo "make $*" >>"$LOG"
echo "policy $(chrt -p $$ | grep -o 'SCHED_[A-Z]*' | head -1) $*" >>"$LOG"
case " $* " in *" ${SLOW_GOAL:-none} "*) sleep 2 ;; esac
case " $* " in *" ${SLOWER_GOAL:-none} "*) sleep 4 ;; esac
case " $* " in *" ${FAIL_GOAL:-none} "*) exit 2 ;; esac
echo "done $*" >>"$LOG"
EOF
# A guest boot: qemu-run.sh ARCH KERNEL INITRD PLAN LOG ...
cat >"$T/workspace/qemu-run.sh" <<'EOF'
#!/bin/bash
echo "boot $1 $4" >>"$LOG"
echo "args $1 $4 limit=$6 $7" >>"$LOG"
: >"$5"
EOF
# GATE_DIFFER=1: the gate's selftests differ from vanilla's in the check
# boot (a count, rerun) and match on the rerun.
cat >"$T/workspace/selftests-compare.sh" <<'EOF'
#!/bin/bash
echo "compare $1" >>"$LOG"
if [ "${GATE_DIFFER:-0}" = 1 ] && [[ $2 == *-check-gate.log ]]; then
	echo split_huge_page_test >"$DIFFER"
	exit 1
fi
EOF
printf '#!/bin/sh\n' >"$T/workspace/guest/plans/check"
cp "$T/workspace/guest/plans/check" "$T/workspace/guest/plans/selftests"
printf 'x86_64 cow 1 0 0\narm64 cow 1 0 0\n' >"$T/workspace/guest/selftests.baseline"
chmod +x "$T/make" "$T"/workspace/*.sh "$T/workspace/progress.py" "$T"/workspace/guest/plans/*

# make check runs this test beside the guest boots, under SCHED_IDLE,
# and a child inherits its policy.  The scenarios run under SCHED_OTHER
# where that may be had (root may leave SCHED_IDLE), so that the policy
# check sees check-steps.sh's own choice.  $base: the policy they start
# with.
other=()
chrt --other 0 true 2>/dev/null && other=(chrt --other 0)
base=$("${other[@]}" sh -c 'chrt -p $$' | grep -o 'SCHED_[A-Z]*' | head -1)

# run NAME ARCHES [VAR=value...]: check-steps.sh's exit code in $rc, the
# log of what it did in $T/NAME.log
run() {
	local name=$1 arches=$2
	shift 2
	export LOG=$T/$name.log
	: >"$LOG"
	# make check runs this test with its own TIER, PLANS, BENCH_ARCHES...
	# in the environment: none of them may leak into the scenarios.
	"${other[@]}" env -u TIER -u BENCH_ARCHES -u SELFTEST_ARCHES -u MIGRATE_ARCHES \
		-u TIMEOUT -u PBARGS -u KERNEL_READY \
		MAKE="$T/make" ARCHES="$arches" LINT_ARCHES="x86_64 arm64" \
		PLANS=check KUNIT_SUITES='' VARIANT=bench "$@" \
		"$T/workspace/check-steps.sh" >"$T/$name.out" 2>&1
	rc=$?
}

expect() {	# name condition message
	if eval "$2"; then
		echo "ok: $1: $3"
	else
		echo "FAIL: $1: $3"
		sed 's/^/    /' "$T/$1.log" "$T/$1.out"
		fails=$((fails + 1))
	fi
}

# line NAME PATTERN: the line number of the first line of NAME.log that
# matches PATTERN (0: none)
line() { grep -n -m1 -- "$2" "$T/$1.log" | cut -d: -f1 | grep . || echo 0; }

run ok "x86_64 arm64 riscv64" SLOW_GOAL=ARCHES=riscv64
expect ok '[ $rc = 0 ]' "passes"
expect ok '[ "$(line ok "patched ARCHES=x86_64 arm64$")" -gt 0 ]' "x86_64 and arm64 built first"
expect ok '[ "$(line ok "done patched ARCHES=riscv64$")" -gt "$(line ok "boot arm64 check")" ]' \
	"riscv64 built beside the boots"
expect ok '[ "$(line ok "boot riscv64 check")" -gt "$(line ok "done patched ARCHES=riscv64$")" ]' \
	"riscv64 boots after its kernel is built"
expect ok '[ "$(line ok "make -k lint test-harness test-cocci test-bench-unit LINT_ARCHES=x86_64 arm64")" -gt "$(line ok "done patched ARCHES=riscv64$")" ]' \
	"host checks after the riscv64 kernel, with LINT_ARCHES"
expect ok '[ "$(line ok "make bench QUICK=1")" -gt "$(line ok "boot riscv64 check")" ]' \
	"the quick bench after the boots"
expect ok 'grep -q "^make bench QUICK=1 .*BENCH_BUILT=1 ARCHES=x86_64 arm64 riscv64$" "$T/ok.log"' \
	"the quick bench on the kernels built"

# One arch: nothing is built beside the boots, so no boot waits for a
# kernel (test-guest.sh polls every 5 s) while lint runs.
run bench "x86_64" SLOWER_GOAL=lint
expect bench '[ $rc = 0 ]' "passes"
expect bench '[ "$(line bench "make bench QUICK=1")" -lt "$(line bench "done -k lint")" ]' \
	"the quick bench does not wait for the host checks"
run bench3 "x86_64" BENCH_ARCHES=arm64
expect bench3 '[ $rc = 1 ] && [ "$(line bench3 "make bench QUICK")" = 0 ]' \
	"BENCH_ARCHES outside ARCHES: not booted (no kernel of this run), and that fails"
run bench2 "x86_64 arm64" BENCH_ARCHES=arm64
expect bench2 'grep -q "^make bench QUICK=1 .*ARCHES=arm64$" "$T/bench2.log"' "BENCH_ARCHES"
expect ok 'grep -q "riscv64: waiting for its kernel" "$T/ok.out"' "the wait is reported"
expect ok 'grep -q "^policy SCHED_IDLE patched ARCHES=riscv64$" "$T/ok.log" &&
	grep -q "^policy SCHED_IDLE -k lint" "$T/ok.log"' \
	"the work beside the boots runs under SCHED_IDLE"
if [ "$base" = SCHED_IDLE ]; then
	echo "skip: ok: the rest under its caller's policy: this test runs under SCHED_IDLE and may not leave it"
else
	expect ok 'grep -q "^policy $base patched ARCHES=x86_64 arm64$" "$T/ok.log" &&
		grep -q "^policy $base bench QUICK=1" "$T/ok.log"' \
		"the rest runs under its caller's policy ($base)"
fi

run kfail "x86_64 riscv64" FAIL_GOAL=ARCHES=riscv64
expect kfail '[ $rc = 1 ]' "a failed kernel build fails the run"
expect kfail '[ "$(line kfail "boot riscv64")" = 0 ]' "and its arch does not boot"
expect kfail '[ "$(line kfail "make -k lint")" -gt 0 ]' "the host checks still run"
expect kfail 'grep -q "^make bench QUICK=1 .*ARCHES=x86_64$" "$T/kfail.log"' \
	"the quick bench leaves out the arch whose kernel failed"

. "$REPO/workspace/limits.sh"
run gate "x86_64 arm64" TIER=gate PLANS=
expect gate '[ $rc = 0 ]' "the gate passes"
expect gate '[ "$(grep "^boot\|^compare" "$T/gate.log" | tr "\n" ,)" = "boot x86_64 check,compare x86_64,boot arm64 check,compare arm64," ]' \
	"the gate boots each arch's check plan, no selftests boot, and compares its selftests"
expect gate '[ "$(grep -c "^args .* check limit=$PB_LIMIT_BOOT_GATE tier=gate,gate_selftests=split_huge_page_test$" "$T/gate.log")" = 2 ]' \
	"with tier=gate, the gate's selftests and the gate's boot limit"
run gretry "x86_64" TIER=gate PLANS= GATE_DIFFER=1
expect gretry '[ $rc = 0 ]' "a gate selftest that differs and matches on its rerun passes"
expect gretry '[ "$(grep "^boot\|^compare" "$T/gretry.log" | tr "\n" ,)" = "boot x86_64 check,compare x86_64,boot x86_64 selftests,compare x86_64," ]' \
	"the rerun is a selftests boot of the tests that differed"
expect gretry 'grep -q "^args x86_64 selftests limit=$PB_LIMIT_BOOT_SELFTESTS selftests=split_huge_page_test$" "$T/gretry.log"' \
	"with only those tests"
run full "x86_64 arm64" TIER=full PLANS= SELFTEST_ARCHES="x86_64 arm64" VARIANT=test
expect full '[ "$(grep "^boot\|^compare" "$T/full.log" | tr "\n" ,)" = "boot x86_64 check,boot arm64 check,boot x86_64 selftests,compare x86_64,boot arm64 selftests,compare arm64," ]' \
	"the full tier boots the check plans, then the selftests"
expect full 'grep -q "^args x86_64 check limit=$PB_LIMIT_BOOT_CHECK tier=full" "$T/full.log" &&
	grep -q "^args x86_64 selftests limit=$PB_LIMIT_BOOT_SELFTESTS $" "$T/full.log"' \
	"each plan with its limit, the check plan with tier=full"
expect full 'grep -q "^make bench ICOUNT=0 BOOTS=1 GOALS=1 VARIANT=bench ARCHES=x86_64 arm64 PBARGS=" "$T/full.log" &&
	[ "$(line full "make bench ICOUNT")" -gt "$(line full "done -k lint")" ] &&
	[ "$(line full "make bench ICOUNT")" -gt "$(line full "make bench QUICK")" ]' \
	"the full tier runs the icount goals last, on x86_64 and arm64, on the bench kernels (VARIANT=test around it)"
expect full 'grep -q "^make kunit KUNIT_ARCHES=um x86_64 arm64 riscv64$" "$T/full.log" &&
	[ "$(line full "make kunit")" -gt "$(line full "make bench QUICK")" ] &&
	[ "$(line full "make bench ICOUNT")" -gt "$(line full "make kunit")" ]' \
	"the full tier runs kunit.py on the four arches, after the quick bench"
run timeout "x86_64" TIER=gate PLANS= TIMEOUT=77
expect timeout 'grep -q "^args x86_64 check limit=77 tier=gate" "$T/timeout.log"' "TIMEOUT= overrides the limits"
expect timeout '! grep -q "make bench ICOUNT" "$T/timeout.log"' "the gate does not run the icount goals"
expect timeout '! grep -q "make kunit" "$T/timeout.log"' "the gate does not run kunit.py"

run order "x86_64 arm64 riscv64" PLANS="check selftests" SELFTEST_ARCHES="x86_64 arm64"
expect order '[ $rc = 0 ]' "passes with the selftests"
expect order '[ "$(grep "^boot\|^compare" "$T/order.log" | tr "\n" ,)" = "boot x86_64 check,boot arm64 check,boot riscv64 check,boot x86_64 selftests,compare x86_64,boot arm64 selftests,compare arm64," ]' \
	"every check boot first, then each selftests boot and its comparison"

run lfail "x86_64 arm64" FAIL_GOAL=lint
expect lfail '[ $rc = 1 ]' "a failed host check fails the run"
expect lfail '[ "$(line lfail "boot arm64 check")" -gt 0 ]' "the boots still run"

run one "x86_64"
expect one '[ $rc = 0 ]' "one arch passes"
expect one '[ "$(grep -c "^make patched" "$T/one.log")" = 1 ]' "one arch: its kernel built once, first"

export LOG=$T/stop.log
: >"$LOG"
SLOW_GOAL=ARCHES=riscv64 MAKE="$T/make" ARCHES="x86_64 riscv64" PLANS=check KUNIT_SUITES='' \
	VARIANT=bench timeout -s TERM 1 "$T/workspace/check-steps.sh" >"$T/stop.out" 2>&1
sleep 3
expect stop '[ "$(line stop "make -k lint")" = 0 ]' "stopping make check stops the work beside the boots"

[ $fails = 0 ] && echo "test_check_steps: all passed" && exit 0
echo "test_check_steps: $fails failed"
exit 1
