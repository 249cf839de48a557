#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The table of workspace/icount-profile.sh: instructions per call, per
function, vanilla against patched.

    profile.py ARCH FUNC VANILLA.json PATCHED.json

Each JSON file holds the counted calls, [{"total": N, "funcs": {name: n}}].
A function's count is its median over the calls, so that one call that
took a lock's slow path or refilled a per-CPU batch does not decide; the
totals are shown per call as well.  Functions are listed by the size of
the difference; GCC's clone suffixes (.constprop.0, .isra.0, .part.0) are
kept, since a clone that appears or disappears is often the answer.
"""
import json
import statistics
import sys


def medians(calls):
    names = set()
    for c in calls:
        names.update(c['funcs'])
    return {n: statistics.median(c['funcs'].get(n, 0) for c in calls)
            for n in names}


def table(arch, func, vanilla, patched, top=25):
    v, p = medians(vanilla), medians(patched)
    vt = [c['total'] for c in vanilla]
    pt = [c['total'] for c in patched]
    lines = [
        f'{arch}: instructions per call of {func} (median of '
        f'{len(vt)} and {len(pt)} calls)',
        f'  vanilla {statistics.median(vt):8.0f}   calls: '
        + ' '.join(str(t) for t in vt),
        f'  patched {statistics.median(pt):8.0f}   calls: '
        + ' '.join(str(t) for t in pt),
        f'  {"function":40} {"vanilla":>8} {"patched":>8} {"diff":>7}',
    ]
    rows = sorted(set(v) | set(p),
                  key=lambda n: (-abs(p.get(n, 0) - v.get(n, 0)),
                                 -max(p.get(n, 0), v.get(n, 0)), n))
    for n in rows[:top]:
        a, b = v.get(n, 0), p.get(n, 0)
        lines.append(f'  {n[:40]:40} {a:8.0f} {b:8.0f} {b - a:+7.0f}')
    if len(rows) > top:
        lines.append(f'  ... {len(rows) - top} more functions')
    return '\n'.join(lines)


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    with open(argv[3]) as f:
        vanilla = json.load(f)
    with open(argv[4]) as f:
        patched = json.load(f)
    print(table(argv[1], argv[2], vanilla, patched))


if __name__ == '__main__':
    main(sys.argv)
