#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of an alternated A/B run of hyb_bench_gemm on several GPUs, labels
BUILD-CONFIG (e.g. old-1gpu, new-allgpu, new-autoall): per case and beta, each config's
median milliseconds over every call of every round for each build (range in brackets), the
new build's median over the old one's, and the new build forced onto one GPU over each
other config of the new build (above 1: faster than one GPU).
  gemm_multi_ab.py AB_CSV [OLD NEW]     (build names, default old new)"""
import collections
import csv
import statistics
import sys


def main():
    old, new = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("old", "new")
    lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
    times, configs, wrong = collections.defaultdict(list), [], 0
    fields = "label prec shape m n k beta seconds tflops relerr ok".split()
    for r in csv.DictReader(lines, fieldnames=fields):
        if r["label"] == "label":
            continue
        build, config = r["label"].split("-", 1)
        if config not in configs:
            configs.append(config)
        key = (r["prec"], r["shape"], int(r["m"]), int(r["n"]), int(r["k"]), r["beta"])
        times[key, config, build].append(float(r["seconds"]) * 1e3)
        wrong += r["ok"] != "ok"
    keys = sorted({k for k, _, _ in times}, key=lambda k: (k[0], k[1], k[2], k[4], k[5]))

    def med(v):
        return statistics.median(v) if v else float("nan")

    def cell(v):
        f = "%.1f" if med(v) < 100 else "%.0f"
        return (f + " (" + f + "-" + f + ")") % (med(v), min(v), max(v)) if v else "-"

    head = ["case", "beta"]
    for c in configs:
        head += [c + " " + old, c + " " + new, c + " new/old"]
    others = [c for c in configs if c != "1gpu"]
    head += ["%s: 1gpu / %s" % (new, c) for c in others]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for k in keys:
        row = ["%s %s %dx%dx%d" % (k[0], k[1], k[2], k[3], k[4]), k[5]]
        for c in configs:
            a, b = times.get((k, c, old), []), times.get((k, c, new), [])
            row += [cell(a), cell(b), "%.2f" % (med(b) / med(a)) if a and b else "-"]
        one = times.get((k, "1gpu", new), [])
        for c in others:
            v = times.get((k, c, new), [])
            row += ["%.2fx" % (med(one) / med(v)) if one and v else "-"]
        print("| " + " | ".join(row) + " |")
    print("\nresults checked: %d, wrong: %d" % (sum(len(v) for v in times.values()), wrong))


if __name__ == "__main__":
    main()
