#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh "ARCHES" MINUTES [SEED]
# fuzz.sh --reports LOG | --compare PATCHED VANILLA | --summary LOG
#
# make fuzz: trinity and stress-ng (Debian's, workspace/fuzz-bin.sh)
# against the patched test kernel of each arch (the "fuzz" guest plan),
# MINUTES per arch in two boots: every mTHP size "always", then the sizes
# mixed (always, inherit, never).  Seeds are fixed: the first boot's
# trinity seeds start at SEED (default 1), the second's at SEED + 1000.
#
# A kernel report (WARN, BUG, Oops, KASAN, UBSAN, lockdep, page table
# check), a "not ok" line or a stress-ng round that failed or whose
# verification failed reruns the same boot (same arguments, seeds and
# stressors) on the vanilla test kernel: a report vanilla gives too is
# inherited (listed in build/fuzz/<arch>-inherited.txt with both logs)
# and does not fail the run; one only the patched kernel gives fails it.
# Logs under build/fuzz/; a summary per arch at the end: trinity seeds
# and syscalls, stress-ng rounds, bogo ops and verification, the
# counters that show the batched paths ran (swap-out of large folios,
# migrations, splits, x86 TLB flush events) and the reports.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCHES=${1:?arches}; MIN=${2:?minutes}; SEED=${3:-1}
OUT=$BUILD/fuzz
mkdir -p "$OUT"
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
# The fuzz guests: 1 GiB (two NUMA nodes of 512 MiB), 256 MiB of zram
# swap and stress-ng's vm working set of 128 MiB per round beside the
# other stressors and trinity: reclaim runs all the time.
export PB_MEM=${FUZZ_MEM:-1G}
ARGS_COMMON=${FUZZ_ARGS:-swap_mib=256,vm_mib=128,round=120}

# The kernel reports qemu-run.sh fails a boot on.
pat='WARNING: CPU|BUG:|Oops|Kernel panic|KASAN:|UBSAN:|possible recursive locking|circular locking dependency|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|Unable to handle kernel|general protection fault|page_table_check'

# reports LOG: one line per distinct report of LOG, without what differs
# between two runs of the same fault (addresses, PIDs, CPUs, times), and
# the plan's own failures.
reports() {
	{
		grep -E "$pat" "$1" |
			sed -E 's/^\[ *[0-9]+\.[0-9]+\] //; s/CPU: ?[0-9]+/CPU/g; s/PID: ?[0-9]+/PID/g;
				s/0x[0-9a-f]+(\/0x[0-9a-f]+)?//g; s/ +[0-9a-f]{8,16}\b//g;
				s/(task|by task) [^ ]+/\1/g; s/ +$//'
		grep -E '^not ok ' "$1"
		# A stressor that failed: its verification, or an operation
		# it checks (stress-ng's "fail:" lines).  A round's exit code
		# alone is not one: a stressor the OOM killer ended, or one
		# that skips for want of a kernel feature, gives rc 2 too.
		grep -E '^# FUZZ stress-ng round=[0-9]+ group=[ab]: .*fail: ' "$1" |
			sed -E 's/^# FUZZ stress-ng round=[0-9]+ group=([ab]): (stress-ng: )?fail: +(\[[0-9]+\] )?/stress-ng group \1: /'
	} | LC_ALL=C sort -u
}

