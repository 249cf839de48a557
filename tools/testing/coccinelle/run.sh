#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the semantic patches of scripts/coccinelle/ over their test inputs.
#
# tools/testing/coccinelle/<name>/*.c are the inputs for
# scripts/coccinelle/*/<name>.cocci and <input>.res the expected result:
# the patched file for a script with a patch mode, the report otherwise.
# spatch runs with the options of the script's "// Options:" line, as
# make coccicheck runs it.  Prints ok or FAIL per case and
# "N passed, N failed"; exits non-zero on any failure.
#
# With TREE set to a kernel tree, the finder also runs through the tree's
# "make coccicheck" at its default J (spatch --jobs), in report and org
# mode, over mm/kasan/; <name>/coccicheck-<mode>.res is the expected
# output, with the tree's path removed.  Reports come in no set order, so
# they are compared sorted.  And every conversion a patch-mode script makes
# of an input is run (validate.py): each changed function, before and
# after, against the userspace harness's PTE model of TREE, on generated
# page tables and arguments; a case "validate <name>/<input>" fails when
# any run inside the original's contract ends differently.  The harness
# objects are kept in $VALIDATE_OBJ (default build/cocci-validate).
#
# Usage: [TREE=dir] run.sh [name...]

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
# The time limits (workspace/limits.sh).
# shellcheck source=workspace/limits.sh
. "$top/workspace/limits.sh"
spatch=${SPATCH:-spatch}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v "$spatch" > /dev/null; then
	echo "run.sh: $spatch not found" >&2
	exit 2
fi

passed=0
failed=0

