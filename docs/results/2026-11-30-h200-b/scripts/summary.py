#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The table of this directory's README from the runs' files: per process, in the order they
ran, the memory, the set-up (allocation and fill, where the benchmark printed it), the
handle's first run (the benchmark's warm-up) and its locking, the timed runs' ratios to the
PCIe bound (min, mean, max, how many within 1.15x); for runs 2 and 3 also the fixed pinned
pair measured before and after each d 10 k 4 process (p50 of a 1 GiB pair each way) and the
least time of the engine's pattern at that rate: the downloads beside the uploads at the
pair's rate per direction, then the rest of the uploads alone at the calibrated h2d rate.
Usage: summary.py RUNDIR...   Standard library only."""
import glob
import os
import re
import sys

GIB = 1 << 30


def calibrated(run):
    text = open(os.path.join(run, "calibrate.txt")).read()
    m = re.search(r"h2d pinned\s+([\d.]+) GB/s\s+d2h pinned\s+([\d.]+) GB/s\s+both\s+([\d.]+)", text)
    return tuple(float(x) for x in m.groups())


def pair_p50(run, name):
    path = os.path.join(run, name + ".txt")
    if not os.path.exists(path):
        return None
    m = re.search(r"^series pairs .*? p50 (\d+)", open(path).read(), re.M)
    return int(m.group(1)) * 1e-6 if m else None


def process(run, name):
    text = open(os.path.join(run, name + ".txt")).read()
    rows = [l.split(",") for l in text.splitlines() if l.startswith("sweep,acoustic")]
    warm = re.search(r"warm-up .*?, ([\d.]+) s, seconds_register ([\d.]+)", text)
    setup = re.search(r"set-up: fields allocated in ([\d.]+) s \(([^)]*)\), filled in ([\d.]+) s", text)
    if setup:
        memory = {"calloc": "calloc", "hyblas_host_alloc": "host-alloc"}.get(setup.group(2), setup.group(2))
    else:
        memory = "host-alloc" if "h" in name[name.index("k") + 2:] else "calloc"
    ratios = [float(r[20]) for r in rows]
    up, down = float(rows[0][15]), float(rows[0][16])
    return {
        "plan": "d %s k %s" % (rows[0][9], rows[0][10]),
        "memory": memory,
        "setup": "%.2f + %.2f" % (float(setup.group(1)), float(setup.group(3))) if setup else "-",
        "warm": (float(warm.group(1)), float(warm.group(2))),
        "ratios": ratios,
        "up": up,
        "down": down,
        "bound": float(rows[0][19]),
    }


def main(runs):
    print("| run | process | plan | memory | set-up s (alloc + fill) | first run s (locking s) | ratio min / mean / max | within 1.15x | pair before / after ms | floor / bound | mean / floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for run in runs:
        h2d, d2h, both = calibrated(run)
        files = [p for p in glob.glob(os.path.join(run, "*.txt")) if "sweep,acoustic" in open(p).read()]
        names = [os.path.basename(p)[:-4] for p in sorted(files, key=os.path.getmtime)]
        pairs = {}
        order = [n for n in ("k4r1", "k4h1", "k4r2", "k4h2") if n in names]
        for i, n in enumerate(order):
            pairs[n] = (pair_p50(run, "pair%d" % (i + 1)), pair_p50(run, "pair%d" % (i + 2)))
        for n in names:
            p = process(run, n)
            r = p["ratios"]
            mean = sum(r) / len(r)
            within = sum(x <= 1.15 for x in r)
            cells = ["-", "-", "-"]
            before, after = pairs.get(n, (None, None))
            if before and after:
                span = (before + after) / 2
                rate = GIB / span  # bytes/s each way, both at once
                floor = p["down"] / rate + (p["up"] - p["down"]) / (h2d * 1e9)
                cells = ["%.1f / %.1f" % (before * 1e3, after * 1e3), "%.3f" % (floor / p["bound"]),
                         "%.3f" % (mean * p["bound"] / floor)]
            print("| %s | %s | %s | %s | %s | %.2f (%.2f) | %.3f / %.3f / %.3f | %d of %d | %s |" % (
                os.path.basename(run.rstrip("/")), n, p["plan"], p["memory"], p["setup"], p["warm"][0], p["warm"][1],
                min(r), mean, max(r), within, len(r), " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
