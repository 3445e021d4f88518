#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Report of tools/bench/run_gemm_multi.sh: per case, NVBLAS on every GPU, hyblas forced
onto one GPU and onto all of them, hyblas auto on one GPU and with all at hand (and how
many devices its plan used, from that run's trace), an older build forced onto all where
it ran; the scaling from one GPU to all, auto with all against auto on one (never slower
is the rule), the ratio to NVBLAS, and whether every result was right.
  gemm_multi_report.py CSV [TRACE_OF_THE_AUTO_RUN]"""
import re
import sys
from collections import defaultdict

from gemm_report import read_gemm_csv

LABELS = [("nvblas-all", "NVBLAS, all GPUs"), ("hyblas-1gpu", "hyblas, 1 GPU"),
          ("hyblas-allgpu", "hyblas, all GPUs"), ("hyblas-old-allgpu", "before: all GPUs"),
          ("hyblas-auto-1gpu", "auto, 1 GPU"), ("hyblas-auto-all", "auto, all at hand")]


def devices_used(trace):
    """(prec, m, n, k) -> device counts of the device calls in an auto run's trace (the
    precision is the first letter of the op: dgemm and sgemm calls of one shape differ)."""
    used = defaultdict(set)
    try:
        with open(trace) as f:
            for line in f:
                d = re.search(r" devices=(\d+)", line)
                s = re.search(r" m=(\d+) n=(\d+) k=(\d+)", line)
                op = re.search(r" op=([a-z])gemm ", line)
                if d and s and op:
                    key = (op.group(1),) + tuple(int(x) for x in s.groups())
                    used[key].add(int(d.group(1)))
    except OSError:
        pass
    return used


def main(path, trace=None):
    header, rows = read_gemm_csv(path)
    used = devices_used(trace) if trace else {}
    present = [(l, t) for l, t in LABELS if any(l in got for got in rows.values())]
    print("## GEMM on several GPUs (hyblas issues 3 and 26)\n")
    for h in header:
        print("- " + h[1:].strip())
    print("\n| case | m | n | k | beta | " + " | ".join(t for _, t in present) +
          " | auto devices | all / 1 GPU | auto all / auto 1 | all GPUs / NVBLAS |")
    print("|---" * (5 + len(present) + 4) + "|")
    wrong = 0
    for key in sorted(rows):
        prec, shape, m, n, k, beta = key
        got = rows[key]
        cells = []
        for lab, _ in present:
            r = got.get(lab)
            if r is None:
                cells.append("-")
                continue
            wrong += r["ok"] != "ok"
            cells.append("%.2f TF (%.1f ms)%s" % (float(r["tflops"]), 1e3 * float(r["seconds"]),
                                                 "" if r["ok"] == "ok" else " WRONG"))

        def t(lab):
            r = got.get(lab)
            return float(r["seconds"]) if r else None

        def ratio(a, b):
            return "%.2fx" % (a / b) if a and b else "-"

        dev = "/".join(str(d) for d in sorted(used.get((prec, m, n, k), []))) or "-"
        print("| %s %s | %d | %d | %d | %g | %s | %s | %s | %s | %s |" % (
            prec, shape, m, n, k, beta, " | ".join(cells), dev,
            ratio(t("hyblas-1gpu"), t("hyblas-allgpu")),
            ratio(t("hyblas-auto-1gpu"), t("hyblas-auto-all")),
            ratio(t("nvblas-all"), t("hyblas-allgpu"))))
    total = sum(len(v) for v in rows.values())
    print("\nresults checked: %d, wrong: %d" % (total, wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]) if len(sys.argv) > 1 else main("gemm_multi.csv"))
