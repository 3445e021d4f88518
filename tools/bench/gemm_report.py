#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turn the CSV of tools/bench/run_gemm_bench.sh into the README table: per
case the times of the CPU library, NVBLAS, hyblas auto and hyblas forced GPU
(all measured in the same run), the ratios, and the issue-3 targets.

Auto against the faster single path: the hyblas process timed auto, forced
device and (where a CPU call is cheap) forced CPU in turns, and wrote per case
the median of the per-repetition ratios auto/gpu and auto/cpu ('# pair' lines):
the calls of a repetition ran milliseconds apart, under the same host. Auto's
cost against the device is its paired ratio auto/gpu. Against the CPU it is
the paired ratio auto/cpu where auto ran the CPU path itself in most of its
timed calls (both then pay alike for running among device calls, as measured
at n = 256); where auto ran the device, the larger of that ratio and auto over
the CPU-only process (the CPU path at its best). Which path auto ran is the
pair line's count of auto calls on the CPU (the library's hyb_calls); in a CSV
without it, the path whose paired ratio is nearer 1.
Usage: gemm_report.py gemm.csv"""
import csv
import math
import sys


def read_gemm_csv(path):
    """The '#' lines of a hyb_bench_gemm CSV file, and its rows by case
    (prec, shape, m, n, k, beta) and label, as csv.DictReader gives them."""
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    header = [l.strip() for l in lines if l.startswith("#") and not l.startswith("# pair,")]
    rows = {}
    for r in csv.DictReader(l for l in lines if not l.startswith("#")):
        key = (r["prec"], r["shape"], int(r["m"]), int(r["n"]), int(r["k"]), float(r["beta"]))
        rows.setdefault(key, {})[r["label"]] = r
    return header, rows


def read_pairs(path):
    """The '# pair' lines: per case, the medians of auto/gpu and auto/cpu (None where not
    timed) and the share of auto's timed calls that ran on the CPU (None where the line
    does not say)."""
    pairs = {}
    for l in open(path):
        if l.startswith("# pair,"):
            f = l.strip().split(",")[1:]
            key = (f[0], f[1], int(f[2]), int(f[3]), int(f[4]), float(f[5]))
            r_gpu, r_cpu = (None if x == "-" else float(x) for x in f[6:8])
            share = int(f[9]) / int(f[8]) if len(f) > 9 and f[9] != "-" and int(f[8]) > 0 else None
            pairs[key] = (r_gpu, r_cpu, share)
    return pairs


def main(path):
    header, raw = read_gemm_csv(path)
    pairs = read_pairs(path)
    rows = {key: {lab: (float(r["seconds"]), float(r["tflops"])) for lab, r in got.items()}
            for key, got in raw.items()}
    wrong = [f"{lab} {key}" for key, got in raw.items() for lab, r in got.items() if r["ok"] != "ok"]
    out = []
    out += [f"{h}" for h in header]
    out.append("")
    out.append("| case | m | n | k | beta | CPU | NVBLAS | hyblas auto | hyblas GPU | hyblas CPU | GPU / NVBLAS "
               "| auto vs best |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    targets = []
    auto_bad = []
    for key in sorted(rows, key=lambda k: (k[1], k[0], k[2], k[3], k[4], k[5])):
        prec, shape, m, n, k, beta = key
        d = rows[key]

        def cell(label):
            if label not in d:
                return "-"
            s, tf = d[label]
            return f"{tf:.2f} TF ({s * 1e3:.1f} ms)"

        # the CPU path: timed beside auto where it was, else the CPU-only process
        cpu_pair = d.get("hyblas-cpu", (None, None))[0]
        cpu_alone = d.get("cpu", (None, None))[0]
        cpu = cpu_pair or cpu_alone
        gpu = d.get("hyblas-gpu", (None, None))[0]
        auto = d.get("hyblas-auto", (None, None))[0]
        nv = d.get("nvblas", (None, None))[0]
        r_gpu, r_cpu, cpu_share = pairs.get(key, (None, None, None))
        ratio = f"{nv / gpu:.2f}x" if nv and gpu else "-"
        best = min(x for x in (cpu, gpu) if x is not None) if (cpu or gpu) else None
        if auto and best:
            rel_gpu = (r_gpu if r_gpu else auto / gpu) - 1 if gpu else None
            if cpu_share is not None:
                auto_ran_cpu = r_cpu and cpu_share > 0.5
            else:
                auto_ran_cpu = r_cpu and r_gpu and abs(math.log(r_cpu)) < abs(math.log(r_gpu))
            if auto_ran_cpu:
                rel_cpu = r_cpu - 1
            else:
                alone = [x - 1 for x in (r_cpu, auto / cpu_alone if cpu_alone else None) if x]
                rel_cpu = max(alone) if alone else None
            rel = max(x for x in (rel_gpu, rel_cpu) if x is not None)
            vs = f"{rel * 100:+.1f} %" + (" (paired)" if (r_gpu or r_cpu) else "")
            vs += "" if cpu else " (CPU not run)"
            if rel > 0.05:
                why = "GPU" if rel == rel_gpu else "CPU"
                auto_bad.append(f"{prec}{shape} {m}x{n}x{k} beta={beta:g}: auto {auto * 1e3:.2f} ms, "
                                f"{rel * 100:+.1f} % against the {why} (auto/gpu {r_gpu or '-'}, auto/cpu "
                                f"{r_cpu or '-'}, CPU alone {cpu_alone * 1e3 if cpu_alone else float('nan'):.2f} ms)")
        else:
            vs = "-"
        out.append(f"| {prec} {shape} | {m} | {n} | {k} | {beta:g} | {cell('cpu')} | {cell('nvblas')} | "
                   f"{cell('hyblas-auto')} | {cell('hyblas-gpu')} | {cell('hyblas-cpu')} | {ratio} | {vs} |")
        if prec == "d" and shape == "square" and m == n == k == 16384 and gpu and nv:
            tf = d["hyblas-gpu"][1]
            targets.append(f"n=16384 beta={beta:g}: {tf:.1f} TFLOP/s (target >= 40: "
                           f"{'met' if tf >= 40 else 'MISSED'}), {nv / gpu:.2f}x NVBLAS (target >= 5: "
                           f"{'met' if nv / gpu >= 5 else 'MISSED'})")
        if prec == "d" and shape == "square" and m == n == k == 4096 and gpu and nv:
            targets.append(f"n=4096 beta={beta:g}: {nv / gpu:.2f}x NVBLAS (target >= 2.5: "
                           f"{'met' if nv / gpu >= 2.5 else 'MISSED'})")
    out.append("")
    out.append("Targets (issue 3):")
    out += [f"- {t}" for t in targets]
    if auto_bad:
        out.append(f"- auto within 5 % of the faster of CPU and GPU, never 5 % slower than the CPU: "
                   f"MISSED in {len(auto_bad)} cases:")
        out += [f"  - {b}" for b in auto_bad]
    else:
        out.append("- auto within 5 % of the faster of CPU and GPU, never 5 % slower than the CPU: met")
    out.append(f"- results checked: {'all correct' if not wrong else 'WRONG: ' + '; '.join(wrong)}")
    print("\n".join(out))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
