#!/usr/bin/env python3
"""Per process of runs 1-4 (docs/results/2026-11-30-h200): the mean ratio to the bound of each
pacing letter (the stderr 'exp pace' lines beside the benchmark's sweep rows, the first two
runs, warm-up and planner's row, left out), and how many runs came within 1.15x.
    scripts/means.py RUNDIR..."""
import glob
import os
import sys
from collections import defaultdict

for rundir in sys.argv[1:]:
    for err in sorted(glob.glob(os.path.join(rundir, "*.err"))):
        txt = err[:-4] + ".txt"
        modes = [l.split()[3] for l in open(err) if l.startswith("exp pace")][2:]
        rows = [l.split(",") for l in open(txt) if l.startswith("sweep,") and not l.startswith("sweep,set")]
        by = defaultdict(list)
        for m, r in zip(modes, rows):
            by[m].append(float(r[20]))
        plan = "d %s k %s" % (rows[0][9], rows[0][10]) if rows else "?"
        within = sum(1 for r in rows if float(r[20]) <= 1.15)
        print("%s %-6s %-9s %s  within 1.15x: %d of %d" % (
            os.path.basename(rundir), os.path.basename(err)[:-4], plan,
            "  ".join("%s %.3f (%d)" % (m, sum(v) / len(v), len(v)) for m, v in sorted(by.items())),
            within, len(rows)))
