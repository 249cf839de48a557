#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Analyse the console logs of the bench plans: vanilla against patched.

    bench.py [-o OUTDIR] [--strict] LOG...

Every LOG is the console log of one boot.  Its labels (arch, kernel =
vanilla|patched, boot index, accelerator, ...) come from, in order of
precedence:
  - an argument written ARCH:KERNEL:BOOT:PATH,
  - a sidecar PATH.meta.json (or PATH without .log + .meta.json) holding a
    flat JSON object, e.g. {"arch": "arm64", "kernel": "patched",
    "boot": 1, "accel": "tcg", "kernel_version": "7.3.4",
    "kernel_commit": "abc123", "qemu": "7.2.22", "host_cpu": "..."},
  - the sidecar PATH.accel written by qemu-run.sh,
  - a file name of the form ARCH-KERNEL-BOOT.log,
  - the guest's own PB-BEGIN / PB-INFO lines (arch, kernel release).

Each timed run of pb_bench is a line "PB-SAMPLE {json}".  Samples with
"warmup": 1 are kept in samples.json and left out of the statistics.  For
every (arch, workload, folio size, region size) and kernel the statistics
are n, mean, median, sample standard deviation, min and max of the time of
the timed region.  The speedup is mean(vanilla) / mean(patched) (a ratio
of means; above 1 the patched kernel is faster), with a 95% percentile
bootstrap confidence interval (each kernel's runs resampled independently,
4000 resamples, fixed seed).  The ratio of medians is shown beside it.

Every sample is checked against the counters that prove the intended path
ran (see check_sample()); a sample that fails a check is flagged in the
table, the report and samples.json.  --strict makes flagged samples, a
workload measured on only one kernel, or an order-0 (4K) MADV_PAGEOUT
speedup below 0.98 whose whole CI lies below 1 fail the command.

Writes OUTDIR/report.md, OUTDIR/samples.json, OUTDIR/speedup.png and
prints one side-by-side table per arch.  The work is done by the modules of
workspace/benchlib/, one job each (see its __init__.py).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.cli import main  # noqa: E402
from benchlib.plot import reexec_for_matplotlib  # noqa: E402

if __name__ == "__main__":
    reexec_for_matplotlib()
    sys.exit(main())
