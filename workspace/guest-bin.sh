#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bin.sh ARCH TREE
#
# Build the static in-guest benchmark (tools/testing/pgtable_batch/guest)
# into build/guest-bin/ARCH and the mm selftests, the series' own
# (tools/testing/selftests/mm/pgtable_batch_*.c) among them, into
# build/selftests/ARCH, against the uapi headers of TREE.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
ARCH=${1:?arch}; TREE=$(realpath "${2:?tree}")
case $ARCH in
x86_64) KARCH=x86; CC=gcc; CROSS= ;;
arm64) KARCH=arm64; CC=aarch64-linux-gnu-gcc; CROSS=aarch64-linux-gnu- ;;
riscv64) KARCH=riscv; CC=riscv64-linux-gnu-gcc; CROSS=riscv64-linux-gnu- ;;
*) echo "guest-bin: unknown arch $ARCH" >&2; exit 1 ;;
esac

HDR=$BUILD/hdr/$ARCH
stamp=$(git -C "$TREE" rev-parse HEAD)
if [ "$(cat "$HDR/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$HDR"
	make -s -j"$(nproc)" -C "$TREE" O="$BUILD/hdr/o-$ARCH" ARCH="$KARCH" headers_install \
		INSTALL_HDR_PATH="$HDR" >/dev/null
	echo "$stamp" >"$HDR/.stamp"
fi

OUT=$BUILD/guest-bin/$ARCH
mkdir -p "$OUT"
# Nothing but this directory's programs: a program that moved (the tests
# are mm selftests now) must not reach the initramfs from an old build.
for f in "$OUT"/*; do
	[ -f "$f" ] || continue
	[ -f "$REPO/tools/testing/pgtable_batch/guest/$(basename "$f").c" ] || rm -f "$f"
done
make -s -C "$REPO/tools/testing/pgtable_batch/guest" CC="$CC" OUTPUT="$OUT" \
	KSRC="$TREE" KHDR_INCLUDES="-isystem $HDR/include"

# The selftests only depend on the tree and the script that builds them.
ST=$BUILD/selftests/$ARCH
st_stamp="$stamp $(sha1sum <"$REPO/workspace/selftests.sh")"
if [ "$(cat "$ST.stamp" 2>/dev/null)" != "$st_stamp" ]; then
	KHDR=$HDR CROSS_COMPILE=$CROSS "$REPO/workspace/selftests.sh" "$ARCH" "$TREE" "$ST"
	echo "$st_stamp" >"$ST.stamp"
fi
