#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh TREE OUT
#
# The series as it is posted: git format-patch of pristine..HEAD of TREE
# into OUT, with a cover letter (patches/cover-letter), under the
# identity of whoever posts it.  The tree's commits carry the
# workspace's placeholder identity (workspace/tree.sh), which no mailing
# list takes: every patch gets the submitter's From: and
# Signed-off-by: instead of the placeholder's (the Developer's
# Certificate of Origin is the submitter's to give), and the cover letter
# their From:.  The commits of TREE and the files of patches/ keep the
# placeholder.  Each patch then passes checkpatch.pl --strict (which
# also checks that From: and Signed-off-by: agree), or the target fails.
#
# The identity: SIGNOFF="Name <address>", else git config user.name and
# user.email (of this repository, else global).  The placeholder and a
# @localhost address are refused.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
TREE=$(realpath "${1:?usage: series.sh TREE OUT}")
OUT=$(realpath -m "${2:?usage: series.sh TREE OUT}")
PLACEHOLDER="pgtable_batch <pgtable_batch@localhost>"

die() { printf 'series: %s\n' "$*" >&2; exit 1; }

ident=${SIGNOFF:-}
if [ -z "$ident" ]; then
	name=$(git -C "$REPO" config user.name || true)
	mail=$(git -C "$REPO" config user.email || true)
	if [ -z "$name" ] || [ -z "$mail" ]; then
		die "who posts the series? SIGNOFF=\"Name <address>\" or git config user.name and user.email"
	fi
	ident="$name <$mail>"
fi
[[ $ident =~ ^([^<>]*[^<> ])\ +\<([^<>@ ]+@[^<>@ ]+)\>$ ]] ||
	die "SIGNOFF is \"Name <address>\", not \"$ident\""
name=${BASH_REMATCH[1]}
mail=${BASH_REMATCH[2]}
if [ "$name <$mail>" = "$PLACEHOLDER" ] || [[ $mail == *@localhost ]]; then
	die "\"$ident\" is the workspace's placeholder or a local address, not a submitter"
fi

# A scratch clone: the rewritten commits never reach TREE.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git clone -q --shared --bare "$TREE" "$tmp/t"
git -C "$tmp/t" fetch -q "$TREE" "refs/tags/pristine:refs/tags/pristine"
git -C "$tmp/t" update-ref refs/heads/series "$(git -C "$TREE" rev-parse HEAD)"

# Author and sign-off: the placeholder's Signed-off-by lines go, and the
# submitter's is added after the other trailers unless the message has
# it already.  A commit of another author keeps its author (format-patch
# --from below gives it an in-body From: line).
export SUB_NAME=$name SUB_MAIL=$mail PLACEHOLDER
# shellcheck disable=SC2016 # the filters expand in filter-branch's shell
FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$tmp/t" filter-branch -f \
	--env-filter '
		if [ "$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>" = "$PLACEHOLDER" ]; then
			GIT_AUTHOR_NAME=$SUB_NAME GIT_AUTHOR_EMAIL=$SUB_MAIL
		fi
		GIT_COMMITTER_NAME=$SUB_NAME GIT_COMMITTER_EMAIL=$SUB_MAIL
		export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL' \
	--msg-filter '
		grep -vFx "Signed-off-by: $PLACEHOLDER" |
		git -c trailer.where=end interpret-trailers --if-exists addIfDifferent \
			--trailer "Signed-off-by: $SUB_NAME <$SUB_MAIL>"' \
	pristine..series >/dev/null

rm -rf "$OUT" && mkdir -p "$OUT"
git -C "$tmp/t" config branch.series.description "$(cat "$REPO/patches/cover-letter")"
# The cover letter's From: is the committer's identity, the patches'
# --from's.
env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL \
	git -C "$tmp/t" -c user.name="$name" -c user.email="$mail" format-patch -q --from="$name <$mail>" \
	--cover-letter --cover-from-description=subject --no-signature \
	-o "$OUT" pristine..series

# Every patch sent by the submitter, checked as it is posted: the From:
# header as a mail reader decodes it (a long one is folded or encoded),
# and the author git am takes (the in-body From: of another author's
# commit), never the placeholder.
sender() {
	/usr/bin/python3 -c 'import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
a = m["From"].addresses[0]
print(a.display_name + "\t" + a.addr_spec)' "$1"
}
author() { git mailinfo /dev/null /dev/null <"$1" | sed -n 's/^Author: //p; s/^Email: //p' | paste -sd'\t'; }
n=0
for p in "$OUT"/*.patch; do
	[ "$(sender "$p")" = "$name	$mail" ] || die "$(basename "$p"): From: is not $name <$mail>"
	[ "$p" = "$OUT/0000-cover-letter.patch" ] && continue
	n=$((n + 1))
	[ "$(author "$p")" != "pgtable_batch	pgtable_batch@localhost" ] ||
		die "$(basename "$p"): the author is still the placeholder"
	grep -qFx "Signed-off-by: $name <$mail>" "$p" || die "$(basename "$p"): no Signed-off-by: $name <$mail>"
	! grep -qF "$PLACEHOLDER" "$p" || die "$(basename "$p"): still names the placeholder"
done
report=$OUT.checkpatch.txt
spell=()
[ -f /usr/share/codespell/dictionary.txt ] && spell=(--codespell)
patches=()
for p in "$OUT"/0*.patch; do
	[ "$p" = "$OUT/0000-cover-letter.patch" ] || patches+=("$p")
done
# Debian's python3 first, as in lint.sh (spdxcheck.py's modules).
# Without --quiet: a "total:" line per patch proves checkpatch read each
# one (a checkpatch that dies prints none).
# UNKNOWN_COMMIT_ID ignored as in lint.sh: no upstream history in the tree.
(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --color=never \
	--ignore UNKNOWN_COMMIT_ID "${spell[@]}" "${patches[@]}") >"$report" 2>&1 || true
totals=$(grep -Ec '^total: [0-9]+ errors, [0-9]+ warnings' "$report" || true)
[ "$totals" = "${#patches[@]}" ] ||
	die "checkpatch reported on $totals of ${#patches[@]} patches ($report)"
if grep -Eq '^(ERROR|WARNING):' "$report" || grep -Eq '^total: ([1-9][0-9]* errors|[0-9]+ errors, [1-9])' "$report"; then
	grep -E -A4 '^(ERROR|WARNING):' "$report" | head -40
	die "checkpatch --strict: $(grep -Ec '^(ERROR|WARNING):' "$report") errors/warnings ($report)"
fi
echo "series: $n patches and a cover letter in $OUT, From: and Signed-off-by: $name <$mail>; checkpatch --strict: no errors or warnings ($(grep -c '^CHECK:' "$report" || true) CHECKs, $report)"
