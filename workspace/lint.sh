#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh TREE
#
# Review checks over the series in TREE (commits pristine..HEAD):
#  - checkpatch --strict on every commit (patches, copied files and
#    generated steps alike), zero errors and warnings;
#  - kernel-doc -Wall on every header and C file the series adds;
#  - the Sphinx build of the Documentation/ directories whose .rst files
#    the series touches, compared with vanilla: no new warning;
#  - sparse (C=2) and W=1 on every object the series touches, on every
#    arch of $ARCHES, compared with the same objects of vanilla 7.3:
#    nothing new.
# The sparse and W=1 checks build just those objects in the test kernels'
# O= directories (build/o/<arch>-{vanilla,patched}-test), configuring
# them first if needed: no full vanilla kernel is built.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
TREE=$(realpath "${1:?tree}")
ARCHES=${ARCHES:-x86_64 arm64}
SPARSE=$BUILD/sparse/bin/sparse
OUT=$BUILD/lint
mkdir -p "$OUT"
rc=0

say() { printf 'lint: %s\n' "$*"; }

# --- checkpatch ------------------------------------------------------------
# Every commit that adds a file also adds its MAINTAINERS entry (copy steps
# carry a +diff, patches/README.series), so FILE_PATH_CHANGES stays on.
n=$(git -C "$TREE" rev-list --count pristine..HEAD)
if [ "$n" -gt 0 ]; then
	spell=
	[ -f /usr/share/codespell/dictionary.txt ] && spell=--codespell
	# Debian's python3 first: checkpatch's spdxcheck.py needs python3-ply
	# and python3-git, which a python3 earlier in PATH may lack.
	# The tree is Debian's source without upstream history: checkpatch
	# cannot find the commits that Fixes: tags name (UNKNOWN_COMMIT_ID);
	# their hashes and subjects were checked against public upstream sources.
	(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict $spell --quiet --color=never \
		--ignore UNKNOWN_COMMIT_ID -g pristine..HEAD) >"$OUT/checkpatch.txt" 2>&1
	if grep -Eq '^(ERROR|WARNING):' "$OUT/checkpatch.txt"; then
		say "checkpatch --strict: $(grep -Ec '^(ERROR|WARNING):' "$OUT/checkpatch.txt") errors/warnings ($OUT/checkpatch.txt)"
		grep -E -A4 '^(ERROR|WARNING):' "$OUT/checkpatch.txt" | head -40
		rc=1
	else
		say "checkpatch --strict: $n commits, no errors or warnings ($(grep -c '^CHECK:' "$OUT/checkpatch.txt") CHECKs)"
	fi
fi

