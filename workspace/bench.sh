#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--quick]
#
# The seed benchmarks, vanilla 7.3 against the patched tree, on every arch
# of $ARCHES.  Builds both kernels (variant $VARIANT, "bench" by default:
# no debug options, built as Debian builds its kernels; BENCH_CONFIG=tiny
# for the tinyconfig-based ones), then boots them alternately (vanilla,
# patched, vanilla, patched, ...) so that drift of the host hits both,
# runs the "bench" guest plan (or "bench-quick") in each boot, and hands every
# console log to bench.py for the statistics, the report and the plot.
#
# Each kernel boots $BOOTS times (4 by default, 2 with QUICK=1); the plan
# divides its run counts by that (boots=N in pbargs) and bench.py pools
# the runs of all boots.  Under TCG the boot-to-boot drift is as large as
# the run-to-run spread, so the more alternations the better.
# Per boot: build/bench/logs/<arch>-<kernel>-<boot>.log and .meta.json.
#
# AA=1 runs an A/A calibration instead, into build/bench-aa/: the second
# kernel is vanilla again, with workspace/bench-aa-layout.patch (1 KiB of
# text that never runs, in mm/rmap.c).  Both kernels do exactly the same
# work; a ratio away from 1 is what the image layout and the host's drift
# alone do to the method under emulation.
#
# KERNELS=patched boots only the patched kernels (make check's smoke run,
# on the test kernels it has built anyway): the plan runs, and bench.py
# fails if a counter shows that a run did not take its path.  There are no
# ratios without vanilla.  With BENCH_BUILT=1 it boots the kernels and
# initramfs that are there without a make (make check, whose lint may
# still be compiling in the same O= directories).
#
# ICOUNT=N boots the guests with QEMU's -icount shift=N (qemu-run.sh), into
# build/bench-icount/ (build/bench-aa-icount/ with AA=1): every time the
# guest measures is then its instruction count times 2^N ns, free of the
# host's load and the emulator's costs, and blind to what instructions
# cost on hardware (caches, TLB misses, barriers).
#
# With ICOUNT= every boot loads the tlbcount plugin (qemu-run.sh
# PB_TLBCOUNT=1; TLBCOUNT=0 leaves it out, TLBCOUNT=1 loads it in timed
# runs too): the plan's -t points count the TLB maintenance instructions
# of one untimed run each, and the known count (pb_bench unmap1) must
# come out exact or the boot fails.  Not by default in timed runs: its
# callbacks run on the very instructions the series removes (TLBI, DSB),
# which would slow the vanilla kernel more than the patched one under
# TCG; the instruction counts of -icount do not see them.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCHES=${ARCHES:-x86_64 arm64}
quick=0
[ "${1:-}" = --quick ] && quick=1
# BENCH_CONFIG=tiny: the tinyconfig-based bench kernels (-Os) of the
# earlier tables, for comparison; the default is the distribution-like
# one (workspace/configs/distro.config).
case ${BENCH_CONFIG:-distro} in
distro) bench_variant=bench ;;
tiny) bench_variant=bench-tiny ;;
*) echo "bench: BENCH_CONFIG is distro or tiny, not \"$BENCH_CONFIG\"" >&2; exit 2 ;;
esac
if [ $quick = 1 ]; then
	VARIANT=${VARIANT:-$bench_variant}; PLAN=bench-quick; BOOTS=${BOOTS:-2}
else
	VARIANT=${VARIANT:-$bench_variant}; PLAN=bench; BOOTS=${BOOTS:-4}
fi
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
TIMEOUT=${TIMEOUT:-$PB_LIMIT_BOOT_BENCH}
AA=${AA:-0}
ICOUNT=${ICOUNT:-}
OUT=$BUILD/bench
second=patched
if [ "$AA" = 1 ]; then
	OUT=$BUILD/bench-aa
	second=aa
fi
export PB_TLBCOUNT=${TLBCOUNT:-0}
if [ -n "$ICOUNT" ]; then
	export PB_TLBCOUNT=${TLBCOUNT:-1}
	OUT=$OUT-icount
	export PB_ICOUNT=$ICOUNT
fi
KERNELS=${KERNELS:-vanilla $second}
case $KERNELS in
patched) OUT=$OUT-patched ;;
"vanilla $second") ;;
*) echo "bench: KERNELS is \"vanilla $second\" or \"patched\", not \"$KERNELS\"" >&2; exit 2 ;;
esac
LOGS=$OUT/logs

t0=$(date +%s)
elapsed() { local s=$(($(date +%s) - t0)); printf '%d:%02d' $((s / 60)) $((s % 60)); }
say() { printf '[%s] bench: %s\n' "$(elapsed)" "$*"; }

say "building kernels ($VARIANT) for $ARCHES: ${KERNELS/ / and }"
if [ "$KERNELS" = patched ] && [ "${BENCH_BUILT:-0}" = 1 ]; then
	for arch in $ARCHES; do
		for f in "$BUILD/o/$arch-patched-$VARIANT/kernel.img" "$BUILD/initramfs-$arch.cpio.gz"; do
			[ -f "$f" ] || { say "BENCH_BUILT=1 but no $f"; exit 1; }
		done
	done
elif [ "$KERNELS" = patched ]; then
	make -s -C "$REPO" patched initramfs VARIANT="$VARIANT" ARCHES="$ARCHES"
