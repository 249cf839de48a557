#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh TREE [ARCH...]
#
# The pgtable_batch KUnit suite run the way a kernel developer runs it:
# TREE's own tools/testing/kunit/kunit.py with mm/tests/.kunitconfig and
# the options Documentation/mm/pgtable_batch.rst ("Testing an Override")
# gives each arch.  ARCH is um (UML), x86_64, arm64 or riscv64 (default:
# all four).  kunit.py builds each kernel in build/kunit/ARCH (ccache
# where the host has it) and boots it (UML, or QEMU TCG); its JSON
# results (build/kunit/ARCH.json) must show the suite, no failed or
# crashed case, and on arm64 the contpte overrides built and tested
# (pb_contpte_fold passed).  Logs: build/kunit/ARCH.log.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
TREE=$(realpath "${1:?usage: kunit.sh TREE [ARCH...]}")
shift
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(um x86_64 arm64 riscv64)
OUT=$BUILD/kunit
mkdir -p "$OUT"
[ -d /usr/lib/ccache ] && export PATH=/usr/lib/ccache:$PATH
# kunit.py starts QEMU with "-accel kvm -accel hvf -accel tcg": KVM
# first wherever /dev/kvm exists.  Where /dev/kvm is there but a guest
# hangs under it (this project's CI machines: workspace/qemu-run.sh's
# probe finds it so), the x86_64 run would sit until kunit.py's timeout
# with no output.  The x86_64 guest runs under TCG, as the project's own
# guests do there, through a qemu-system-x86_64 that drops "-accel kvm"
# (PB_KUNIT_KVM=1 keeps it).
if [ "${PB_KUNIT_KVM:-0}" != 1 ]; then
	wrap=$OUT/bin
	mkdir -p "$wrap"
	real=$(command -v qemu-system-x86_64 || true)
	if [ -n "$real" ]; then
		cat >"$wrap/qemu-system-x86_64" <<EOF
#!/bin/bash
# workspace/kunit.sh: kunit.py's x86_64 QEMU without KVM.
args=()
while [ \$# -gt 0 ]; do
	if [ "\$1" = -accel ] && [ "\${2:-}" = kvm ]; then shift 2; continue; fi
	args+=("\$1"); shift
done
exec "$real" "\${args[@]}"
EOF
		chmod +x "$wrap/qemu-system-x86_64"
		export PATH=$wrap:$PATH
	fi
fi
# kunit.py's own limit on the test run; the whole run (build included)
# gets KUNIT_LIMIT seconds.
LIMIT=${KUNIT_LIMIT:-2400}

rc=0
for a in "${arches[@]}"; do
	case $a in
	um) opts=() ;;
	x86_64) opts=(--arch=x86_64 --kconfig_add CONFIG_MEMORY_FAILURE=y) ;;
	arm64) opts=(--arch=arm64 --cross_compile=aarch64-linux-gnu-
		     --kconfig_add CONFIG_TRANSPARENT_HUGEPAGE=y
		     --kconfig_add CONFIG_MEMORY_FAILURE=y) ;;
	riscv64) opts=(--arch=riscv --cross_compile=riscv64-linux-gnu-) ;;
	*) echo "kunit: unknown arch $a (um, x86_64, arm64, riscv64)" >&2; exit 2 ;;
	esac
	log=$OUT/$a.log json=$OUT/$a.json
	rm -f "$json"
	echo "kunit: $a: kunit.py run --kunitconfig=mm/tests ${opts[*]}"
	start=$SECONDS
	r=0
	(cd "$TREE" && timeout -k 30 "$LIMIT" python3 tools/testing/kunit/kunit.py run \
		--kunitconfig=mm/tests --build_dir="$OUT/$a" --jobs="$(nproc)" \
		--timeout=900 --json="$json" "${opts[@]}") >"$log" 2>&1 || r=$?
	# What kunit.py printed of the results (not the build).
	sed -n '/^\[[0-9:]*\] =*\( pgtable_batch\|Testing complete\)/,$p' "$log" |
		grep -E "PASSED|SKIPPED|FAILED|CRASHED|Testing complete|contpte|pgtable_batch" |
		sed "s/^/kunit: $a: /" | tail -40 || true
	# The suite's log names what the arch overrides (kunit.py shows
	# only results; its raw kernel output is the build dir's test.log).
	grep -ho "# pgtable_batch: [a-z_]*: \(arch override\|generic loop\)" \
		"$OUT/$a/test.log" 2>/dev/null | sed "s/^# /kunit: $a: /" || true
	if ! python3 "$REPO/workspace/kunit_check.py" "$a" "$json"; then
		[ "$r" = 0 ] && r=1
	fi
	echo "kunit: $a: rc=$r, $((SECONDS - start)) s (log $log)"
	[ "$r" = 0 ] || rc=1
done
exit $rc
