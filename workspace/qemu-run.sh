#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh ARCH KERNEL INITRD PLAN LOG [TIMEOUT] [PBARGS]
#
# Boot KERNEL with INITRD under QEMU, run the guest plan PLAN, keep the
# console log in LOG and judge it: the run passes when the plan ended with
# rc=0, no KTAP line says "not ok", and the kernel printed no WARN, BUG,
# Oops, KASAN, UBSAN or lockdep report.  Every boot has a timeout.
#
# The accelerator is TCG unless KVM works: on x86_64 with a usable
# /dev/kvm a short probe boot decides once per kernel (PB_ACCEL=tcg|kvm
# forces it).  The choice is written to LOG.accel.
#
# PB_ICOUNT=N runs TCG with -icount shift=N: the guest's clocks then
# advance 2^N ns per guest instruction executed, whatever the host does,
# so a time measured in the guest counts instructions (no caches, TLBs or
# memory latency).  Such a guest has one vCPU: with two, QEMU runs them in
# turn and guests stalled in stop_machine() while booting.
#
# A guest has two vCPUs, on NUMA node 0 (x86_64: in turn on node 0 and
# node 1; riscv64: half of them, rounded down, on node 0 and the rest on
# node 1); the "selftests" plan has three
# (the mm selftest "migration" needs three CPUs to run at all).  PB_SMP=N
# gives it N.  Under -icount a guest has one (on riscv64 also one NUMA
# node).
#
# PB_GDB=PORT opens QEMU's gdbstub on PORT and boots without KASLR, for
# workspace/icount-profile.sh to single-step the guest kernel.
#
# PB_TLBCOUNT=1 (TCG only) loads the tlbcount plugin (workspace/tlbcount.c,
# built by workspace/qemu-plugin.sh), boots without KASLR so that the
# function addresses it counts calls of come from the kernel's System.map,
# and appends its PB-TLBCOUNT lines (LOG.tlb) to LOG; workspace/tlbcount.py
# then checks that every counted region has its counts and that the known
# counts (pb_bench unmap1) are exact.  PB_TLBPROF=1 also has it profile
# each region, instructions per kernel function (map=System.map), into
# LOG.prof: workspace/tlbprof.py compares two such boots.
#
# Built-in KUnit suites run at boot only for the "check" plan (or with
# PB_KUNIT=1): under TCG the pgtable_batch suite alone takes 25 s on
# x86_64 and 80 s on arm64, which every other boot would pay for nothing.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCH=${1:?arch}; KERNEL=${2:?kernel}; INITRD=${3:?initrd}; PLAN=${4:?plan}
# shellcheck source=workspace/limits.sh
. "$REPO/workspace/limits.sh"
LOG=$(realpath -m "${5:?log}"); TIMEOUT=${6:-$(pb_limit_boot "$PLAN")}; ARGS=${7:-}
MEM=${PB_MEM:-2G}
icount=		# PB_ICOUNT, once TCG is chosen (the KVM probe boot never has it)
tlbcount=	# the -plugin argument, with PB_TLBCOUNT under TCG

mkdir -p "$(dirname "$LOG")"
# The disk image of the boot under way, removed however the script ends.
disk_file=
trap '[ -z "$disk_file" ] || rm -f "$disk_file"' EXIT

qemu_cmd() {	# accel -> the QEMU command line, one word per line
	case $ARCH in
	x86_64)
		echo qemu-system-x86_64
		echo -M; echo q35
		if [ "$1" = kvm ]; then echo -enable-kvm; echo -cpu; echo host
		else echo -cpu; echo qemu64; fi
		;;
	arm64)
		echo qemu-system-aarch64
		echo -M; echo virt,gic-version=3
		echo -cpu; echo max,pauth-impdef=on
		;;
	riscv64)
		# OpenSBI (qemu-system-misc's opensbi) as the firmware.
		echo qemu-system-riscv64
		echo -M; echo virt
		echo -bios; echo default
		;;
	esac
}

