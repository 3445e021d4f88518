#!/usr/bin/env python3
"""Per traced run of d 10 k 4 (docs/results/2026-11-30-h200): the run's seconds and its mean
upload and download rates over its first second and over the rest but its last quarter second
(the windows of tools/bench/stencil_bus_rates.py --windows 0.25); with the run's letter from
the experiment's stderr lines where an .err file is given (the warm-up and planner's rows,
the first two, left out), and each letter's means.
    PYTHONPATH=tools/bench scripts/first_second.py TRACE [ERR]"""
import sys

from stencil_bus_rates import spread
from stencil_timeline_steps import trace_runs

W = 0.25
letters = []
if len(sys.argv) > 2:
    letters = [l.split()[3] for l in open(sys.argv[2]) if l.startswith("exp ")]
means = {}
for i, (steps, _, run) in enumerate(trace_runs(sys.argv[1])):
    if run.get("d") != "10" or run.get("k") != "4":
        continue
    up, down, _ = spread(run, steps, width=W)
    rest = slice(4, len(up) - 1)
    first = (sum(up[:4]) / (4 * W) * 1e-9, sum(down[:4]) / (4 * W) * 1e-9)
    after = (sum(up[rest]) / (len(up[rest]) * W) * 1e-9, sum(down[rest]) / (len(down[rest]) * W) * 1e-9)
    letter = letters[i] if i < len(letters) else "-"
    sec = float(run["seconds"])
    print("%s %.3f s  first second up %.1f down %.1f  then up %.1f down %.1f" % ((letter, sec) + first + after))
    means.setdefault(letter, []).append((sec, first[0], after[0]))
for letter, v in sorted(means.items()):
    if letter != "-":
        print("%s mean %.3f s, up %.1f in the first second, %.1f after" %
              ((letter,) + tuple(sum(x[j] for x in v) / len(v) for j in range(3))))
