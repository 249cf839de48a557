#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild.sh ARCH VARIANT SRC OUT [make targets...]
#
# Configure (tinyconfig + the fragments in workspace/configs/) and build a
# guest kernel out of tree with ccache.  VARIANT is "test" (debug checks
# and KUnit), "bench" (no debug options, distribution-like: distro.config)
# or "bench-tiny" (no debug options, tinyconfig as it is).  With no
# targets, builds the boot image; otherwise builds the given targets (e.g.
# mm/rmap.o).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${1:?arch}; VARIANT=${2:?variant}; SRC=$(realpath "${3:?src}"); OUT=$(realpath -m "${4:?out}")
shift 4
CFG=$REPO/workspace/configs
JOBS=${JOBS:-$(nproc)}

case $ARCH in
x86_64) KARCH=x86; CROSS=; IMAGE=arch/x86/boot/bzImage ;;
arm64) KARCH=arm64; CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image ;;
riscv64) KARCH=riscv; CROSS=riscv64-linux-gnu-; IMAGE=arch/riscv/boot/Image ;;
*) echo "kbuild: unknown arch $ARCH" >&2; exit 1 ;;
esac
case $VARIANT in
test) FRAGS="$CFG/common.config $CFG/$ARCH.config $CFG/debug.config"
	# Debug options only some arches can afford (KASAN on x86_64).
	[ -f "$CFG/$ARCH-debug.config" ] && FRAGS="$FRAGS $CFG/$ARCH-debug.config" ;;
# bench: as distributions build (distro.config, Debian's values);
# bench-tiny: the tinyconfig-based bench kernel of earlier tables (-Os,
# SLUB_TINY, no cgroups), for comparison (make bench BENCH_CONFIG=tiny).
bench) FRAGS="$CFG/common.config $CFG/$ARCH.config $CFG/bench.config $CFG/distro.config"
	[ -f "$CFG/$ARCH-distro.config" ] && FRAGS="$FRAGS $CFG/$ARCH-distro.config" ;;
bench-tiny) FRAGS="$CFG/common.config $CFG/$ARCH.config $CFG/bench.config" ;;
*) echo "kbuild: unknown variant $VARIANT" >&2; exit 1 ;;
esac
# PB_CONFIGS="name.config ...": fragments of workspace/configs/ merged
# after the variant's (e.g. arm64-lpa2.config for make test-lpa2).
for f in ${PB_CONFIGS:-}; do FRAGS="$FRAGS $CFG/$f"; done

# ccache's own cache directory and size limit, as the user has them (by
# default ~/.cache/ccache, 5 GiB): a clean clone, which has no build/,
# finds the objects of the last run there.  CCACHE_BASEDIR makes the
# paths of the tree relative, so a clone elsewhere hits them too.
export CCACHE_BASEDIR=$REPO/build
# Depend mode: a miss compiles once instead of preprocessing first to hash
# the result (about a quarter of a cold kernel build); a hit needs the
# same sources and headers, which is all an O= rebuild can reuse anyway.
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
# Fixed build identity: reproducible images and better ccache hits.
export KBUILD_BUILD_USER=pgtable_batch KBUILD_BUILD_HOST=guest
export KBUILD_BUILD_TIMESTAMP="2026-01-01"

mk() {
	make -s -C "$SRC" O="$OUT" ARCH=$KARCH ${CROSS:+CROSS_COMPILE=$CROSS} \
		CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

mkdir -p "$OUT"
# The config symbols this source tree defines.  They are part of the stamp:
# a tree that adds one (the series' KUnit suite, fail_swap_dup) is
# configured again, so that each commit of bisect-check gets them.
symbols=$(find "$SRC" -name 'Kconfig*' ! -path "$SRC/Documentation/*" -print0 |
	xargs -0 grep -hoE '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' | awk '{print $2}' | sort -u)
stamp=$( (cat $FRAGS "$0"; echo "$symbols") | sha1sum | cut -d' ' -f1)
if [ ! -f "$OUT/.config" ] || [ "$(cat "$OUT/.pb-config" 2>/dev/null)" != "$stamp" ]; then
	mk tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG=$OUT/.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OUT" \
		"$OUT/.config" $FRAGS >"$OUT/merge.log" 2>&1
	mk olddefconfig >/dev/null
	# Options that silently drop out of a merged fragment break the tests:
	# insist on the ones everything depends on.
	must="SWAP ZRAM TRANSPARENT_HUGEPAGE USERFAULTFD PTE_MARKER_UFFD_WP BLK_DEV_INITRD DEVTMPFS PROC_PAGE_MONITOR"
	[ "$ARCH" = arm64 ] && must="$must ARM64_CONTPTE ARM64_4K_PAGES SERIAL_AMBA_PL011_CONSOLE"
	[ "$ARCH" = x86_64 ] && must="$must MEM_SOFT_DIRTY SERIAL_8250_CONSOLE DEBUG_TLBFLUSH"
	[ "$ARCH" = riscv64 ] && must="$must FPU MEM_SOFT_DIRTY SERIAL_8250_CONSOLE RISCV_ISA_FALLBACK"
	[ "$VARIANT" = test ] && must="$must DEBUG_VM PAGE_TABLE_CHECK PROVE_LOCKING KUNIT"
	for o in $must; do
		grep -q "^CONFIG_$o=y" "$OUT/.config" ||
			{ echo "kbuild: CONFIG_$o did not survive the config merge ($OUT/merge.log)" >&2; exit 1; }
	done
	# Nor may any other option the fragments ask for, unless this tree
	# does not define it (vanilla has no symbols of the series).  A later
	# fragment overrides an earlier one, as in the merge: bench.config
	# turns off the KUnit that common.config turns on.
	# shellcheck disable=SC2086
	for o in $(awk '
		match($0, /^CONFIG_[A-Za-z0-9_]+=/) {
			v[substr($0, 8, RLENGTH - 8)] = substr($0, RLENGTH + 1)
		}
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { v[substr($2, 8)] = "n" }
		END { for (o in v) if (v[o] == "y") print o }' $FRAGS | sort); do
		grep -qx "$o" <<<"$symbols" || continue
		grep -q "^CONFIG_$o=y" "$OUT/.config" ||
			{ echo "kbuild: CONFIG_$o=y is asked for but its dependencies are not met ($OUT/merge.log)" >&2; exit 1; }
	done
	echo "$stamp" >"$OUT/.pb-config"
fi

if [ $# -eq 0 ]; then
	mk "$(basename $IMAGE)"
	cp "$OUT/$IMAGE" "$OUT/kernel.img"
	echo "kbuild: $ARCH $VARIANT $(cat "$OUT/include/config/kernel.release") -> $OUT/kernel.img"
else
	mk "$@"
fi
