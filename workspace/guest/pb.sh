# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest plan scripts (busybox sh).  Source it.

# pb_arg KEY DEFAULT: value of KEY in pbargs=k=v,k=v, or DEFAULT.
pb_arg() {
	local v
	v=$(echo ",$PBARGS," | tr ',' '\n' | sed -n "s/^$1=//p" | tail -1)
	echo "${v:-$2}"
}

# pb_swap_off: remove the zram swap device, if any.
pb_swap_off() {
	if grep -q '^/dev/zram0' /proc/swaps; then
		swapoff /dev/zram0 || return 1
	fi
	[ -e /sys/block/zram0/reset ] && echo 1 >/sys/block/zram0/reset
	return 0
}

# pb_swap_on MIB: (re)create zram0 with lz4 and MIB of swap on it.
pb_swap_on() {
	pb_swap_off || return 1
	[ -e /sys/block/zram0 ] || cat /sys/class/zram-control/hot_add >/dev/null 2>&1
	[ -e /sys/block/zram0 ] || { echo "# no zram device"; return 1; }
	echo lz4 >/sys/block/zram0/comp_algorithm 2>/dev/null
	echo "$1M" >/sys/block/zram0/disksize || return 1
	mkswap /dev/zram0 >/dev/null || return 1
	swapon /dev/zram0
}

# pb_mthp_only SIZE_KB: enable only the mTHP size SIZE_KB ("always"),
# every other size "never".  4 turns all large folios off.  2048 uses
# the PMD size, which has its own hugepages-2048kB entry.
pb_mthp_only() {
	local d s
	for d in /sys/kernel/mm/transparent_hugepage/hugepages-*kB; do
		[ -d "$d" ] || continue
		s=${d##*hugepages-}; s=${s%kB}
		if [ "$s" = "$1" ]; then
			echo always >"$d/enabled"
		else
			echo never >"$d/enabled"
		fi
	done
	if [ "$1" != 4 ] && [ ! -d "/sys/kernel/mm/transparent_hugepage/hugepages-${1}kB" ]; then
		echo "# mTHP size ${1}kB not offered by this kernel"
		return 1
	fi
	return 0
}

# pb_mthp_sizes: the mTHP sizes (kB) this kernel offers, ascending.
pb_mthp_sizes() {
	ls -d /sys/kernel/mm/transparent_hugepage/hugepages-*kB 2>/dev/null |
		sed 's/.*hugepages-\([0-9]*\)kB/\1/' | sort -n
}

# pb_bench_env TAG: the bench kernels' runtime setting, printed as
# "# TAG ..." lines.  The plan's shell (and so every workload it starts)
# moves into a non-root memory cgroup, as systemd runs every service and
# session, where the kernel has the memory controller (the distribution-
# like bench kernels; the tinyconfig ones have no cgroups).  NUMA
# balancing, built in and on by default there as in Debian, is turned off
# for the measurement unless pbargs has numa_balancing=1: its scanner
# would unmap and migrate the pages the workloads are measured on.
pb_bench_env() {
	local cg=/sys/fs/cgroup
	if grep -qw cgroup2 /proc/filesystems; then
		mkdir -p $cg
		mount -t cgroup2 cgroup2 $cg 2>/dev/null
		if grep -qw memory $cg/cgroup.controllers 2>/dev/null; then
			echo +memory >$cg/cgroup.subtree_control &&
				mkdir -p $cg/pb && echo $$ >$cg/pb/cgroup.procs ||
				{ echo "# $1 cgroup: cannot enter $cg/pb"; return 1; }
			echo "# $1 cgroup: $(cat /proc/self/cgroup) (memory controller on)"
		else
			echo "# $1 cgroup: none (no memory controller)"
		fi
	else
		echo "# $1 cgroup: none (no cgroup2)"
	fi
	# Page table isolation (x86_64 PTI, arm64 KPTI) doubles the user
	# address space's TLB maintenance where it is on.
	[ -r /sys/devices/system/cpu/vulnerabilities/meltdown ] &&
		echo "# $1 meltdown: $(cat /sys/devices/system/cpu/vulnerabilities/meltdown)"
	if [ -w /proc/sys/kernel/numa_balancing ]; then
		echo "$(pb_arg numa_balancing 0)" >/proc/sys/kernel/numa_balancing
		echo "# $1 numa_balancing: $(cat /proc/sys/kernel/numa_balancing)"
	fi
	return 0
}

# pb_disk DIR: mount the ext4 disk that qemu-run.sh attaches (a fresh
# file system per boot, on /dev/vda) at DIR.  Fails when there is none.
pb_disk() {
	[ -b /dev/vda ] || { echo "# no disk: /dev/vda missing"; return 1; }
	mkdir -p "$1"
	grep -q " $1 " /proc/mounts || mount -t ext4 /dev/vda "$1"
}