# --- kernel-doc on added sources ---------------------------------------------
added=$(git -C "$TREE" diff --name-only --diff-filter=A pristine..HEAD -- '*.h' '*.c')
for f in $added; do
	case $f in tools/*) continue ;; esac
	if ! out=$(cd "$TREE" && scripts/kernel-doc -none -Wall "$f" 2>&1) || [ -n "$out" ]; then
		say "kernel-doc: $f"; echo "$out"; rc=1
	fi
done
[ -n "$added" ] && say "kernel-doc -Wall: $(echo "$added" | grep -vc '^tools/') added files checked"

# --- the verify-unmap instrumentation still applies ---------------------------
# make verify-unmap patches mm/rmap.c and mm/migrate.c of the tree with
# workspace/mm-verify/verify-rmap-debug.patch; a change of their context
# in the series would otherwise show only when someone runs it.
vpatch=$REPO/workspace/mm-verify/verify-rmap-debug.patch
if git -C "$TREE" apply --check "$vpatch" 2>"$OUT/verify-apply.txt"; then
	say "verify-unmap: its instrumentation patch applies to the tree"
else
	say "verify-unmap: $vpatch does not apply to the tree ($OUT/verify-apply.txt)"
	rc=1
fi

# --- documentation build ----------------------------------------------------
# The Sphinx build of every Documentation/ directory in which the series
# touches a .rst file (admin-guide, whose kernel-parameters.txt the series
# extends by one line, takes minutes and is left out), on vanilla and on
# the tree: no warning that vanilla does not print.  A
# subset build (SPHINXDIRS) warns about its links out of the subset; those
# are vanilla's too.
docdirs=$(git -C "$TREE" diff --name-only pristine..HEAD -- 'Documentation/*.rst' |
	awk -F/ 'NF > 2 { print $2 }' | sort -u | xargs)
doc_warnings() {	# src out -> the build's warnings, paths relative
	rm -rf "$2" && mkdir -p "$2"
	(cd "$1" && PATH=/usr/bin:$PATH make -s O="$2" SPHINXDIRS="$docdirs" htmldocs) >"$2.log" 2>&1 ||
		echo "htmldocs failed, see $2.log"
	grep -iE 'warning|error' "$2.log" | sed "s|$1/||g; s|$2/||g" | LC_ALL=C sort -u
}
if [ -n "$docdirs" ]; then
	doc_warnings "$BUILD/base" "$OUT/docs-vanilla" >"$OUT/docs-vanilla.txt"
	doc_warnings "$TREE" "$OUT/docs-patched" >"$OUT/docs-patched.txt"
	new=$(LC_ALL=C comm -13 "$OUT/docs-vanilla.txt" "$OUT/docs-patched.txt")
	if [ -n "$new" ]; then
		say "htmldocs ($docdirs): new warnings:"; echo "$new"; rc=1
	else
		say "htmldocs ($docdirs): no new warnings"
	fi
fi

# --- sparse and W=1 on touched objects --------------------------------------
# Objects to check: the .c files the series touches, plus a fixed set that
# includes the headers it changes.
karch() {	# arch -> its directory under arch/
	case $1 in x86_64) echo x86 ;; riscv64) echo riscv ;; *) echo "$1" ;; esac
}

objs_for() {	# arch
	local f o list
	list=$(git -C "$TREE" diff --name-only pristine..HEAD -- '*.c' | grep -v '^tools/' || true)
	for f in $list; do
		case $f in arch/*) case $f in arch/$(karch "$1")/*) ;; *) continue ;; esac ;; esac
		echo "${f%.c}.o"
	done
	echo mm/memory.o mm/rmap.o mm/swapfile.o mm/mprotect.o mm/huge_memory.o mm/madvise.o
	[ "$1" = arm64 ] && echo arch/arm64/mm/contpte.o
}

# Drop the source tree prefix (absolute, or relative to the O= directory)
# and line numbers, so that the same report matches in both trees.
normalize() {
	sed -E -e "s#[^ :]*($(basename "$BUILD/base")|$(basename "$TREE"))/##g" \
		-e 's/:[0-9]+:[0-9]+:/:/' -e 's/:[0-9]+:/:/' | sort -u
}

if [ ! -x "$SPARSE" ]; then
	say "sparse not built ($SPARSE): run make base"; rc=1
fi
for arch in $ARCHES; do
	objs=$(objs_for "$arch" | tr ' ' '\n' | sort -u)
	failed=
	for kind in vanilla patched; do
		src=$BUILD/base; [ $kind = patched ] && src=$TREE
		o=$BUILD/o/$arch-$kind-test
		have=
		for obj in $objs; do
			[ -f "$src/${obj%.o}.c" ] && have="$have $obj"
		done
		# One make per arch and kernel, all objects at once and both
		# checks in it: a make of the kernel costs seconds before it
		# builds anything, and an object of a directory that was only
		# configured is compiled once instead of twice.  W=1 needs a
		# compile, hence the touch; C=2 runs sparse on every object,
		# compiled or not, through a wrapper that keeps its reports
		# apart from the compiler's.  The next build of the kernel
		# compiles the objects again with its own flags (kbuild sees the
		# flags change; ccache has the result).
		for obj in $have; do
			touch "$src/${obj%.o}.c" 2>/dev/null
		done
		# kbuild's own probe of the checker (scripts/checker-valid.sh,
		# on a file that is not a .c) still sees sparse's stderr.  The
		# wrapper lists the sources it checked: a comparison with a
		# tree whose sparse did not run would report the other tree's
		# known errors as new, or hide new ones.
		cat >"$OUT/sparse-$arch-$kind.sh" <<-WRAP
		#!/bin/sh
		for last; do :; done
		case \$last in *.c)
			echo "\$last" >>"$OUT/sparse-$arch-$kind.files"
			exec "$SPARSE" "\$@" 2>>"$OUT/sparse-$arch-$kind.raw" ;;
		esac
		exec "$SPARSE" "\$@"
		WRAP
		chmod +x "$OUT/sparse-$arch-$kind.sh"
		# A make that fails or leaves an object unchecked is run once
		# more (a cold O= directory configures itself first); what is
		# still missing then fails the step, with the make's output.
		for try in 1 2; do
			: >"$OUT/sparse-$arch-$kind.raw"
			: >"$OUT/sparse-$arch-$kind.files"
			# shellcheck disable=SC2086
			"$REPO/workspace/kbuild.sh" "$arch" test "$src" "$o" W=1 C=2 \
				CHECK="$OUT/sparse-$arch-$kind.sh" $have >"$OUT/w1-$arch-$kind.raw" 2>&1
			mk_rc=$?
			missing=
			for obj in $have; do
				grep -q "/${obj%.o}\.c\$" "$OUT/sparse-$arch-$kind.files" ||
					missing="$missing ${obj%.o}.c"
			done
			if grep -q "is not available" "$OUT/w1-$arch-$kind.raw"; then
				missing="$missing (kbuild refused $SPARSE)"
			fi
			[ "$mk_rc" = 0 ] && [ -z "$missing" ] && break
			say "$arch $kind (try $try): make exit $mk_rc, sparse did not check:${missing:- -}"
			tail -n 15 "$OUT/w1-$arch-$kind.raw"
		done
		if [ "$mk_rc" != 0 ] || [ -n "$missing" ]; then
			failed="$failed $kind"
		fi
	done
	if [ -n "$failed" ]; then
		say "$arch: sparse and W=1 not compared: not every object of the$failed tree was checked ($OUT/w1-$arch-*.raw)"
		rc=1; continue
	fi
	for chk in sparse w1; do
		new=$(comm -13 <(normalize <"$OUT/$chk-$arch-vanilla.raw") <(normalize <"$OUT/$chk-$arch-patched.raw") |
			grep -E 'warning|error' || true)
		if [ -n "$new" ]; then
			say "$arch $chk: new reports against vanilla:"; echo "$new"; rc=1
		else
			say "$arch $chk: nothing new against vanilla on $(echo "$objs" | wc -w) objects"
		fi
	done
done
exit $rc
