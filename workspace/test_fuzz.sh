#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of workspace/fuzz.sh's reading of a fuzz boot's log: the reports
# it takes from a log, the same fault seen twice with other addresses,
# CPUs and PIDs as one report, a report vanilla gives too as inherited
# and one it does not as new, and the summary's sums.  Prints ok/FAIL
# per case and "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() {	# name expected actual
	if [ "$2" = "$3" ]; then
		echo "ok   $1"
		passed=$((passed + 1))
	else
		echo "FAIL $1"
		diff -u <(echo "$2") <(echo "$3") | sed 's/^/    /'
		failed=$((failed + 1))
	fi
}

cat >"$tmp/patched.log" <<'EOF'
[   12.345678] ------------[ cut here ]------------
[   12.345690] WARNING: CPU: 1 PID: 345 at mm/rmap.c:2210 try_to_unmap_one+0x1a4/0x9c0
[   13.000001] BUG: KASAN: slab-use-after-free in folio_remove_rmap_ptes+0x44/0x310
[   13.000002] Read of size 8 at addr ffff888012345678 by task trinity-c1/456
# FUZZ stress-ng round=0 group=a: stress-ng: info:  [190] dispatching hogs: 1 vm
# FUZZ stress-ng round=0 group=a: stress-ng: fail:  [203] vm: detected 4 bit errors while stressing memory
# FUZZ stress-ng round=0 group=a secs=120 rc=2
# FUZZ stress-ng round=1 group=b secs=120 rc=2
not ok 1 fuzz: the guest cannot run a program after seed 7
EOF
cat >"$tmp/vanilla.log" <<'EOF'
[    9.100000] WARNING: CPU: 0 PID: 1201 at mm/rmap.c:2210 try_to_unmap_one+0x1a4/0x9c0
# FUZZ stress-ng round=0 group=a: stress-ng: fail:  [777] vm: detected 4 bit errors while stressing memory
EOF

reports=$("$here/fuzz.sh" --reports "$tmp/patched.log")
check "reports: one line per fault, without CPU, PID, addresses" \
"BUG: KASAN: slab-use-after-free in folio_remove_rmap_ptes+
WARNING: CPU PID at mm/rmap.c:2210 try_to_unmap_one+
not ok 1 fuzz: the guest cannot run a program after seed 7
stress-ng group a: vm: detected 4 bit errors while stressing memory" "$reports"

"$here/fuzz.sh" --reports "$tmp/patched.log" >"$tmp/p.rep"
"$here/fuzz.sh" --reports "$tmp/vanilla.log" >"$tmp/v.rep"
check "compare: vanilla's own reports inherited, the others new" \
"new: BUG: KASAN: slab-use-after-free in folio_remove_rmap_ptes+
new: not ok 1 fuzz: the guest cannot run a program after seed 7
inherited: WARNING: CPU PID at mm/rmap.c:2210 try_to_unmap_one+
inherited: stress-ng group a: vm: detected 4 bit errors while stressing memory" \
	"$("$here/fuzz.sh" --compare "$tmp/p.rep" "$tmp/v.rep")"

check "reports: a stress-ng round's exit code alone is none" "" \
	"$(printf '# FUZZ stress-ng round=3 group=b secs=120 rc=2\n' >"$tmp/rc.log"; "$here/fuzz.sh" --reports "$tmp/rc.log")"

cat >"$tmp/sum.log" <<'EOF'
# FUZZ counters start pswpout=100 pgmigrate_success=5 thp_split_page=0
# FUZZ counters start mthp=64kB swpout=1 split=0
# FUZZ counters start tlb_flush_events=10
# FUZZ trinity seed=1 rc=0 syscalls=5000 [main] Ran 5000 syscalls.
# FUZZ trinity seed=2 rc=137 syscalls=~1234
# FUZZ trinity seeds=1-2 runs=2
# FUZZ stress-ng round=0 group=a: stress-ng: metrc: [187] vm                   10     60.47      0.10      8.61         0.17           1.14
# FUZZ stress-ng round=0 group=a secs=60 rc=0
# FUZZ stress-ng round=1 group=a: stress-ng: metrc: [188] vm                    5     60.47      0.10      8.61         0.17           1.14
# FUZZ stress-ng round=1 group=a secs=60 rc=2
# FUZZ counters end pswpout=150 pgmigrate_success=5 thp_split_page=3
# FUZZ counters end mthp=64kB swpout=9 split=2
# FUZZ counters end tlb_flush_events=40
EOF
check "summary: syscalls, rounds, bogo ops and counter deltas" \
"  trinity: 2 runs, seeds 1-2, 6234 syscalls (1 seeds ran to their count; the others were ended by their time limit)
  stress-ng: 2 rounds, rc 0 x1, 2 x1
  bogo ops: vm=15
  counters: mthp=64kB.split=2 mthp=64kB.swpout=8 pswpout=50 thp_split_page=3 tlb_flush_events=30" \
	"$("$here/fuzz.sh" --summary "$tmp/sum.log")"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
