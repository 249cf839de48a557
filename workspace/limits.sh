# SPDX-License-Identifier: GPL-2.0
#
# limits.sh: every time limit of the checks and benchmarks, in seconds,
# in one place.  Sourced by the host scripts and, from the initramfs
# (/lib/limits.sh), by the guest plans.
#
# A limit is there to end a hang, not to budget time: a run that passes
# never waits for one.  Each is at least 1.5 times the slowest time
# measured for what it bounds on this machine kind (2 cores, TCG; the
# machine's speed varies by a third from day to day), and the measurement
# is written beside it.  When a measurement comes closer than that, raise
# the limit here.  TIMEOUT=N on make's command line overrides the limit of
# every guest boot of make check, check-full, bench, verify-unmap and
# test-lpa2 (not make profile's); PBARGS=selftest_timeout=N that of each
# mm selftest.
# shellcheck shell=sh disable=SC2034

# --- in the guest ---------------------------------------------------------
# One mm selftest (plans/selftests).  The slowest is uffd-unit-tests
# (write-protect cases): 396 s on x86_64 with a kernel build beside the
# boot on a slow day, 306 s alone in the rerun of that CI run; 170-240 s
# alone on a normal day.
PB_LIMIT_SELFTEST=600
# swapoff of the zram swap at the end of the fault-injection step: it
# loops until every slot is unused, so a leaked swap count hangs it.
# The plan prints its time ("swapoff: N s"): 0 s on both arches in the
# first cold run of the gate (less than a second).
PB_LIMIT_SWAPOFF=120
# Not here: pgtable_batch_integrity's swapoff case gives swapoff 60 s
# itself (pb_swapoff_timed() in tools/testing/selftests/mm/
# pgtable_batch_common.c): a test program keeps its limits, as the mm
# selftests do.

# --- on the host -------------------------------------------------------------
# One make coccicheck of make test-cocci's finder case (mm/kasan/, all
# CPUs): seconds; the whole step took 0:09 in the cold run of the gate.
PB_LIMIT_COCCICHECK=600
# One input's validation by running it (tools/testing/coccinelle/
# validate.py: the harness objects when missing, two programs per
# architecture, their runs): seconds; the slowest input (markers.c, 600
# cases for one of its functions) took 10 s beside a guest boot, the
# harness objects 4 s.
PB_LIMIT_COCCI_VALIDATE=120
# The probe boot that decides whether an x86_64 guest may use KVM: under
# KVM a guest boots in seconds, so a probe that has not finished in 30 s
# means KVM hangs here (it does on this machine kind) and TCG is used.
# A decision, not a guard: it is not derived from a TCG time.
PB_LIMIT_KVM_PROBE=30

# --- one guest boot (workspace/qemu-run.sh) ---------------------------------
# make check's check boot (the gate's plan: check with tier=gate): 5:36
# (x86_64, KASAN) and 4:06 (arm64) in the first cold run of the gate;
# a slow day adds up to a third: 7:28, of which 900 s is twice.
PB_LIMIT_BOOT_GATE=900
# make check-full's check boot (the whole check plan): x86_64 11:14 on a
# normal day; on a slow day a CI run cut one at the former 900 s limit
# during its fault-injection step, which has since been halved.
PB_LIMIT_BOOT_CHECK=1500
# The mm selftests boot: 8:39 (x86_64) and 10:00 (arm64) on a normal day,
# 14:25 with a kernel build beside it on a slow day.
PB_LIMIT_BOOT_SELFTESTS=1800
# One benchmark boot (make bench; the quick bench of make check, 1:15 to
# 3:10): the full plan takes 2 (x86_64) to 3 (arm64) minutes, under
# -icount up to 15.
PB_LIMIT_BOOT_BENCH=2400
# make verify-unmap's instrumented boot: 167-317 s (x86_64), 242 s (arm64).
PB_LIMIT_BOOT_VERIFY=900
# make test-lpa2's KUnit boot (arm64, -cpu max): about 3 min.
PB_LIMIT_BOOT_LPA2=900
# make profile: one boot under gdb, which single-steps whole calls of one
# kernel function (a few seconds per call of a few thousand
# instructions); the default workload profiles a few hundred calls.
PB_LIMIT_PROFILE_GDB=1100
PB_LIMIT_BOOT_PROFILE=1200
# make fuzz: a boot's limit is its run (FUZZ_MIN) plus this, for the
# boot, the setup and the last trinity and stress-ng runs to end.
PB_LIMIT_FUZZ_SLACK=300
# Anything else qemu-run.sh boots without a limit of its own (the light
# "probe" plan of test-lpa2 has its own above).
PB_LIMIT_BOOT_DEFAULT=600

# pb_limit_boot PLAN [TIER]: the limit of one boot of PLAN.
pb_limit_boot() {
	case $1 in
	check) if [ "${2:-}" = gate ]; then echo "$PB_LIMIT_BOOT_GATE"; else echo "$PB_LIMIT_BOOT_CHECK"; fi ;;
	selftests) echo "$PB_LIMIT_BOOT_SELFTESTS" ;;
	bench | bench-quick) echo "$PB_LIMIT_BOOT_BENCH" ;;
	mmverify) echo "$PB_LIMIT_BOOT_VERIFY" ;;
	profile) echo "$PB_LIMIT_BOOT_PROFILE" ;;
	*) echo "$PB_LIMIT_BOOT_DEFAULT" ;;
	esac
}
