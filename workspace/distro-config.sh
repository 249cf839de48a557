#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-config.sh [ARCHES]
#
# Check the bench kernels' distribution fragments (configs/distro.config
# and configs/<arch>-distro.config) against Debian's own kernel
# configurations of the release the tree is built on: package
# linux-config-<major.minor>, fetched with apt-get download into
# build/dl/.  Every option a fragment sets must have the same value in
# Debian's configuration of each arch the fragment applies to (distro.config:
# x86_64 and arm64; <arch>-distro.config: that arch), "is not set" matching
# an option Debian leaves off or does not have.  The options listed in
# DIFFER below are the known exceptions, each with its reason.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
CFG=$REPO/workspace/configs
ARCHES=${1:-x86_64 arm64}
DL=$BUILD/dl/linux-config

# Deliberate differences from Debian (option: reason).
declare -A DIFFER=(
	[ZRAM]="Debian builds it as a module; the guests load no modules"
)

die() { echo "distro-config: $*" >&2; exit 1; }

# The release of the base tree (Makefile's VERSION.PATCHLEVEL).
release=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { print v "." $3; exit }' \
	"$BUILD/base/Makefile" 2>/dev/null) || true
[ -n "$release" ] || die "no base tree in $BUILD/base (make base)"
pkg=linux-config-$release
mkdir -p "$DL"

debian_config() {	# arch -> path of Debian's configuration for it
	local deb dir
	case $1 in
	x86_64) deb=amd64; dir=$DL/amd64; file=config.amd64_none_amd64.xz ;;
	arm64) deb=arm64; dir=$DL/arm64; file=config.arm64_none_arm64.xz ;;
	*) die "no Debian configuration for $1" ;;
	esac
	if [ ! -f "$dir/config" ]; then
		rm -rf "$dir" && mkdir -p "$dir"
		# (apt's download sandbox user cannot write under build/: root
		# downloads it itself, which apt reports on stderr.)
		(cd "$dir" && apt-get download -qq "$pkg:$deb" >/dev/null 2>"$dir/apt.log") ||
			die "apt-get download $pkg:$deb failed ($dir/apt.log; make deps adds the arm64 architecture)"
		dpkg-deb -x "$dir"/*.deb "$dir/x"
		xzcat "$dir/x/usr/src/$pkg/$file" >"$dir/config"
		dpkg-deb -f "$dir"/*.deb Version >"$dir/version"
	fi
	echo "$dir/config"
}

value() {	# config option -> its value there ("n" when off or absent)
	local v
	v=$(grep -E "^CONFIG_$2=" "$1" | head -1 | cut -d= -f2-) || true
	echo "${v:-n}"
}

fails=0 checked=0
check_fragment() {	# fragment arch...
	local frag=$1 o want got a conf
	shift
	while read -r o want; do
		for a in "$@"; do
			conf=$(debian_config "$a")
			got=$(value "$conf" "$o")
			checked=$((checked + 1))
			[ "$got" = "$want" ] && continue
			if [ -n "${DIFFER[$o]:-}" ]; then
				echo "distro-config: $a CONFIG_$o=$want (Debian: $got): ${DIFFER[$o]}"
				continue
			fi
			echo "distro-config: $(basename "$frag"): CONFIG_$o=$want, Debian $a has $got"
			fails=$((fails + 1))
		done
	done < <(sed -nE -e 's/^CONFIG_([A-Za-z0-9_]+)=(.*)/\1 \2/p' \
		-e 's/^# CONFIG_([A-Za-z0-9_]+) is not set/\1 n/p' "$frag")
}

common=()
for a in $ARCHES; do
	case $a in x86_64|arm64) common+=("$a") ;; esac
done
if [ ${#common[@]} = 0 ]; then
	echo "distro-config: no Debian configuration is checked for $ARCHES"
	exit 0
fi
check_fragment "$CFG/distro.config" "${common[@]}"
for a in "${common[@]}"; do
	check_fragment "$CFG/$a-distro.config" "$a"
done
ver=$(cat "$DL/${common[0]/x86_64/amd64}/version" 2>/dev/null || echo "?")
if [ "$fails" -gt 0 ]; then
	echo "distro-config: $fails of $checked values differ from Debian's $pkg $ver"
	exit 1
fi
echo "distro-config: $checked values match Debian's $pkg $ver (${common[*]})"
