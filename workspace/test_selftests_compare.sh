#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of workspace/selftests-compare.sh: a baseline and guest logs
# written here, and what the comparison says of each.
#  - the same passes and skips as vanilla pass;
#  - a different count fails and names the test for a rerun;
#  - a case failing where vanilla passes fails with no rerun;
#  - a test cut short by its time limit fails and is named for a rerun,
#    and the other tests are still compared; one not found has no rerun;
#  - --record refuses a log with a test cut short.
# shellcheck disable=SC2016,SC2034
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-selftests-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

cat >"$T/baseline" <<'B'
x86_64 cow 640 0 0
x86_64 uffd-unit-tests 42 26 0
x86_64 FAIL cow known failure
B

# log NAME LINE...: a guest log of PB-SELFTEST lines
log() {
	local name=$1
	shift
	printf '%s\n' "$@" >"$T/$name.log"
}

# compare NAME [ARGS]: exit code in $rc, output in $T/NAME.out, the
# names for a rerun in $T/NAME.differ
compare() {
	local name=$1
	shift
	BASELINE=$T/baseline DIFFER=$T/$name.differ \
		"$REPO/workspace/selftests-compare.sh" x86_64 "$T/$name.log" "$@" \
		>"$T/$name.out" 2>&1
	rc=$?
}

expect() {	# name condition message
	if eval "$2"; then
		echo "ok: $1: $3"
	else
		echo "FAIL: $1: $3"
		sed 's/^/    /' "$T/$1.out" "$T/$1.differ" 2>/dev/null
		fails=$((fails + 1))
	fi
}

log same "PB-SELFTEST cow pass=640 skip=0 fail=0 rc=0 secs=80" \
	"PB-SELFTEST uffd-unit-tests pass=42 skip=26 fail=0 rc=0 secs=200"
compare same
expect same '[ $rc = 0 ] && [ ! -s "$T/same.differ" ]' "the same counts pass"

log differ "PB-SELFTEST cow pass=639 skip=1 fail=0 rc=0 secs=80" \
	"PB-SELFTEST uffd-unit-tests pass=42 skip=26 fail=0 rc=0 secs=200"
compare differ
expect differ '[ $rc = 1 ] && [ "$(cat "$T/differ.differ")" = cow ]' \
	"a different count fails and names the test for a rerun"

log newfail "PB-SELFTEST cow pass=639 skip=0 fail=1 rc=1 secs=80" \
	"PB-SELFTEST-FAIL cow a new failure" \
	"PB-SELFTEST uffd-unit-tests pass=42 skip=26 fail=0 rc=0 secs=200"
compare newfail
expect newfail '[ $rc = 1 ] && grep -qx "!fail" "$T/newfail.differ"' \
	"a case failing where vanilla passes is not rerun"

log cut "PB-SELFTEST cow pass=640 skip=0 fail=0 rc=0 secs=80" \
	"PB-SELFTEST uffd-unit-tests pass=23 skip=14 fail=0 rc=137 secs=303"
compare cut
expect cut '[ $rc = 1 ] && [ "$(cat "$T/cut.differ")" = uffd-unit-tests ]' \
	"a test cut short fails and is named for a rerun"
expect cut 'grep -q "no complete result for: uffd-unit-tests (rc=137)" "$T/cut.out" &&
	! grep -q "uffd-unit-tests: pass=23" "$T/cut.out"' \
	"and its partial counts are not compared"

log cutdiffer "PB-SELFTEST cow pass=639 skip=1 fail=0 rc=0 secs=80" \
	"PB-SELFTEST uffd-unit-tests pass=23 skip=14 fail=0 rc=137 secs=303"
compare cutdiffer
expect cutdiffer '[ $rc = 1 ] && [ "$(sort "$T/cutdiffer.differ" | tr "\n" " ")" = "cow uffd-unit-tests " ]' \
	"the other tests are still compared"

log rerun "PB-SELFTEST uffd-unit-tests pass=42 skip=26 fail=0 rc=0 secs=190"
compare rerun
expect rerun '[ $rc = 1 ]' "a rerun is one test of two (without ONLY)"
ONLY=uffd-unit-tests compare rerun
expect rerun '[ $rc = 0 ]' "a rerun of the cut test that completes passes"

log missing "PB-SELFTEST cow pass=640 skip=0 fail=0 rc=0 secs=80" \
	"PB-SELFTEST uffd-unit-tests pass=0 skip=0 fail=0 rc=127 secs=0"
compare missing
expect missing '[ $rc = 1 ] && grep -qx "!fail" "$T/missing.differ"' \
	"a test not found is not rerun"

cp "$T/baseline" "$T/baseline.before"
compare cut --record
expect cut '[ $rc = 1 ] && cmp -s "$T/baseline" "$T/baseline.before"' \
	"--record refuses a log with a test cut short"

[ $fails = 0 ] && echo "test_selftests_compare: all passed" && exit 0
echo "test_selftests_compare: $fails failed"
exit 1