tsc_khz() {	# the host's TSC frequency in kHz, or nothing off x86
	local bin=$BUILD/tsc-khz src=$REPO/workspace/tsc-khz.c
	[ "$(uname -m)" = x86_64 ] || return 0
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		gcc -O2 -Wall -o "$bin.$$" "$src" && mv "$bin.$$" "$bin" || return 0
	fi
	"$bin"
}

mem_half() {	# half of MEM (e.g. 2G), in MiB
	local m=${MEM%[GgMm]}
	case $MEM in *[Gg]) m=$((m * 1024)) ;; esac
	echo "$((m / 2))M"
}

vcpus() {	# plan -> the number of vCPUs its guest gets
	if [ "$1" = selftests ]; then echo "${PB_SMP:-3}"; else echo "${PB_SMP:-2}"; fi
}

boot() {	# accel plan log timeout
	local accel=$1 plan=$2 log=$3 t=$4 cmd console kunit= extra= khz disk
	# The x86_64 kernels have no ACPI: they find the CPUs in SeaBIOS's MP
	# table, which lists one CPU per socket.  QEMU puts two CPUs in one
	# socket by default, so ask for two sockets or the guest runs on one.
	local n smp
	n=$(vcpus "$plan")
	smp=$n
	case $ARCH in x86_64) console=ttyS0 smp=$n,sockets=$n,cores=1,threads=1 ;; arm64) console=ttyAMA0 ;; riscv64) console=ttyS0 ;; esac
	[ -n "$icount" ] && smp=1
	[ "$plan" = check ] || [ "${PB_KUNIT:-0}" = 1 ] || kunit=" kunit.enable=0"
	# Under TCG an x86_64 guest reads the host's TSC.  Tell it the rate:
	# it has no HPET or PM timer (no ACPI), and when its PIT calibration
	# fails, as it does on a loaded host, it falls back to jiffies and
	# every time it measures is quantized to 4 ms.
	# Under icount the TSC follows the virtual clock, and so does the PIT
	# the guest calibrates it with; tsc=reliable still keeps the guest
	# from marking the TSC unstable (it did so with two vCPUs).
	if [ "$ARCH" = x86_64 ] && [ "$accel" = tcg ]; then
		if [ -n "$icount" ]; then
			extra=" tsc=reliable"
		else
			khz=$(tsc_khz)
			[ -n "$khz" ] && extra=" tsc_early_khz=$khz tsc=reliable"
		fi
	fi
	mapfile -t cmd < <(qemu_cmd "$accel")
	# Two NUMA nodes, half the memory each, the CPUs on node 0: arm64 and
	# riscv64 read them from the device tree QEMU builds; the x86_64 kernels
	# have no ACPI to read QEMU's SRAT from and split their memory in two
	# with NUMA emulation instead, which gives the CPUs to the nodes in
	# turn (CPU 0 on node 0, CPU 1 on node 1).
	# QEMU's riscv64 virt machine makes each node a socket and refuses a
	# socket without harts, and QEMU 7.2 aborts when the first socket has
	# more harts than the second ("unnamed-gpio-out[N] not found"): there
	# node 0 gets half the CPUs, rounded down, and node 1 the rest.  Under
	# -icount, where a guest has one vCPU (with two, the riscv64 guest
	# stalled early in boot), it has one node and no migration points.
	local n=${smp%%,*} last cpus1=
	last=$((n - 1))
	if [ "$ARCH" = riscv64 ]; then
		last=$((n / 2 - 1))
		cpus1=",cpus=$((n / 2))-$((n - 1))"
	fi
	if [ "$ARCH" = x86_64 ]; then
		extra+=" numa=fake=2"
	elif [ "$ARCH" = arm64 ] || [ "$n" -gt 1 ]; then
		cmd+=(-object "memory-backend-ram,id=pbm0,size=$(mem_half)"
		      -object "memory-backend-ram,id=pbm1,size=$(mem_half)"
		      -numa "node,nodeid=0,cpus=0-$last,memdev=pbm0"
		      -numa "node,nodeid=1$cpus1,memdev=pbm1")
	fi
	# A fresh ext4 file system on a virtio disk (/dev/vda) for the
	# writeback tests and benchmark, on x86_64 and arm64 (PB_DISK=0: none):
	# made by mkfs.ext4 on the host for every boot, sparse, removed after.
	disk=
	if [ "${PB_DISK:-1}" != 0 ] && [ "$plan" != probe ] &&
	   { [ "$ARCH" = x86_64 ] || [ "$ARCH" = arm64 ]; }; then
		disk=$log.ext4
		rm -f "$disk"
		if truncate -s "${PB_DISK_MIB:-1024}M" "$disk" &&
		   PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F "$disk"; then
			local dev=virtio-blk-pci
			[ "$ARCH" = arm64 ] && dev=virtio-blk-device
			disk_file=$disk
			cmd+=(-drive "file=$disk,format=raw,if=none,id=pbdisk,cache=unsafe"
			      -device "$dev,drive=pbdisk")
		else
			echo "qemu-run: cannot make the ext4 disk $disk" >&2
			rm -f "$disk"
			disk=
		fi
	fi
	[ -n "$icount" ] && cmd+=(-icount "shift=$icount,align=off,sleep=off")
	[ -n "${PB_GDB:-}" ] && cmd+=(-gdb "tcp:127.0.0.1:$PB_GDB")
	[ -n "$tlbcount" ] && cmd+=(-plugin "$tlbcount")
	# Both read function addresses from System.map.
	[ -n "${PB_GDB:-}$tlbcount" ] && extra+=" nokaslr"
	timeout -k 5 "$t" "${cmd[@]}" -smp "$smp" -m "$MEM" -nographic -monitor none \
		-no-reboot -kernel "$KERNEL" -initrd "$INITRD" \
		-append "console=$console panic=-1 loglevel=7$kunit$extra pbplan=$plan pbargs=$ARGS" \
		</dev/null >"$log" 2>&1
	local r=$?
	[ -n "$disk" ] && rm -f "$disk"
	return $r
}