elif [ "$AA" = 1 ]; then
	make -s -C "$REPO" vanilla initramfs VARIANT="$VARIANT" ARCHES="$ARCHES"
	# The layout variant of vanilla, in a worktree of the base.
	wt=$BUILD/aa-tree
	"$REPO/workspace/patched-worktree.sh" "$BUILD/base" "$wt" \
		"$REPO/workspace/bench-aa-layout.patch"
	for arch in $ARCHES; do
		"$REPO/workspace/progress.py" run --key "kernel-$arch-aa-$VARIANT" \
			--label "kernel $arch aa $VARIANT" --lock "$BUILD/cpu.lock" \
			--objects "$BUILD/o/$arch-aa-$VARIANT" -- \
			"$REPO/workspace/kbuild.sh" "$arch" "$VARIANT" "$wt" "$BUILD/o/$arch-aa-$VARIANT"
	done
else
	make -s -C "$REPO" vanilla patched initramfs VARIANT="$VARIANT" ARCHES="$ARCHES"
fi

# The kernel configuration a boot measured, in the options that matter
# here (the report prints it beside each kernel).
kconfig_summary() {
	local c=$1 opt pre model thp
	opt=-O2
	grep -q '^CONFIG_CC_OPTIMIZE_FOR_SIZE=y' "$c" && opt=-Os
	model=$(sed -n 's/^CONFIG_PREEMPT\(_NONE\|_VOLUNTARY\|_LAZY\|\)=y/\1/p' "$c" | head -1)
	pre=preempt${model:-?}; pre=${pre/preempt_/preempt-}; pre=${pre,,}
	thp=$(sed -n 's/^CONFIG_TRANSPARENT_HUGEPAGE_\(ALWAYS\|MADVISE\|NEVER\)=y/\1/p' "$c")
	printf '%s %s, %s, %s, HZ=%s, NR_CPUS=%s, THP %s%s%s%s%s' \
		"$VARIANT" "$([ "$VARIANT" = bench ] && echo "(distribution-like)" ||
			echo "(tinyconfig-based)")" "$opt" \
		"$(grep -q '^CONFIG_SLUB_TINY=y' "$c" && echo SLUB_TINY || echo SLUB)" \
		"$(sed -n 's/^CONFIG_HZ=//p' "$c")" "$(sed -n 's/^CONFIG_NR_CPUS=//p' "$c")" \
		"${thp,,}" ", $pre" \
		"$(grep -q '^CONFIG_MEMCG=y' "$c" && echo ", MEMCG" || echo ", no MEMCG")" \
		"$(grep -q '^CONFIG_NUMA_BALANCING=y' "$c" && echo ", NUMA_BALANCING")" \
		"$(grep -q '^CONFIG_LRU_GEN_ENABLED=y' "$c" && echo ", LRU_GEN")"
}

# The distribution-like fragments against Debian's configuration.
if [ "$VARIANT" = bench ]; then
	"$REPO/workspace/distro-config.sh" "$ARCHES"
fi

rm -rf "$LOGS" && mkdir -p "$LOGS"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
# Each boot runs under progress.py, which streams the plan's PB-PROGRESS
# lines and estimates the time left for this boot and all that follow from
# the times of the same boots in the last run (build/progress/times.json).
keys=()
for arch in $ARCHES; do
	for b in $(seq 1 "$BOOTS"); do
		for kind in $KERNELS; do
			keys+=("guest-$arch-$kind-$VARIANT-$PLAN-b$BOOTS${ICOUNT:+-icount$ICOUNT}")
		done
	done
done
nboots=${#keys[@]}
i=0
declare -A took
for arch in $ARCHES; do
	for b in $(seq 1 "$BOOTS"); do
		for kind in $KERNELS; do
			i=$((i + 1))
			key=$arch-$kind
			log=$LOGS/$arch-$kind-$b.log
			kernel=$BUILD/o/$arch-$kind-$VARIANT/kernel.img
			s=$(date +%s)
			rc=0
			"$REPO/workspace/progress.py" run --key "${keys[i - 1]}" \
				--label "boot $i/$nboots, $arch $kind #$b" \
				--then "$(IFS=,; echo "${keys[*]:i}")" --follow "$log" -- \
				"$REPO/workspace/qemu-run.sh" "$arch" "$kernel" "$BUILD/initramfs-$arch.cpio.gz" \
				"$PLAN" "$log" "$TIMEOUT" "boots=$BOOTS${PBARGS:+,$PBARGS}" || rc=$?
			took[$key]=$(($(date +%s) - s))
			release=$(cat "$BUILD/o/$arch-$kind-$VARIANT/include/config/kernel.release")
			config=$(kconfig_summary "$BUILD/o/$arch-$kind-$VARIANT/.config")
			cat >"$log.meta.json" <<-META
			{"arch": "$arch", "kernel": "$kind", "boot": $b, "plan": "$PLAN",
			 "variant": "$VARIANT", "accel": "$(cat "$log.accel")",
			 "release": "$release", "config": "$config",
			 "host_cpu": "$cpu", "quick": $quick,
			 "seconds": ${took[$key]}, "rc": $rc}
			META
			[ $rc = 0 ] || { say "boot failed: $log"; exit 1; }
		done
	done
done

say "statistics"
if [ "$AA" = 1 ]; then
	# bench.py compares "vanilla" with "patched": label the layout
	# variant as the second kernel.
	args=()
	for log in "$LOGS"/*.log; do
		IFS=- read -r arch kind b <<<"$(basename "$log" .log)"
		[ "$kind" = aa ] && kind=patched
		args+=("$arch:$kind:$b:$log")
	done
	"$REPO/workspace/bench.py" --aa --out "$OUT" "${args[@]}"
else
	check=
	[ "$KERNELS" = patched ] && check=--check-counters
	# GOALS=1: fail below the icount no-regression goals (make check-full).
	[ -n "${GOALS:-}" ] && check="$check --goals"
	"$REPO/workspace/bench.py" $check --out "$OUT" "$LOGS"/*.log
fi
say "done in $(elapsed) ($nboots boots): report, JSON and plot in $OUT"
