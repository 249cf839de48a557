#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh ARCH OUT.cpio.gz [BINDIR|NAME.plan|DIR.root...]
#
# Guest initramfs: busybox-static for ARCH, the project's /init and
# /lib/pb.sh and /lib/limits.sh, the plan scripts of workspace/guest/plans/ and every
# NAME.plan given (as /plans/NAME), every executable of the BINDIRs
# (static test programs) under /bin/pb/, and the tree of every DIR.root
# given, copied to / as it is (the fuzzers with their shared libraries,
# workspace/fuzz-bin.sh).
#
# No root needed: the archive is written by the kernel's own
# usr/gen_init_cpio (compiled from build/base into build/gen_init_cpio),
# from a list that names the device nodes (mknod would need root) and
# gives every entry owner 0 and mtime 0, whoever runs it.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCH=${1:?arch}; OUT=$(realpath -m "${2:?out}"); shift 2

stage=$(mktemp -d "$BUILD/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin/pb,dev,proc,sys,tmp,lib,plans,etc}
cp "$BUILD/busybox/$ARCH/busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
install -m 755 "$REPO/workspace/guest/init" "$stage/init"
install -m 644 "$REPO/workspace/guest/pb.sh" "$stage/lib/pb.sh"
# The time limits of the guest plans, the same file as the host's.
install -m 644 "$REPO/workspace/limits.sh" "$stage/lib/limits.sh"
for p in "$REPO"/workspace/guest/plans/*; do
	[ -f "$p" ] && install -m 755 "$p" "$stage/plans/"
done
for d in "$@"; do
	case $d in
	*.plan) install -m 755 "$d" "$stage/plans/$(basename "$d" .plan)" ;;
	*.root) cp -a "$d/." "$stage/" ;;
	*) [ -d "$d" ] && find "$d" -maxdepth 1 -type f -perm -u+x -exec cp {} "$stage/bin/pb/" \; ;;
	esac
done
gen=$BUILD/gen_init_cpio
src=$BUILD/base/usr/gen_init_cpio.c
if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
	gcc -O2 -o "$gen.$$" "$src" && mv "$gen.$$" "$gen"
fi
list=$stage.list
trap 'rm -rf "$stage" "$list"' EXIT
{
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort) | while read -r f; do
		path=$stage/${f#./}
		mode=$(stat -c %a "$path")
		if [ -L "$path" ]; then
			echo "slink ${f#.} $(readlink "$path") 0777 0 0"
		elif [ -d "$path" ]; then
			echo "dir ${f#.} $mode 0 0"
		else
			echo "file ${f#.} $path $mode 0 0"
		fi
	done
	# After /dev itself: the kernel does not make a node's directory.
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
} >"$list"
mkdir -p "$(dirname "$OUT")"
"$gen" -t 0 "$list" | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
