#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turn the CSV of tools/bench/run_gemm_bench.sh into the README table: per
case the times of the CPU library, NVBLAS, hyblas auto and hyblas forced GPU
(all measured in the same run), the ratios, and the issue-3 targets.
Usage: gemm_report.py gemm.csv"""
import csv
import sys


def read_gemm_csv(path):
    """The '#' lines of a hyb_bench_gemm CSV file, and its rows by case
    (prec, shape, m, n, k, beta) and label, as csv.DictReader gives them."""
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    header = [l.strip() for l in lines if l.startswith("#")]
    rows = {}
    for r in csv.DictReader(l for l in lines if not l.startswith("#")):
        key = (r["prec"], r["shape"], int(r["m"]), int(r["n"]), int(r["k"]), float(r["beta"]))
        rows.setdefault(key, {})[r["label"]] = r
    return header, rows


def main(path):
    header, raw = read_gemm_csv(path)
    rows = {key: {lab: (float(r["seconds"]), float(r["tflops"])) for lab, r in got.items()}
            for key, got in raw.items()}
    wrong = [f"{lab} {key}" for key, got in raw.items() for lab, r in got.items() if r["ok"] != "ok"]
    out = []
    out += [f"{h}" for h in header]
    out.append("")
    out.append("| case | m | n | k | beta | CPU | NVBLAS | hyblas auto | hyblas GPU | GPU / NVBLAS | auto vs best |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
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

        cpu = d.get("cpu", (None, None))[0]
        gpu = d.get("hyblas-gpu", (None, None))[0]
        auto = d.get("hyblas-auto", (None, None))[0]
        nv = d.get("nvblas", (None, None))[0]
        ratio = f"{nv / gpu:.2f}x" if nv and gpu else "-"
        best = min(x for x in (cpu, gpu) if x is not None) if (cpu or gpu) else None
        if auto and best:
            rel = auto / best - 1
            vs = f"{rel * 100:+.1f} %" + ("" if cpu else " (CPU not run)")
            if rel > 0.05 or (cpu and auto > 1.05 * cpu):
                auto_bad.append(f"{prec}{shape} {m}x{n}x{k} beta={beta:g}: auto {auto * 1e3:.2f} ms, "
                                f"best {best * 1e3:.2f} ms")
        else:
            vs = "-"
        out.append(f"| {prec} {shape} | {m} | {n} | {k} | {beta:g} | {cell('cpu')} | {cell('nvblas')} | "
                   f"{cell('hyblas-auto')} | {cell('hyblas-gpu')} | {ratio} | {vs} |")
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
