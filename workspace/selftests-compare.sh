#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests-compare.sh ARCH LOG [--record]
#
# Compare the mm selftest results of a patched guest (PB-SELFTEST lines of
# the "selftests" plan in LOG) with the vanilla 7.3 baseline recorded in
# workspace/guest/selftests.baseline ($BASELINE overrides it): every
# test must have the same number of passes and skips, and fail only where
# vanilla fails.  --record replaces ARCH's lines of the baseline with LOG
# (a vanilla run).
#
# ONLY="name ..." compares just those tests (a rerun of some of them).
# DIFFER=FILE receives the names of the tests that differ or were cut
# short by their time limit, one per line, and a line "!fail" for a
# difference a rerun cannot clear (a case that fails where vanilla passes,
# a test missing, not found or without a baseline).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${1:?arch}; LOG=${2:?log}
BASELINE=${BASELINE:-$REPO/workspace/guest/selftests.baseline}
ONLY=${ONLY:-}
DIFFER=${DIFFER:-/dev/null}
: >"$DIFFER"

results() {	# log -> "name pass skip fail" and "FAIL name desc" lines
	sed -n 's/^PB-SELFTEST \([^ ]*\) pass=\([0-9]*\) skip=\([0-9]*\) fail=\([0-9]*\).*/\1 \2 \3 \4/p' "$1"
	sed -n 's/^PB-SELFTEST-FAIL \(.*\)/FAIL \1/p' "$1"
}

# A test cut short by its time limit (rc=137) or not found (rc=127) has
# no result to record or compare.  One cut short runs once more, alone:
# under TCG a busy host can slow it past its limit (uffd-unit-tests needs
# about 240 s of its 420 on arm64, and more than 300 s on x86_64 on a
# slow day); a cut that repeats fails.
cut=$(sed -n 's/^PB-SELFTEST \([^ ]*\) .* rc=\(137\|127\) .*/\1 (rc=\2)/p' "$LOG")
timed_out=$(sed -n 's/ (rc=137)$//p' <<<"$cut")
rc=0
if [ -n "$cut" ]; then
	# shellcheck disable=SC2086 # one line for all of them
	echo "selftests: $ARCH: no complete result for:" $cut
	[ "${3:-}" = --record ] && exit 1
	[ -z "$timed_out" ] || echo "$timed_out" >>"$DIFFER"
	grep -q '(rc=127)$' <<<"$cut" && echo "!fail" >>"$DIFFER"
	rc=1
fi

if [ "${3:-}" = --record ]; then
	touch "$BASELINE"
	{
		grep -v "^$ARCH " "$BASELINE" || true
		results "$LOG" | sed "s/^/$ARCH /"
	} | LC_ALL=C sort >"$BASELINE.new"
	mv "$BASELINE.new" "$BASELINE"
	echo "selftests: recorded the $ARCH baseline from $LOG"
	exit 0
fi

[ -f "$BASELINE" ] || { echo "selftests: no baseline ($BASELINE)"; exit 1; }
n=0
while read -r name pass skip fail; do
	[ "$name" = FAIL ] && continue
	n=$((n + 1))
	grep -qx -- "$name" <<<"$timed_out" && continue
	base=$(awk -v a="$ARCH" -v t="$name" '$1 == a && $2 == t { print $3, $4, $5 }' "$BASELINE")
	if [ -z "$base" ]; then
		echo "selftests: $ARCH $name: no baseline"; echo "!fail" >>"$DIFFER"
		rc=1; continue
	fi
	read -r bpass bskip bfail <<<"$base"
	if [ "$pass" != "$bpass" ] || [ "$skip" != "$bskip" ] || [ "$fail" -gt "$bfail" ]; then
		echo "selftests: $ARCH $name: pass=$pass skip=$skip fail=$fail, vanilla pass=$bpass skip=$bskip fail=$bfail"
		# Its skipped cases, with the reason each printed (guest plan).
		grep "^PB-SELFTEST-SKIP $name " "$LOG" | head -20 |
			sed "s/^PB-SELFTEST-SKIP $name /selftests: $ARCH $name: skipped: /" || true
		if [ "$fail" -gt "$bfail" ]; then echo "!fail" >>"$DIFFER"; fi
		echo "$name" >>"$DIFFER"
		rc=1
	fi
done < <(results "$LOG")
# A failing case must be one that fails on vanilla too.
while read -r _ name desc; do
	if ! grep -qF "$ARCH FAIL $name $desc" "$BASELINE"; then
		echo "selftests: $ARCH $name: fails where vanilla passes: $desc"
		echo "!fail" >>"$DIFFER"
		rc=1
	fi
done < <(results "$LOG" | grep '^FAIL ' || true)
if [ -n "$ONLY" ]; then
	expected=$(wc -w <<<"$ONLY")
else
	expected=$(awk -v a="$ARCH" '$1 == a && $2 != "FAIL"' "$BASELINE" | wc -l)
fi
if [ "$n" != "$expected" ]; then
	echo "selftests: $ARCH: $n tests ran, the baseline has $expected"
	echo "!fail" >>"$DIFFER"
	rc=1
fi
[ $rc = 0 ] && echo "selftests: $ARCH: $n tests, same passes and skips as vanilla"
exit $rc
