#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the workspace needs on a Debian 12 host, idempotently.
# Takes no time when everything is present.  The archive URI and keyring
# come from the machine's own apt sources; nothing here names a host.
set -euo pipefail

STAMP_DIR=${BUILD:-build}/stamps
mkdir -p "$STAMP_DIR"

# libcap-dev: the host build of the tree's mm selftests (make kselftest
# TARGETS=mm: memfd_secret and mlock-random-test include sys/capability.h).
# e2fsprogs: mkfs.ext4 for the guests' disk (qemu-run.sh).
PKGS_HOST="build-essential flex bison bc libelf-dev libssl-dev cpio ccache
rsync xz-utils git python3 python3-matplotlib python3-ply python3-git
python3-sphinx python3-sphinx-rtd-theme python3-yaml perl kmod
gcc-aarch64-linux-gnu libc6-dev-arm64-cross
qemu-system-x86 qemu-system-arm busybox-static coccinelle
libasan8 libubsan1 zstd gdb-multiarch libnuma-dev libnuma-dev:arm64
libcap-dev e2fsprogs"
# riscv64 (not in the default ARCHES): the cross compiler and its C library
# (a Recommends of the compiler, which apt may leave out), and QEMU with
# its OpenSBI firmware.
case " ${ARCHES:-} " in
*" riscv64 "*) PKGS_HOST="$PKGS_HOST gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-system-misc" ;;
esac

have_all() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || return 1
	done
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Print "URI KEYRING" of the stanza that serves the plain bookworm suite.
archive_source() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			uri = ""; key = ""; ok = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); split($i, u, " "); uri = u[1] }
				if ($i ~ /^Signed-By:/) { sub(/^Signed-By:[ \t]*/, "", $i); key = $i }
				if ($i ~ /^Suites:/) { n = split($i, s, " "); for (j = 2; j <= n; j++) if (s[j] == "bookworm") ok = 1 }
			}
			if (ok && uri != "") { print uri, (key == "" ? "-" : key); exit }
		}' "$f" && return 0
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			uri = ""; key = "-"
			for (i = 2; i <= NF; i++) {
				if ($i ~ /^\[/ || opt) { opt = ($i !~ /\]$/); if ($i ~ /signed-by=/) { key = $i; sub(/.*signed-by=/, "", key); sub(/\]$/, "", key) } continue }
				if (uri == "") { uri = $i; continue }
				if ($i == "bookworm") { print uri, key; exit }
				break
			}
		}' "$f"
	done | head -1
}

# deps.sh --archive-source: print "URI KEYRING" and stop (base.sh's riscv64
# download uses the same archive).
if [ "${1:-}" = --archive-source ]; then
	archive_source
	exit 0
fi

add_suite() {
	local suite=$1 types=$2 file=/etc/apt/sources.list.d/pgtable-batch-$1.sources
	local src uri key
	[ -f "$file" ] && grep -q "^Types: $types\$" "$file" && return 0
	src=$(archive_source)
	[ -n "$src" ] || { echo "deps: no bookworm entry in the apt sources" >&2; exit 1; }
	uri=${src%% *}
	key=${src#* }
	{
		echo "Types: $types"
		echo "URIs: $uri"
		echo "Suites: $suite"
		echo "Components: main"
		[ "$key" != "-" ] && echo "Signed-By: $key"
	} | as_root tee "$file" >/dev/null
	# Nothing from these suites is installed unless asked for by name.
	printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$suite" |
		as_root tee "/etc/apt/preferences.d/pgtable-batch-$suite" >/dev/null
	echo updated >"$STAMP_DIR/apt-need-update"
}

need_update=0
if ! have_all $PKGS_HOST; then
	need_update=1
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	as_root dpkg --add-architecture arm64
	need_update=1
fi
add_suite trixie-backports deb
add_suite sid deb-src
[ -f "$STAMP_DIR/apt-need-update" ] && need_update=1

if [ "$need_update" = 1 ]; then
	echo "deps: apt-get update"
	as_root apt-get update -qq
	rm -f "$STAMP_DIR/apt-need-update"
fi
if ! have_all $PKGS_HOST; then
	echo "deps: installing host packages"
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $PKGS_HOST
fi
