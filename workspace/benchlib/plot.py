# SPDX-License-Identifier: GPL-2.0
"""speedup.png: the speedup against folio size (matplotlib, if present)."""

import os
import sys

from .analyse import BENCH_ORDER, BENCH_TITLE, seed_for
from .tables import fmt_size


# Marker and colour of each arch's line; any other arch gets its own.
STYLE = {"arm64": ("o", "C0"), "x86_64": ("s", "C1"), "riscv64": ("^", "C2")}


def plot(path, rows):
    """Speedup against folio size, one panel per workload, one line per arch.

    Returns the arches drawn (a false value when nothing was plotted)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    benches = [b for b in BENCH_ORDER
               if any(r["bench"] == b and r["speedup"] is not None for r in rows)]
    if not benches:
        return False
    fig, axes = plt.subplots(1, len(benches), figsize=(max(7, 4.5 * len(benches)), 4.5),
                             squeeze=False)
    drawn = set()
    for ax, bench in zip(axes[0], benches):
        for i, arch in enumerate(sorted({r["arch"] for r in rows})):
            marker, color = STYLE.get(arch, ("D", "C%d" % (3 + i)))
            pts = sorted((r["size_kb"], r) for r in rows
                         if r["bench"] == bench and r["arch"] == arch and
                         r["speedup"] is not None)
            if not pts:
                continue
            xs = [p[0] for p in pts]
            ys = [p[1]["speedup"] for p in pts]
            # A percentile bootstrap CI need not contain the ratio of the
            # means (skewed runs, or one run a side where the two differ
            # in the last bit): draw no bar below or above the point then.
            err = [[max(0.0, y - p[1]["ci_low"]) for y, p in zip(ys, pts)],
                   [max(0.0, p[1]["ci_high"] - y) for y, p in zip(ys, pts)]]
            ax.errorbar(xs, ys, yerr=err, marker=marker, color=color, capsize=3,
                        label=arch)
            drawn.add(arch)
            sx = [kb for kb in xs if seed_for(bench, kb, arch) and
                  not seed_for(bench, kb, arch).get("in_base")]
            if sx:
                ax.scatter(sx, [seed_for(bench, kb, arch)["ratio"] for kb in sx],
                           marker="*", s=120, zorder=5, color=color,
                           label="%s seed" % arch)
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xscale("log", base=2)
        ticks = sorted({r["size_kb"] for r in rows if r["bench"] == bench})
        ax.set_xticks(ticks)
        ax.set_xticklabels([fmt_size(t) for t in ticks], rotation=45)
        ax.set_xlabel("folio size")
        ax.set_ylabel("speedup (vanilla / patched mean time)")
        ax.set_title(BENCH_TITLE.get(bench, bench))
        ax.legend(fontsize=8)
    if not drawn:
        plt.close(fig)
        return False
    fig.suptitle("speedup of the patched kernel, 95% bootstrap CI "
                 "(TCG timings: read as ratios)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return sorted(drawn)


def reexec_for_matplotlib():
    """Run under the system python3 when this one lacks matplotlib."""
    try:
        import matplotlib  # noqa: F401 (only probing)
        return
    except ImportError:
        pass
    system = "/usr/bin/python3"
    if (os.path.exists(system) and not os.environ.get("PB_BENCH_REEXEC") and
            os.path.realpath(sys.executable) != os.path.realpath(system)):
        os.environ["PB_BENCH_REEXEC"] = "1"
        os.execv(system, [system, os.path.abspath(sys.argv[0])] + sys.argv[1:])
