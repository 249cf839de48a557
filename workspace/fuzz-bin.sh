#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz-bin.sh ARCH OUT
#
# The fuzzers of make fuzz for one guest arch, from Debian's packages:
# trinity (libc only) and stress-ng (many shared libraries), with the
# shared libraries their ELF files need and the dynamic loader, laid out
# under OUT as the guest's root sees them (OUT/usr/bin/trinity,
# OUT/lib/ld-linux-*.so.*, OUT/lib/<triplet>/*.so.*), for initramfs.sh
# to copy in (an argument ending in .root).
#
# The packages come by name through apt-get download (the Depends
# closure of both, for the arch; arm64 is a foreign dpkg architecture
# of the host, deps.sh adds it), are unpacked with dpkg-deb, and only
# the libraries in the NEEDED closure of the two programs are kept (EGL,
# GBM and X11 come along with stress-ng's Depends; the guest uses none of
# them but the loader must find them).  OUT/versions lists the package
# versions.  Nothing is built.
set -euo pipefail

ARCH=${1:?arch}; OUT=$(realpath -m "${2:?out}")
case $ARCH in
x86_64) deb=amd64; triplet=x86_64-linux-gnu ;;
arm64) deb=arm64; triplet=aarch64-linux-gnu ;;
*) echo "fuzz-bin.sh: Debian has no trinity/stress-ng for $ARCH here" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-bin.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root"

# The Depends closure (no Recommends): the libraries' packages.
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests \
	--no-conflicts --no-breaks --no-replaces --no-enhances \
	"trinity:$deb" "stress-ng:$deb" |
	grep -v '^[ <]' | sort -u |
	# Architecture-independent data packages have no :arch.
	sed "/:/!s/\$/:all/" | grep -E ":($deb|all)\$" | sed 's/:all$//')
# shellcheck disable=SC2086
(cd "$work/debs" && apt-get download $pkgs >/dev/null 2>&1) || {
	echo "fuzz-bin.sh: apt-get download failed for $ARCH (apt-get update?)" >&2
	exit 1
}
for d in "$work"/debs/*.deb; do
	dpkg-deb -x "$d" "$work/root"
done

# needed FILE: the sonames FILE needs.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# find_lib SONAME: its path in the unpacked root.
find_lib() {
	local d
	for d in "lib/$triplet" "usr/lib/$triplet" lib usr/lib; do
		if [ -e "$work/root/$d/$1" ]; then
			echo "$work/root/$d/$1"
			return 0
		fi
	done
	return 1
}

rm -rf "$OUT"
mkdir -p "$OUT/usr/bin" "$OUT/lib/$triplet"
todo=()
for b in trinity stress-ng; do
	install -m 755 "$work/root/usr/bin/$b" "$OUT/usr/bin/$b"
	todo+=("$work/root/usr/bin/$b")
done
declare -A seen=()
while [ ${#todo[@]} -gt 0 ]; do
	f=${todo[0]}
	todo=("${todo[@]:1}")
	for so in $(needed "$f"); do
		[ -n "${seen[$so]:-}" ] && continue
		seen[$so]=1
		p=$(find_lib "$so") || { echo "fuzz-bin.sh: $ARCH: $so not found" >&2; exit 1; }
		cp -L "$p" "$OUT/lib/$triplet/$so"
		todo+=("$p")
	done
done
# The loader, at the path the programs' PT_INTERP names.
interp=$(readelf -l "$OUT/usr/bin/trinity" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
mkdir -p "$OUT$(dirname "$interp")"
cp -L "$work/root/lib/$triplet/$(basename "$interp")" "$OUT$interp" 2>/dev/null ||
	cp -L "$work/root$interp" "$OUT$interp"
for d in "$work"/debs/*.deb; do
	dpkg-deb -f "$d" Package Version | paste -sd' '
done | sort >"$OUT/versions"
echo "fuzz-bin: $ARCH: $(wc -l <"$OUT/versions") packages, ${#seen[@]} libraries, $(du -sh "$OUT" | cut -f1)"
