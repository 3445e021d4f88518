#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Report of tools/bench/run_gemm_multi.sh: per case, NVBLAS on every GPU, hyblas on one
GPU and on all of them (forced), hyblas auto on all; the scaling from one GPU to all and
the ratio to NVBLAS, and whether every result was right."""
import sys

from gemm_report import read_gemm_csv


def main(path):
    header, rows = read_gemm_csv(path)
    notes = [h[1:].strip() for h in header]
    labels = ["nvblas-all", "hyblas-1gpu", "hyblas-allgpu", "hyblas-auto-all"]
    print("## GEMM on several GPUs (hyblas issue 3)\n")
    for n in notes:
        print("- " + n)
    print("\n| case | m | n | k | beta | NVBLAS, all GPUs | hyblas, 1 GPU | hyblas, all GPUs |"
          " hyblas auto, all | all / 1 GPU | all GPUs / NVBLAS |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    wrong = 0
    for key in sorted(rows):
        prec, shape, m, n, k, beta = key
        got = rows[key]
        cells = []
        for lab in labels:
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
        one, alln, nv = t("hyblas-1gpu"), t("hyblas-allgpu"), t("nvblas-all")
        scale = "%.2fx" % (one / alln) if one and alln else "-"
        vs = "%.2fx" % (nv / alln) if nv and alln else "-"
        print("| %s %s | %d | %d | %d | %g | %s | %s | %s |" % (prec, shape, m, n, k, beta,
                                                               " | ".join(cells), scale, vs))
    total = sum(len(v) for v in rows.values())
    print("\nresults checked: %d, wrong: %d" % (total, wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "gemm_multi.csv"))
