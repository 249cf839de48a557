#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh [--refresh] TREE
#
# Turn the pristine base (build/base, tag "pristine") into TREE, a git
# repository with one commit per step of patches/series.  The tree must be
# clean; it is reset to the pristine commit and the series is applied in
# order.  The first failing step stops the run and is named.  When the
# inputs have not changed since the last run, nothing is done.
#
# --refresh writes the tree's commits back into the repository: patch
# steps are regenerated with git format-patch, copy steps copy the files
# (and the commit message) back.  Generated (cocci) steps are compared
# with a fresh run of the script; an edit to them is reported, since the
# script is what has to change.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
BASE=$BUILD/base
SERIES=$REPO/patches/series
IDENT_NAME="pgtable_batch"
IDENT_MAIL="pgtable_batch@localhost"
export GIT_AUTHOR_NAME=$IDENT_NAME GIT_AUTHOR_EMAIL=$IDENT_MAIL
export GIT_COMMITTER_NAME=$IDENT_NAME GIT_COMMITTER_EMAIL=$IDENT_MAIL
# Fixed dates: the same inputs give the same commit ids.
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

refresh=0
if [ "${1:-}" = --refresh ]; then refresh=1; shift; fi
TREE=$(realpath -m "${1:?usage: tree.sh [--refresh] TREE}")

die() { printf 'tree: %s\n' "$*" >&2; exit 1; }

[ -f "$BASE/.pristine" ] || die "no base: run workspace/base.sh (make base)"

# Steps as "kind<TAB>args"; comments and blank lines dropped.
steps() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES" | awk 'NF'; }

# Hash of everything the series reads, so an unchanged series is a no-op.
inputs_hash() {
	local kind a rest
	{
		cat "$SERIES" "$0"
		steps | while read -r kind a rest; do
			case $kind in
			copy)
				cat "$REPO/patches/$a"
				for f in $rest; do
					echo "$f"
					case $f in +*) cat "$REPO/patches/${f#+}" ;; *) cat "$REPO/$f" ;; esac
				done
				;;
			patch) cat "$REPO/patches/$a" ;;
			cocci)
				set -- $rest; cat "$REPO/patches/$a" "$REPO/$1"; echo "$rest"
				for f in $rest; do case $f in +*) cat "$REPO/patches/${f#+}" ;; esac; done
				;;
			esac
		done
	} | sha1sum | cut -d' ' -f1
}

msg_subject() { head -1 "$REPO/patches/$1"; }
msg_body() { tail -n +3 "$REPO/patches/$1"; }

cocci_options() {	# the script's "// Options:" line, as coccicheck reads it
	sed -n 's|^//[[:space:]]*Options:||p' "$1" | head -1
}

cocci_split() {	# path... [+fixup...] -> paths[], fixups[]
	paths=(); fixups=()
	local f
	for f in "$@"; do
		case $f in +*) fixups+=("${f#+}") ;; *) paths+=("$f") ;; esac
	done
}

run_cocci() {	# script path...  (in the tree)
	local script=$1; shift
	local opts
	opts=$(cocci_options "$REPO/$script")
	# shellcheck disable=SC2086
	spatch -D patch --very-quiet --in-place --max-width 80 $opts \
		--sp-file "$REPO/$script" "$@" >/dev/null
}

