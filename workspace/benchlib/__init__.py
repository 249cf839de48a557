# SPDX-License-Identifier: GPL-2.0
"""The analysis behind workspace/bench.py, one job per module:

    parse     console logs -> labelled boots and their PB-SAMPLE runs
    checks    the counters that prove a run took the intended path
    stats     summaries, the speedup and its bootstrap CI
    analyse   samples grouped per workload and kernel -> statistics rows
    tables    the rows as text and Markdown tables
    report    report.md
    plot      speedup.png
    cli       the command line tying them together
"""