accel=${PB_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	if [ "$ARCH" = x86_64 ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		key=$(sha1sum "$KERNEL" | cut -c1-12)
		cache=$BUILD/accel/$key
		if [ ! -f "$cache" ]; then
			mkdir -p "$BUILD/accel"
			# A guest that hangs under KVM must not hang the run.
			if boot kvm probe "$cache.log" "$PB_LIMIT_KVM_PROBE" && grep -q '^PB-END rc=0' "$cache.log"; then
				echo kvm >"$cache"
			else
				echo tcg >"$cache"
			fi
		fi
		accel=$(cat "$cache")
	fi
fi
label=$accel
if [ "$accel" = tcg ] && [ -n "${PB_ICOUNT:-}" ]; then
	icount=$PB_ICOUNT
	label="tcg, icount shift=$icount"
fi
# The functions whose calls the plugin counts, per arch: contpte
# conversions (fold or unfold) and unfolds on arm64, flush IPI rounds and
# flush function runs (local and remote) and kernel page flushes on x86_64.
tlbcount_fns() {
	local map=$1 f addr
	case $ARCH in
	arm64) set -- contpte_convert __contpte_try_unfold __contpte_try_fold ;;
	x86_64) set -- native_flush_tlb_multi flush_tlb_func flush_tlb_one_kernel ;;
	*) set -- ;;
	esac
	for f; do
		addr=$(awk -v f="$f" '$3 == f { print $1; exit }' "$map")
		[ -n "$addr" ] && printf ',fn=%s:0x%s' "$f" "$addr"
	done
}
if [ "$accel" = tcg ] && [ "${PB_TLBCOUNT:-0}" = 1 ]; then
	flock "$BUILD/qemu-plugin.lock" "$REPO/workspace/qemu-plugin.sh" "$BUILD/tlbcount.so" ||
		{ echo "guest: $ARCH $PLAN: cannot build the tlbcount plugin" >&2; exit 1; }
	rm -f "$LOG.tlb"
	tlbcount="$BUILD/tlbcount.so,out=$LOG.tlb"
	map=$(dirname "$KERNEL")/System.map
	[ -f "$map" ] && tlbcount+=$(tlbcount_fns "$map")
	if [ "${PB_TLBPROF:-0}" = 1 ] && [ -f "$map" ]; then
		rm -f "$LOG.prof"
		tlbcount+=",map=$map,prof=$LOG.prof"
	fi
	label+=", tlbcount"
