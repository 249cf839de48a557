#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's linux-source-7.3, unpack it once under build/ and turn it
# into a pristine git repository with a single commit.  Also fetch the
# foreign-architecture guest userspace (busybox-static:arm64) and build
# sparse from Debian sid's source package (bookworm's 0.6.4 is too old for
# 7.3 and kbuild would silently check nothing).
#
# The downloaded packages are kept where the user keeps caches
# ($PB_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/pgtable_batch/dl), not
# under build/: a clean clone or make clean downloads nothing again.
set -euo pipefail

BUILD=${BUILD:-build}
BUILD=$(realpath -m "$BUILD")
PB_CACHE=${PB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pgtable_batch}
DL=$PB_CACHE/dl
BASE=$BUILD/base
mkdir -p "$DL"

msg() { printf 'base: %s\n' "$*"; }

# apt fetches as the user _apt where it can; the cache directory is the
# invoking user's, which _apt may not be able to write.
sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)

# fetch_deb PACKAGE[:ARCH]: the path of the .deb of apt's candidate
# version in $DL, downloaded unless the cache has that very file (a newer
# version in the archive is downloaded, as on a fresh machine).  The
# download goes to a directory of its own first: an interrupted one
# leaves no file the next run would take for the package.
fetch_deb() {
	local pkg=$1 f tmp
	f=$(apt-get download --print-uris -qq "${sandbox[@]}" "$pkg" 2>/dev/null | awk 'NR == 1 { print $2 }')
	[ -n "$f" ] || { msg "apt has no candidate for $pkg" >&2; return 1; }
	if [ ! -f "$DL/$f" ]; then
		tmp=$(mktemp -d "$DL/.download.XXXXXX")
		(cd "$tmp" && apt-get download -qq "${sandbox[@]}" "$pkg" >/dev/null) || { rm -rf "$tmp"; return 1; }
		mv "$tmp/$f" "$DL/$f"
		rm -rf "$tmp"
	fi
	echo "$DL/$f"
}

# --- kernel source -----------------------------------------------------
if [ ! -f "$BASE/.pristine" ]; then
	deb=$(fetch_deb linux-source-7.3)
	msg "unpacking $(basename "$deb")"
	# Unpacked under build/, never in the cache another clone may share.
	x=$BUILD/linux-source.x
	rm -rf "$BASE" "$x"
	dpkg-deb -x "$deb" "$x"
	tarball=$(ls "$x"/usr/src/linux-source-7.3.tar.* | head -1)
	mkdir -p "$BASE"
	tar -xf "$tarball" -C "$BASE" --strip-components=1
	rm -rf "$x"
	ver=$(dpkg-deb -f "$deb" Version)
	(
		cd "$BASE"
		git init -q -b base
		git config user.name "pgtable_batch workspace"
		git config user.email "pgtable-batch@localhost"
		git config core.autocrlf false
		git add -A -f .
		git commit -q -m "Linux $(make -s kernelversion) (Debian linux-source-7.3 $ver)"
		git tag pristine
	)
	echo "$ver" >"$BASE/.pristine"
fi
msg "Linux $(make -s -C "$BASE" kernelversion) from Debian linux-source-7.3 $(cat "$BASE/.pristine")"

# --- arm64 busybox for the guests ----------------------------------------
BB=$BUILD/busybox
if [ ! -x "$BB/arm64/busybox" ]; then
	deb=$(fetch_deb busybox-static:arm64)
	rm -rf "$BB/arm64.x" && mkdir -p "$BB/arm64"
	dpkg-deb -x "$deb" "$BB/arm64.x"
	cp "$BB/arm64.x/bin/busybox" "$BB/arm64/busybox"
	rm -rf "$BB/arm64.x"
fi
if [ ! -x "$BB/x86_64/busybox" ]; then
	mkdir -p "$BB/x86_64"
	cp /bin/busybox "$BB/x86_64/busybox"
fi