# Every input directory named after a script (validate/ is validate.py's).
if [ $# -eq 0 ]; then
	set -- $(cd "$here" && ls -d */ | tr -d / | grep -vx validate)
fi

# verdict CASE RC TOOL EXPECTED OUT NOTE: count and print one case's result.
verdict() {
	local case=$1 rc=$2 tool=$3 expected=$4 out=$5 note=$6
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $case: $tool exited with $rc"
		sed 's/^/    /' "$tmp/log"
		failed=$((failed + 1))
	elif diff -u "$expected" "$out" > "$tmp/diff"; then
		echo "ok   $case$note"
		passed=$((passed + 1))
	else
		echo "FAIL $case: output differs from $(basename "$expected")"
		sed 's/^/    /' "$tmp/diff"
		failed=$((failed + 1))
	fi
}

# run_validate CASE INPUT OUTPUT: validate.py on the conversions of INPUT
# into OUTPUT, its output in $tmp/vlog; returns its exit status.
run_validate() {
	timeout "$PB_LIMIT_COCCI_VALIDATE" "$here/validate.py" \
		--ksrc "$TREE" --objdir "$objdir" --work "$tmp/v" \
		--label "$1" "$2" "$3" > "$tmp/vlog" 2>&1
}

# validate CASE INPUT OUTPUT: run the conversions of INPUT into OUTPUT.
validate() {
	local case=$1 rc
	run_validate "$case" "$2" "$3"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok   validate $case ($(sed -n 's/^summary: //p' "$tmp/vlog"))"
		passed=$((passed + 1))
	else
		echo "FAIL validate $case (exit $rc)"
		grep -v -e '^ok ' -e '^summary: ' "$tmp/vlog" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
}

if [ -n "${TREE:-}" ]; then
	TREE=$(cd "$TREE" && pwd)
	objdir=${VALIDATE_OBJ:-$top/build/cocci-validate}
fi

for name in "$@"; do
	cocci=$(find "$top/scripts/coccinelle" -name "$name.cocci" | head -1)
	if [ -z "$cocci" ]; then
		echo "FAIL $name: no scripts/coccinelle/*/$name.cocci"
		failed=$((failed + 1))
		continue
	fi
	opts=$(sed -n 's|^// Options:||p' "$cocci")
	if grep -q '^virtual[[:space:]]\+patch' "$cocci"; then
		mode=patch
	else
		mode=report
	fi
	for input in "$here/$name"/*.c; do
		case=$name/$(basename "$input" .c)
		expected=${input%.c}.res
		out=$tmp/out
		if [ ! -f "$expected" ]; then
			echo "FAIL $case: no $(basename "$expected")"
			failed=$((failed + 1))
			continue
		fi
		# Run from the input's directory so that reports name the file
		# without a path.
		if [ $mode = patch ]; then
			# spatch writes -o only when it changes something.  The
			# input's local headers go beside it: the scripts read
			# their macros.
			cp "$input" "$tmp/in.c"
			find "$here/$name" -maxdepth 1 -name '*.h' \
				-exec cp {} "$tmp/" \;
			cp "$input" "$out"
			(cd "$tmp" && "$spatch" -D patch --very-quiet $opts \
				--cocci-file "$cocci" in.c -o "$out") \
				> "$tmp/log" 2>&1
			rc=$?
		else
			(cd "$here/$name" && "$spatch" -D report --very-quiet \
				--no-show-diff $opts --cocci-file "$cocci" \
				"$(basename "$input")") 2> "$tmp/log" |
				LC_ALL=C sort -t: -k1,1 -k2,2n > "$out"
			rc=${PIPESTATUS[0]}
		fi
		verdict "$case" $rc spatch "$expected" "$out" ""
		if [ $mode = patch ] && [ -n "${TREE:-}" ] && [ "$rc" -eq 0 ]; then
			validate "$case" "$input" "$out"
		fi
	done
done

# The finder as users run it: make coccicheck, default J, absolute COCCI.
coccicheck() {	# name mode dir
	local name=$1 mode=$2 dir=$3 case=$1/coccicheck-$2
	local expected=$here/$1/coccicheck-$2.res
	local cocci
	cocci=$(find "$top/scripts/coccinelle" -name "$name.cocci" | head -1)
	mkdir -p "$tmp/o"
	timeout "$PB_LIMIT_COCCICHECK" make -s -C "$TREE" coccicheck MODE="$mode" \
		COCCI="$cocci" M="$dir" KBUILD_EXTMOD_OUTPUT="$tmp/o" \
		> "$tmp/cc" 2> "$tmp/log"
	rc=$?
	# Reports start with the file's path, org entries with "* TODO".
	grep -e "^$TREE/" -e '^\* TODO' "$tmp/cc" |
		sed "s|$TREE/||g" | LC_ALL=C sort -t: -k1,1 -k2,2n > "$tmp/out"
	verdict "$case" $rc "make coccicheck" "$expected" "$tmp/out" \
		" (make coccicheck M=$dir, $(nproc) CPUs)"
}

# The validation's own test: conversions known to be wrong (the scripts
# made them before their checks were hardened), each of which it must
# catch.  validate/wrong/<input>.c and <input>.wrong.
caught() {
	local input=$1 case rc
	case=validate/wrong/$(basename "$1" .c)
	run_validate "$case" "$input" "${input%.c}.wrong"
	rc=$?
	# Exit 1 with a difference found; a traceback exits 1 too.
	if [ $rc -eq 1 ] && grep -q '^FAIL .* cases differ; case ' "$tmp/vlog"; then
		echo "ok   $case: caught ($(grep -m1 '^FAIL' "$tmp/vlog" |
			sed 's/^FAIL [^:]*: //; s/; case.*//'))"
		passed=$((passed + 1))
	else
		echo "FAIL $case: the wrong conversion is not caught (exit $rc)"
		sed 's/^/    /' "$tmp/vlog"
		failed=$((failed + 1))
	fi
}

if [ -n "${TREE:-}" ]; then
	for input in "$here"/validate/wrong/*.c; do
		caught "$input"
	done
fi

if [ -n "${TREE:-}" ]; then
	for mode in report org; do
		coccicheck pte_batch_find $mode mm/kasan/
	done
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