fi
echo "$label" >"$LOG.accel"

start=$(date +%s)
boot "$accel" "$PLAN" "$LOG" "$TIMEOUT"
qrc=$?
secs=$(($(date +%s) - start))
tr -d '\r' <"$LOG" >"$LOG.tmp" && mv "$LOG.tmp" "$LOG"
[ -n "$tlbcount" ] && [ -f "$LOG.tlb" ] && cat "$LOG.tlb" >>"$LOG"

fail=()
[ $qrc -eq 124 ] || [ $qrc -eq 137 ] && fail+=("timeout after ${TIMEOUT}s")
end=$(sed -n 's/^PB-END rc=\([0-9]*\).*/\1/p' "$LOG" | tail -1)
[ -z "$end" ] && fail+=("the plan did not finish (no PB-END)")
[ -n "$end" ] && [ "$end" != 0 ] && fail+=("the plan exited with rc=$end")
# The tests race threads on two CPUs (the selftests on three) and count
# flush IPIs: a guest that came up with fewer did not test what it claims
# to.
cpus=$(sed -n 's/^PB-BEGIN .*cpus=\([0-9]*\).*/\1/p' "$LOG" | head -1)
want_cpus=$(vcpus "$PLAN")
[ -n "$icount" ] && want_cpus=1
[ -n "$cpus" ] && [ "$cpus" != $want_cpus ] && fail+=("the guest runs on $cpus CPU(s), not $want_cpus")
pat='WARNING: CPU|------------\[ cut here \]|BUG:|Oops|Kernel panic|KASAN:|UBSAN:|possible recursive locking|circular locking dependency|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|Unable to handle kernel|general protection fault|page_table_check'
if grep -Eq "$pat" "$LOG"; then
	fail+=("kernel report: $(grep -Em1 "$pat" "$LOG")")
fi
# KTAP from userspace, or from KUnit behind a printk timestamp.
notok='^(\[ *[0-9]+\.[0-9]+\] )?[[:space:]]*not ok '
if grep -Eq "$notok" "$LOG"; then
	fail+=("$(grep -Ec "$notok" "$LOG") KTAP 'not ok' line(s), first: $(grep -Em1 "$notok" "$LOG")")
fi
if grep -Eq '^# Totals: .*fail:[1-9]' "$LOG"; then
	fail+=("kselftest totals report failures")
fi
# The KUnit results once more, read by the kernel's own parser
# (tools/testing/kunit/kunit.py parse, from the tree): it also sees a case
# that crashed or never reported, which the "not ok" grep above cannot.
# It exits 0 on errors; its summary line says them.
kunit_py=${TREE:-$BUILD/tree}/tools/testing/kunit/kunit.py
if grep -Eq '^\[ *[0-9]+\.[0-9]+\] KTAP version' "$LOG" && [ -f "$kunit_py" ]; then
	kres=$(cd "$(dirname "$kunit_py")" && timeout 120 python3 ./kunit.py parse "$LOG" 2>&1 |
		sed -n 's/.*Testing complete\. //p' | tail -1)
	if [ -z "$kres" ]; then
		fail+=("kunit.py parse found no KUnit result")
	elif grep -Eq '(failed|crashed|errors): [1-9]' <<<"$kres"; then
		fail+=("kunit.py parse: $kres")
	else
		echo "guest: $ARCH $PLAN KUnit (kunit.py parse): $kres"
	fi
fi

if [ -n "$tlbcount" ] && ! tlbfail=$("$REPO/workspace/tlbcount.py" check "$LOG"); then
	fail+=("tlbcount: $tlbfail")
fi

if [ ${#fail[@]} -gt 0 ]; then
	echo "guest: $ARCH $PLAN FAILED after ${secs}s ($label), log: $LOG"
	printf '  - %s\n' "${fail[@]}"
	exit 1
fi
echo "guest: $ARCH $PLAN ok in ${secs}s ($label), log: $LOG"
