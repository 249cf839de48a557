#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the mm selftests that the guests run, statically, for one arch.
#
#   selftests.sh ARCH KTREE OUTDIR
#
# ARCH is x86_64, arm64 or riscv64, KTREE a kernel source tree (never written to),
# OUTDIR receives one static binary per test.  The UAPI headers come from
# $KHDR if set (an INSTALL_HDR_PATH of KTREE for ARCH), else from
# "make headers_install" of KTREE into a scratch directory; the selftests
# are built from a scratch copy of KTREE/tools (their Makefile writes its
# probe results into the source directory).
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 ARCH KTREE OUTDIR" >&2
	exit 2
fi
ARCH=$1
KTREE=$(realpath "$2")
OUTDIR=$(realpath -m "$3")

# The pgtable_batch tests are mm selftests the series adds: the check
# plans run them (plans/check, plans/faultinject), not plans/selftests.
TESTS="cow uffd-unit-tests uffd-wp-mremap guard-regions pagemap_ioctl
	madv_populate mremap_test migration split_huge_page_test
	pgtable_batch_integrity pgtable_batch_migrate pgtable_batch_softdirty
	pgtable_batch_stress pgtable_batch_mkclean"
case $ARCH in
x86_64)
	KARCH=x86
	CROSS=
	TESTS="$TESTS soft-dirty"
	;;
arm64)
	KARCH=arm64
	CROSS=aarch64-linux-gnu-
	;;
riscv64)
	# Debian 12 has no libnuma for riscv64, which the migration test
	# links with: it is left out.
	KARCH=riscv
	CROSS=riscv64-linux-gnu-
	TESTS="${TESTS/ migration/} soft-dirty"
	;;
*)
	echo "$0: unknown arch $ARCH" >&2
	exit 2
	;;
esac

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/pb-selftests.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# UAPI headers for the target arch.
# KHDR: the tree's installed uapi headers for ARCH, if the caller has them
# already (guest-bin.sh); headers_install takes most of a minute.
HDR=${KHDR:-}
if [ -z "$HDR" ] || [ ! -d "$HDR/include" ]; then
	HDR=$SCRATCH/hdr
	make -s -j"$(nproc)" -C "$KTREE" O="$SCRATCH/hdr-build" ARCH=$KARCH \
		INSTALL_HDR_PATH="$HDR" headers_install
fi

# A private copy of what the mm selftests read from the tree.
mkdir -p "$SCRATCH/src/mm"
rsync -a --exclude='*.o' "$KTREE/tools" "$SCRATCH/src/"
cp "$KTREE/mm/gup_test.h" "$SCRATCH/src/mm/"

mkdir -p "$SCRATCH/out" "$OUTDIR"
targets=
for t in $TESTS; do
	targets="$targets $SCRATCH/out/$t"
done

# shellcheck disable=SC2086
make -s -j"$(nproc)" -C "$SCRATCH/src/tools/testing/selftests/mm" \
	ARCH=$ARCH CROSS_COMPILE=$CROSS CC="${CROSS}gcc" \
	OUTPUT="$SCRATCH/out" \
	KHDR_INCLUDES="-isystem $HDR/include" \
	LDFLAGS=-static $targets

for t in $TESTS; do
	"${CROSS}strip" -o "$OUTDIR/$t" "$SCRATCH/out/$t"
done
echo "selftests: $ARCH: $TESTS -> $OUTDIR"