if [ "$refresh" = 1 ]; then
	[ -d "$TREE/.git" ] || die "$TREE is not a tree made by make tree"
	cd "$TREE"
	[ -z "$(git status --porcelain)" ] || die "$TREE has uncommitted changes; commit them first"
	mapfile -t commits < <(git rev-list --reverse pristine..HEAD)
	mapfile -t lines < <(steps)
	[ "${#commits[@]}" = "${#lines[@]}" ] ||
		die "tree has ${#commits[@]} commits, series has ${#lines[@]} steps: cannot map them"
	for i in "${!lines[@]}"; do
		read -r kind a rest <<<"${lines[$i]}"
		c=${commits[$i]}
		case $kind in
		patch)
			git format-patch -q -1 --stdout --no-signature "$c" >"$REPO/patches/$a.new"
			if cmp -s <(grep -v '^index ' "$REPO/patches/$a") <(grep -v '^index ' "$REPO/patches/$a.new"); then
				rm "$REPO/patches/$a.new"
			else
				mv "$REPO/patches/$a.new" "$REPO/patches/$a"
				echo "refreshed patches/$a"
			fi
			;;
		copy)
			for f in $rest; do
				case $f in
				+*)	# the diff of the files it touches in this commit
					d=$REPO/patches/${f#+}
					git diff "$c^" "$c" -- $(sed -n 's|^+++ b/||p' "$d") >"$d.new"
					if cmp -s <(grep -v '^index ' "$d") <(grep -v '^index ' "$d.new"); then rm "$d.new"
					else mv "$d.new" "$d"; echo "refreshed patches/${f#+}"; fi
					continue
					;;
				esac
				git show "$c:$f" >"$REPO/$f.new"
				if cmp -s "$REPO/$f" "$REPO/$f.new"; then rm "$REPO/$f.new"
				else mv "$REPO/$f.new" "$REPO/$f"; echo "refreshed $f"; fi
			done
			git log -1 --format=%B "$c" | sed '/^Signed-off-by: /d' |
				sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$REPO/patches/$a.new"
			if cmp -s "$REPO/patches/$a" "$REPO/patches/$a.new"; then rm "$REPO/patches/$a.new"
			else mv "$REPO/patches/$a.new" "$REPO/patches/$a"; echo "refreshed patches/$a"; fi
			;;
		cocci)
			set -- $rest
			git -c advice.detachedHead=false checkout -q "$c^"
			shift
			cocci_split "$@"
			run_cocci "${rest%% *}" "${paths[@]}" || true
			for d in "${fixups[@]}"; do git apply "$REPO/patches/$d" || true; done
			if ! git diff --quiet "$c"; then
				echo "step $((i + 1)) (cocci ${rest%% *}) was edited by hand; change the script instead"
			fi
			git checkout -q -f "${commits[-1]}"
			;;
		esac
	done
	exit 0
fi

want=$(inputs_hash)
if [ -d "$TREE/.git" ]; then
	cd "$TREE"
	[ -z "$(git status --porcelain)" ] ||
		die "$TREE has uncommitted changes; commit them (make refresh) or remove the tree"
	if [ "$(git config --get pgtable-batch.inputs || true)" = "$want" ]; then
		echo "tree: $TREE is up to date ($(git rev-list --count pristine..HEAD) steps)"
		exit 0
	fi
	git -c advice.detachedHead=false checkout -q -B series pristine
else
	git clone -q --shared --no-checkout "$BASE" "$TREE"
	cd "$TREE"
	git checkout -q -b series pristine
	git config user.name "$IDENT_NAME"
	git config user.email "$IDENT_MAIL"
fi
git clean -qfdx

n=0
while read -r kind a rest; do
	n=$((n + 1))
	case $kind in
	copy)
		[ -n "$rest" ] || die "step $n: copy $a names no files"
		for f in $rest; do
			case $f in
			+*)	# a diff to existing files, part of the same commit
				git apply --index "$REPO/patches/${f#+}" ||
					die "step $n (copy $a): patches/${f#+} does not apply"
				continue
				;;
			esac
			[ -f "$REPO/$f" ] || die "step $n (copy $a): $f does not exist"
			mkdir -p "$(dirname "$f")"
			cp "$REPO/$f" "$f"
			git add -f "$f"
		done
		{ msg_subject "$a"; echo; msg_body "$a"; } |
			git commit -q -s -F - || die "step $n (copy $a): nothing to commit"
		;;
	patch)
		if ! git am -q --keep-cr "$REPO/patches/$a" 2>"$TREE/.git/am.err"; then
			failed=$(git am --show-current-patch=diff 2>/dev/null | sed -n 's|^+++ b/||p' | tr '\n' ' ')
			cat "$TREE/.git/am.err" >&2
			git am --abort || true
			die "step $n (patch $a) does not apply to $(git describe --tags --always pristine): check $failed"
		fi
		;;
	cocci)
		set -- $rest
		script=$1; shift
		cocci_split "$@"
		[ ${#paths[@]} -gt 0 ] || die "step $n (cocci $script) names no paths"
		run_cocci "$script" "${paths[@]}" || die "step $n (cocci $script): spatch failed"
		[ -n "$(git status --porcelain)" ] || die "step $n (cocci $script) changed nothing"
		for d in "${fixups[@]}"; do
			git apply "$REPO/patches/$d" ||
				die "step $n (cocci $script): patches/$d does not apply to the script's output"
		done
		{
			msg_subject "$a"
			echo
			body=$(msg_body "$a")
			[ -n "$body" ] && printf '%s\n\n' "$body"
			sed -n 's|^///[[:space:]]\{0,1\}||p' "$REPO/$script"
			echo
			echo "Generated by: $script"
		} | git commit -q -a -s -F -
		;;
	*) die "step $n: unknown kind '$kind'" ;;
	esac
	echo "tree: [$n] $(git log -1 --format=%s)"
done < <(steps)

git config pgtable-batch.inputs "$want"
echo "tree: $TREE: $n steps on $(git log -1 --format=%s pristine)"