# boot ARCH FLAVOUR KIND ARGS: one fuzz boot; the log's path on stdout.
boot() {
	local arch=$1 kernel=$BUILD/o/$1-$3-test/kernel.img log=$OUT/$1-$2-$3.log
	local secs=${4##*secs=}
	secs=${secs%%,*}
	"$REPO/workspace/qemu-run.sh" "$arch" "$kernel" "$BUILD/initramfs-fuzz-$arch.cpio.gz" \
		fuzz "$log" "$((secs + PB_LIMIT_FUZZ_SLACK))" "$4" >"$log.host" 2>&1
	echo "$log"
}

# compare PATCHED VANILLA: the reports of PATCHED's boot that vanilla's
# does not give ("new: ..."), and those it gives too ("inherited: ...").
compare() {
	LC_ALL=C comm -23 "$1" "$2" | sed 's/^/new: /'
	LC_ALL=C comm -12 "$1" "$2" | sed 's/^/inherited: /'
}

# summary LOG: what the boot did.
summary() {
	local log=$1
	echo "  trinity: $(grep -c '^# FUZZ trinity seed=[0-9]* rc=' "$log") runs, seeds $(sed -n 's/^# FUZZ trinity seeds=\([0-9-]*\).*/\1/p' "$log"), $(sed -n 's/^# FUZZ trinity seed=[0-9]* rc=[0-9]* syscalls=~\{0,1\}\([0-9]*\).*/\1/p' "$log" |
		awk '{ n += $1 } END { print n + 0 }') syscalls ($(grep -c '^# FUZZ trinity seed=[0-9]* rc=0 ' "$log") seeds ran to their count; the others were ended by their time limit)"
	echo "  stress-ng: $(grep -c '^# FUZZ stress-ng round=.* rc=' "$log") rounds, rc $(sed -n 's/^# FUZZ stress-ng round=.* rc=\([0-9]*\)$/\1/p' "$log" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')"
	# stress-ng's --metrics-brief: bogo ops per stressor, summed over rounds.
	grep -E '^# FUZZ stress-ng round=[0-9]+ group=[ab]: .*\] +[a-z0-9-]+ +[0-9]+ +[0-9.]+ ' "$log" |
		sed -E 's/.*\] +([a-z0-9-]+) +([0-9]+) .*/\1 \2/' |
		awk '{ ops[$1] += $2 } END { for (s in ops) printf "%s=%d\n", s, ops[s] }' | sort |
		paste -sd' ' | fold -s -w 96 | sed 's/^/  bogo ops: /'
	# The counters: end minus start.
	awk '/^# FUZZ counters (start|end)/ {
		pre = ""; i = 5
		if ($5 ~ /^mthp=/) { pre = $5 "."; i = 6 }
		for (; i <= NF; i++) {
			split($i, kv, "=")
			if ($4 == "start") s[pre kv[1]] = kv[2]; else e[pre kv[1]] = kv[2]
		}
	     }
	     END { for (k in e) printf "%s=%d\n", k, e[k] - s[k] }' "$log" |
		sort | grep -v '=0$' | paste -sd' ' | fold -s -w 96 | sed 's/^/  counters: /'
}

# For the tests (workspace/test_fuzz.sh): one function on its own.
case $ARCHES in
--reports) reports "$2"; exit ;;
--compare) compare "$2" "$3"; exit ;;
--summary) summary "$2"; exit ;;
esac

rc=0
for arch in $ARCHES; do
	half=$((MIN * 60 / 2))
	for flavour in all mixed; do
		seed=$SEED
		[ $flavour = mixed ] && seed=$((SEED + 1000))
		args="secs=$half,seed=$seed,mthp=$flavour,$ARGS_COMMON"
		echo "fuzz: $arch $flavour: $((half / 60)) min on the patched test kernel ($args)"
		log=$(boot "$arch" "$flavour" patched "$args")
		sed 's/^/  /' "$log.host" | grep -v '^  guest: .*ok in' | head -20
		summary "$log"
		reports "$log" >"$log.reports"
		if [ ! -s "$log.reports" ]; then
			echo "  reports: none"
			continue
		fi
		echo "  reports: $(wc -l <"$log.reports"), the same boot on vanilla:"
		sed 's/^/    patched: /' "$log.reports"
		if ! make -s -C "$REPO" vanilla ARCHES="$arch" VARIANT=test; then
			echo "fuzz: $arch: cannot build the vanilla test kernel"
			rc=1
			continue
		fi
		vlog=$(boot "$arch" "$flavour" vanilla "$args")
		reports "$vlog" >"$vlog.reports"
		sed 's/^/    vanilla: /' "$vlog.reports"
		compare "$log.reports" "$vlog.reports" >"$log.compare"
		new=$(sed -n 's/^new: //p' "$log.compare")
		old=$(sed -n 's/^inherited: //p' "$log.compare")
		if [ -n "$old" ]; then
			{
				echo "$arch $flavour ($args): inherited, vanilla gives it too"
				echo "$old" | sed 's/^/  /'
				echo "  patched log: $log"
				echo "  vanilla log: $vlog"
			} >>"$OUT/$arch-inherited.txt"
			echo "  inherited (vanilla too): $(echo "$old" | wc -l), in $OUT/$arch-inherited.txt"
		fi
		if [ -n "$new" ]; then
			echo "  FAIL: only the patched kernel gives:"
			echo "$new" | sed 's/^/    /'
			rc=1
		fi
	done
done
exit $rc
