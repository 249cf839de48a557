# SPDX-License-Identifier: GPL-2.0
"""Statistics of the timed runs: the summary of one group and the speedup
of the patched kernel with its bootstrap confidence interval.

The summaries come from the standard library's statistics module; what it
lacks is the bootstrap of a ratio of means, one level (runs) or two
(boots, then the runs of each drawn boot)."""

import math
import random
import statistics

BOOTSTRAP_RESAMPLES = 4000

mean = statistics.fmean
median = statistics.median


def stdev(xs):
    """Sample standard deviation (n - 1); 0 for a single value."""
    return statistics.stdev(xs) if len(xs) > 1 else 0.0


def describe(xs):
    return dict(n=len(xs), mean=mean(xs), median=median(xs), stdev=stdev(xs),
                min=min(xs), max=max(xs))


def ci_bounds(stats, level=0.95):
    """The (1 - level) / 2 and (1 + level) / 2 quantiles of @stats.

    Linear interpolation between the closest ranks ("inclusive"), as
    numpy's default percentile.  1 / ((1 - level) / 2) must be a whole
    number (40 for 95%, 200 for 99%).
    """
    n = round(2 / (1 - level))
    if not math.isclose(n, 2 / (1 - level)):
        raise ValueError("level %r: (1 - level) / 2 is not 1/n" % level)
    if len(stats) < 2:
        return stats[0], stats[0]
    cuts = statistics.quantiles(stats, n=n, method="inclusive")
    return cuts[0], cuts[-1]


def speedup_ci(base, new, resamples=BOOTSTRAP_RESAMPLES, level=0.95, seed=1):
    """mean(base) / mean(new) and its percentile bootstrap CI.

    The two groups are resampled independently (a stratified bootstrap).
    Returns (ratio, low, high); low == high == ratio when both groups hold
    a single value.
    """
    ratio = mean(base) / mean(new)
    rng = random.Random(seed)
    nb, nn = len(base), len(new)
    stats = []
    for _ in range(resamples):
        sb = sum(base[rng.randrange(nb)] for _ in range(nb))
        sn = sum(new[rng.randrange(nn)] for _ in range(nn))
        stats.append((sb / nb) / (sn / nn))
    return (ratio,) + ci_bounds(stats, level)


def boot_speedup_ci(base, new, resamples=BOOTSTRAP_RESAMPLES, level=0.95, seed=1):
    """mean(base) / mean(new) with a two-level percentile bootstrap CI.

    base and new map each boot to its list of runs.  Every resample draws,
    per kernel, as many boots as it has with replacement and then each
    drawn boot's runs with replacement, so the CI covers the boot-to-boot
    spread (under TCG often larger than the run-to-run one) and not only
    the spread of runs.  Needs two boots per kernel; the ratio is of the
    means over all runs, as in speedup_ci().
    """
    all_b = [x for runs in base.values() for x in runs]
    all_n = [x for runs in new.values() for x in runs]
    ratio = mean(all_b) / mean(all_n)
    rng = random.Random(seed)
    bb, bn = list(base.values()), list(new.values())

    def draw(boots):
        total = count = 0
        for _ in boots:
            runs = boots[rng.randrange(len(boots))]
            for _ in runs:
                total += runs[rng.randrange(len(runs))]
            count += len(runs)
        return total / count

    stats = [draw(bb) / draw(bn) for _ in range(resamples)]
    return (ratio,) + ci_bounds(stats, level)


def delta_ci(base, new, level=0.95):
    """Delta-method CI of mean(base) / mean(new) (normal approximation).

    Used as a cross-check of the bootstrap in the tests and in samples.json.
    """
    z = statistics.NormalDist().inv_cdf((1 + level) / 2)
    mb, mn = mean(base), mean(new)
    r = mb / mn
    var = statistics.variance(base) / len(base) / mn ** 2 + \
        mb ** 2 * statistics.variance(new) / len(new) / mn ** 4
    half = z * math.sqrt(var)
    return r, r - half, r + half
