#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh ARCH OUT.cpio.gz [BINDIR|NAME.plan...]
#
# Guest initramfs: busybox-static for ARCH, the project's /init and
# /lib/pb.sh and /lib/limits.sh, the plan scripts of workspace/guest/plans/ and every
# NAME.plan given (as /plans/NAME), and every executable of the BINDIRs
# (static test programs) under /bin/pb/.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCH=${1:?arch}; OUT=$(realpath -m "${2:?out}"); shift 2

stage=$(mktemp -d "$BUILD/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin/pb,dev,proc,sys,tmp,lib,plans,etc}
cp "$BUILD/busybox/$ARCH/busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
mknod -m 600 "$stage/dev/console" c 5 1
mknod -m 666 "$stage/dev/null" c 1 3
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
	*) [ -d "$d" ] && find "$d" -maxdepth 1 -type f -perm -u+x -exec cp {} "$stage/bin/pb/" \; ;;
	esac
done
mkdir -p "$(dirname "$OUT")"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible | gzip -1 >"$OUT.tmp")
mv "$OUT.tmp" "$OUT"
