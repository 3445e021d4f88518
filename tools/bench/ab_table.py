#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of an A/B run of tools/bench/run_setting_ab.sh: per case, NVBLAS and each
hyblas label (base, v0, v1, in the order they first appear) as the median in milliseconds of
all its calls (auto and forced device, every round) with their range; the change of the last
label against the first, and NVBLAS's time over the last label's.
  tools/bench/ab_table.py ab_HYBLAS_HOST_BETA.csv"""
import collections
import csv
import statistics
import sys


def main():
    lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
    times, labels = collections.defaultdict(list), []
    for r in csv.DictReader(lines):
        label = r["label"].split("-hyblas")[0] if "-hyblas" in r["label"] else r["label"]
        if label != "nvblas" and label not in labels:
            labels.append(label)
        key = (r["prec"], r["shape"], int(r["m"]), int(r["n"]), int(r["k"]), r["beta"])
        times[key, label].append(float(r["seconds"]) * 1e3)
    keys = sorted({k for k, _ in times}, key=lambda k: (k[1], k[0], k[2], k[4], k[5]))

    def cell(v):
        m = statistics.median(v)
        f = "%.1f" if m < 100 else "%.0f"
        return (f + " (" + f + "-" + f + ")") % (m, min(v), max(v))

    print("| case | beta | NVBLAS | " + " | ".join(labels) + " | change | vs NVBLAS |")
    print("|---" * (len(labels) + 5) + "|")
    for k in keys:
        nv = times.get((k, "nvblas"), [float("nan")])[0]
        first, last = statistics.median(times[k, labels[0]]), statistics.median(times[k, labels[-1]])
        case = f"{k[0]} {k[2]}^3" if k[1] == "square" else f"{k[0]} {k[2]} x {k[3]} x {k[4]}"
        cells = " | ".join(cell(times[k, l]) for l in labels)
        print(f"| {case} | {k[5]} | {nv:.1f} | {cells} | {100 * (last / first - 1):+.0f} % | {nv / last:.2f}x |")


if __name__ == "__main__":
    main()
