#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-plugin.sh OUT.so
#
# Build the tlbcount TCG plugin (workspace/tlbcount.c) for the QEMU this
# host runs.  A plugin must be compiled against the plugin API header of
# that QEMU's version, which Debian ships only in its source package: the
# header comes from the source package of the installed qemu-system-x86's
# exact version, fetched with apt-get into build/apt-src (a private apt
# state with deb-src entries made from the machine's own bookworm sources;
# the system's apt configuration is not touched).  The header comes from
# the upstream (orig) tarball, so when that exact Debian revision is no
# longer in the archive another revision of the same upstream version
# serves.  Debian's patches to the header, if any, stop the build (7.2's
# have none).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
OUT=${1:?output .so}
SRC=$REPO/workspace/tlbcount.c
DIR=$BUILD/qemu-plugin
APT=$BUILD/apt-src

ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	{ echo "qemu-plugin: qemu-system-x86 is not installed" >&2; exit 1; }
hdr=$DIR/$ver/qemu-plugin.h

fetch_header() {
	local aptopts tarball
	rm -rf "${APT:?}" "${DIR:?}/$ver"
	mkdir -p "$APT/etc" "$APT/lists/partial" "$APT/cache/archives/partial" \
		"$APT/dl" "$DIR/$ver"
	# deb-src twins of the system's Debian bookworm stanzas (signed with
	# Debian's archive keyring; one file each).
	local f n=0
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		case $(basename "$f") in pgtable-batch-*) continue ;; esac
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		/(^|\n)Suites:[^\n]*(bookworm|stable)/ && /debian-archive-keyring/ {
			sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); print
		}' "$f" >"$APT/etc/$n.sources"
		n=$((n + 1))
	done
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*bookworm.*\)/deb-src \1/p' /etc/apt/sources.list \
			>"$APT/etc/src.list"
	fi
	aptopts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$APT/etc"
		 -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache"
		 -o APT::Sandbox::User=root)
	# A source that fails to update must not stop the others.
	apt-get -qq "${aptopts[@]}" update || true
	local want=$ver upstream=${ver%-*} versions
	versions=$(apt-cache "${aptopts[@]}" showsrc qemu 2>/dev/null | sed -n 's/^Version: //p')
	if ! grep -qxF "$ver" <<<"$versions"; then
		want=$(grep -F "$upstream-" <<<"$versions" | head -1)
		[ -n "$want" ] || { echo "qemu-plugin: no qemu $upstream source in the archive" >&2; exit 1; }
		echo "qemu-plugin: qemu $ver is gone from the archive, its upstream tarball from $want"
	fi
	(cd "$APT/dl" && apt-get -qq "${aptopts[@]}" source --download-only "qemu=$want")
	for tarball in "$APT"/dl/qemu_*.orig.tar.*; do
		case $tarball in *.asc) continue ;; esac
		break
	done
	tar -xf "$tarball" -C "$APT/dl" --wildcards --strip-components=3 \
		'*/include/qemu/qemu-plugin.h'
	# Debian's patches that touch the header: none is handled.
	mkdir -p "$APT/deb"
	tar -xf "$APT"/dl/qemu_*.debian.tar.* -C "$APT/deb"
	local touching
	touching=$(grep -rl '^+++ .*include/qemu/qemu-plugin.h' "$APT/deb/debian/patches" || true)
	if [ -n "$touching" ]; then
		echo "qemu-plugin: Debian's patches change the plugin header: $touching" >&2
		exit 1
	fi
	mv "$APT/dl/qemu-plugin.h" "$hdr"
	rm -rf "$APT/dl" "$APT/deb"
}

# (In an if body, not behind ||: errexit must hold inside the function.)
if [ ! -f "$hdr" ]; then
	fetch_header
fi
if [ ! -f "$OUT" ] || [ "$SRC" -nt "$OUT" ] || [ "$hdr" -nt "$OUT" ]; then
	mkdir -p "$(dirname "$OUT")"
	gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I "$DIR/$ver" \
		-o "$OUT.$$" "$SRC" -lpthread
	mv "$OUT.$$" "$OUT"
fi
