#!/usr/bin/env python3
"""Run 5 (docs/results/2026-11-30-h200): per process, the range of the sweep rows' ratio to the
calibrated bound, of their ratio to the bound at the bus's rates measured right before and
after each run (the means of the two "exp moment" lines; the first pair, the planner's row,
left out), of the both-ways rate at those moments, and the runs within 1.15x.
    scripts/moment_ratio.py RUNDIR"""
import os
import sys

d = sys.argv[1]
for proc in ("reg-a", "pin-a", "reg-b", "k18"):
    moments = [l.split() for l in open(os.path.join(d, proc + ".err")) if l.startswith("exp moment")][2:]
    rows = [l.split(",") for l in open(os.path.join(d, proc + ".txt")) if l.startswith("sweep,acoustic")]
    cal, mom, both = [], [], []
    for i, r in enumerate(rows):
        b, a = moments[2 * i], moments[2 * i + 1]
        h, dn, bi = ((float(b[j]) + float(a[j])) / 2 * 1e9 for j in (4, 6, 8))
        up, down, sec = float(r[15]), float(r[16]), float(r[13])
        cal.append(float(r[20]))
        mom.append(sec / max(up / h, down / dn, (up + down) / bi))
        both.append(bi * 1e-9)
    print("%s calibrated %.3f-%.3f moment %.3f-%.3f both %.1f-%.1f GB/s within 1.15x %d of %d" % (
        proc, min(cal), max(cal), min(mom), max(mom), min(both), max(both),
        sum(x <= 1.15 for x in cal), len(cal)))