# --- riscv64 busybox (ARCHES with riscv64) ------------------------------
# Debian 12 has no riscv64 port; Debian 13 (trixie) is the first release
# with one.  Its busybox-static is downloaded with a private apt
# configuration under build/apt-riscv64 (the machine's archive URI and
# keyring, suite trixie, architecture riscv64): the host's apt sources and
# foreign architectures stay as they are, and nothing is installed.
# The .deb is kept in the cache like the others; with one there, no apt
# run (trixie's busybox-static is only the guests' shell).
if [[ " ${ARCHES:-} " == *" riscv64 "* ]] && [ ! -x "$BB/riscv64/busybox" ]; then
	deb=$(ls "$DL"/busybox-static_*_riscv64.deb 2>/dev/null | tail -1 || true)
	if [ -z "$deb" ]; then
		src=$("$(dirname "$0")/deps.sh" --archive-source)
		[ -n "$src" ] || { msg "no bookworm entry in the apt sources"; exit 1; }
		A=$BUILD/apt-riscv64
		rm -rf "$A" && mkdir -p "$A"/{lists/partial,archives/partial,prefs}
		: >"$A/status"
		key=${src#* }
		echo "deb [arch=riscv64${key:+ signed-by=$key}] ${src%% *} trixie main" |
			sed 's/ signed-by=-//' >"$A/sources.list"
		aptopts=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
			 -o Dir::Etc::Preferences=/dev/null -o "Dir::Etc::PreferencesParts=$A/prefs"
			 -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
			 -o "Dir::Cache::Archives=$A/archives" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
			 -o APT::Architecture=riscv64 -o APT::Architectures::=riscv64
			 -o APT::Sandbox::User=root)
		apt-get -qq "${aptopts[@]}" update
		tmp=$(mktemp -d "$DL/.download.XXXXXX")
		(cd "$tmp" && apt-get -qq "${aptopts[@]}" download busybox-static >/dev/null)
		mv "$tmp"/busybox-static_*_riscv64.deb "$DL/"
		rm -rf "$tmp" "$A"
		deb=$(ls "$DL"/busybox-static_*_riscv64.deb | tail -1)
	fi
	rm -rf "$BB/riscv64.x" && mkdir -p "$BB/riscv64"
	dpkg-deb -x "$deb" "$BB/riscv64.x"
	# trixie has merged /usr: usr/bin/busybox
	cp "$(find "$BB/riscv64.x" -path '*/bin/busybox' | head -1)" "$BB/riscv64/busybox"
	rm -rf "$BB/riscv64.x"
	msg "busybox for riscv64: $(basename "$deb") (Debian 13)"
fi

# --- sparse --------------------------------------------------------------
SP=$BUILD/sparse
if [ ! -x "$SP/bin/sparse" ]; then
	msg "building sparse from Debian sid's source package"
	rm -rf "$SP" && mkdir -p "$SP/src"
	if ! ls "$DL"/sparse-src/sparse_*.dsc >/dev/null 2>&1; then
		rm -rf "$DL/sparse-src.tmp" && mkdir -p "$DL/sparse-src.tmp"
		(cd "$DL/sparse-src.tmp" && apt-get source -qq "${sandbox[@]}" --download-only sparse >/dev/null)
		rm -rf "$DL/sparse-src" && mv "$DL/sparse-src.tmp" "$DL/sparse-src"
	fi
	cp "$DL"/sparse-src/* "$SP/src/"
	tarball=$(ls "$SP"/src/sparse_*.orig.tar.* | head -1)
	tar -xf "$tarball" -C "$SP/src"
	srcdir=$(find "$SP/src" -mindepth 1 -maxdepth 1 -type d | head -1)
	make -s -C "$srcdir" -j"$(nproc)" PREFIX="$SP" install >/dev/null 2>&1 ||
		make -C "$srcdir" -j"$(nproc)" PREFIX="$SP" install
	basename "$(ls "$SP"/src/sparse_*.dsc)" .dsc >"$SP/source"
fi
msg "sparse $(cat "$SP/source" 2>/dev/null) (reports $("$SP/bin/sparse" --version))"
