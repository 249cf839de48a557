#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# patched-worktree.sh REPO WT PATCH
#
# Keep WT a worktree of REPO's HEAD with PATCH applied on top.  Nothing is
# touched while neither REPO's HEAD nor PATCH changed (WT.stamp), so a
# kernel built from WT stays incremental.
set -euo pipefail

REPO=$(realpath "${1:?repo}"); WT=$(realpath -m "${2:?worktree}"); PATCH=$(realpath "${3:?patch}")

head=$(git -C "$REPO" rev-parse HEAD)
stamp="$head $(sha1sum <"$PATCH")"
[ "$(cat "$WT.stamp" 2>/dev/null)" = "$stamp" ] && exit 0
if [ ! -e "$WT/.git" ]; then
	rm -rf "$WT"
	git -C "$REPO" worktree prune
	git -C "$REPO" worktree add -q --detach "$WT" "$head"
fi
git -C "$WT" checkout -q -f --detach "$head"
git -C "$WT" apply "$PATCH" || {
	echo "patched-worktree: $PATCH does not apply to $REPO at $head" >&2
	exit 1
}
echo "$stamp" >"$WT.stamp"
