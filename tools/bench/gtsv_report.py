#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turn the output of tools/bench/run_gtsv_bench.sh into the README tables: rows per
second of every solver per system, backward errors against LAPACK's, the paths hyblas
auto took, and the four targets of issue 5 (met / missed), all from one run.
Usage: gtsv_report.py [--target-log2n K] gtsv.csv [gpu_check_gtsv.txt]"""
import csv
import os
import re
import sys

U = {"d": 2.0 ** -53, "s": 2.0 ** -24}
LABELS = [("lapack", "LAPACK"), ("thomas", "Thomas"), ("spike", "CPU SPIKE"),
          ("gpu-stream", "GPU stream"), ("hyblas-cpu", "hyblas cpu"), ("hyblas-gpu", "hyblas gpu"),
          ("hyblas-split0.7", "split .7"), ("hyblas-split0.5", "split .5"), ("hyblas-split0.3", "split .3"),
          ("hyblas-split", "split model"), ("hyblas-rgpu", "reg gpu"), ("hyblas-rsplit0.7", "reg .7"),
          ("hyblas-rsplit0.6", "reg .6"), ("hyblas-rsplit0.5", "reg .5"), ("hyblas-rsplit", "reg model"),
          ("hyblas-auto", "hyblas auto")]
SPLITS = ["hyblas-split0.7", "hyblas-split0.5", "hyblas-split0.3", "hyblas-split",
          "hyblas-rsplit0.7", "hyblas-rsplit0.6", "hyblas-rsplit0.5", "hyblas-rsplit"]
ANCHOR_LAPACK = 75e6      # rows/s of LAPACK dgtsv_ at 2^27 in the issue
ANCHOR_CUSPARSE = 14300e6  # rows/s of cusparseDgtsv2_nopivot at 2^27 on the H200 (issue)


def load(path):
    header, rows, notes = [], {}, []
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    for l in lines:
        if l.startswith("#"):
            (header if l.startswith(("# machine", "# lapack")) else notes).append(l.strip())
    for r in csv.DictReader(l for l in lines if not l.startswith("#")):
        key = (r["prec"], int(r["n"]), int(r["nrhs"]), r["kind"], float(r["dom"]))
        rows.setdefault(key, {})[r["label"]] = r
    return header, rows, notes


def gpu_check(path):
    """Part 2 rows of gpu_check_gtsv: (prec, nrhs, n, dom) -> (ours ms, cusparse ms, speedup, ok)."""
    out, verdict = {}, None
    if not path or not os.path.exists(path):
        return out, "not run"
    with open(path) as f:
        if re.search(r"^# gpu_check_gtsv not (run|staged)", f.read(), re.M):
            return out, "not run"
    pat = re.compile(r"^([sd])\s+(\d+)\s+(\d+)\s+(row|col)\s+([\d.]+)\s+(\d+)\s+\|\s+([\d.]+)\s+([\d.]+)\s+\|"
                     r"\s+(\d+)\s+(\d+)\s+\|\s+([\d.]+)x.*\s(ok|WRONG)\s*$")
    part2 = False
    with open(path) as f:
        for l in f:
            if l.startswith("# part 2"):
                part2 = True
            m = re.match(r"^# (passed|FAILED): (\d+) wrong", l)
            if m:
                verdict = f"{m.group(1)}, {m.group(2)} wrong"
            m = pat.match(l)
            if m and part2:
                out[(m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(5)))] = (
                    float(m.group(7)), float(m.group(8)), float(m.group(11)), m.group(12))
    return out, verdict or "no verdict line (crashed or not run)"


def auto_paths(csv_path, keys):
    """The path hyblas auto took per system (last call wins), from its trace. A trace line
    names (prec, n, nrhs) and the check's dominance, which tells the systems of the sweep
    apart: kind c has dom_col in [dom, 1.26 dom), kind r dom_row likewise."""
    tr = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "trace_hyblas-auto.txt")
    paths = {}
    if not os.path.exists(tr):
        return paths
    with open(tr) as f:
        for l in f:
            kv = dict(re.findall(r"(\w+)=(\"[^\"]*\"|\S+)", l))
            try:
                pnr = (kv["op"][0], int(kv["n"]), int(kv["nrhs"]))
            except (KeyError, ValueError):
                continue
            p = kv.get("path", "?")
            if p == "split":
                p += f" cpu {int(kv.get('cpu_rows', 0)) / int(kv['n']):.2f}"
            p += " (" + kv["plan"] + ")" if kv.get("plan") == "lapack" else ""
            cands = [k for k in keys if k[:3] == pnr]
            if "dom_col" in kv:
                dc, dr = float(kv["dom_col"]), float(kv["dom_row"])
                cands = [k for k in cands if k[4] <= (dc if k[3] == "c" else dr) < 1.26 * k[4]] or cands
            for k in cands:
                paths[k] = p
    return paths


def sec(d, label):
    r = d.get(label)
    return float(r["seconds"]) if r and r["ok"] == "ok" else None


def main(argv):
    target = 27
    if len(argv) > 2 and argv[1] == "--target-log2n":
        target = int(argv[2])
        argv = [argv[0]] + argv[3:]
    if len(argv) < 2:
        print(__doc__)
        return 2
    header, rows, notes = load(argv[1])
    dev, verdict = gpu_check(argv[2] if len(argv) > 2 else None)
    paths = auto_paths(argv[1], list(rows))
    out = header[:] + [""]

    # Backward errors against LAPACK's on the same system.
    worst, bad, total = 0.0, [], 0
    for key, d in rows.items():
        ref = d.get("lapack")
        for label, r in d.items():
            if r["ok"] == "n/a":
                continue
            total += 1
            if r["ok"] != "ok":
                bad.append(f"{label} {key}: {r['ok']}")
                continue
            if not ref or ref["ok"] != "ok":
                continue
            lim = max(float(ref["berr"]), U[key[0]])
            ratio = float(r["berr"]) / lim
            worst = max(worst, ratio)
            if ratio > 10:
                bad.append(f"{label} {key}: berr {r['berr']} vs LAPACK {ref['berr']}")

    # Targets.
    n27 = 1 << target
    tkey = ("d", n27, 1, "c", 3.0)
    t = rows.get(tkey, {})
    lap, auto, cpu = sec(t, "lapack"), sec(t, "hyblas-auto"), sec(t, "hyblas-cpu")
    gpus = [g for g in (sec(t, "hyblas-gpu"), sec(t, "hyblas-rgpu")) if g]
    gpu = min(gpus) if gpus else None  # the GPU alone: staged or registered, the faster
    tg = []
    if lap and auto:
        tg.append((f"host-resident n=2^{target}, 1 RHS, double: hyblas dgtsv_ >= 15x LAPACK dgtsv_",
                   f"{lap / auto:.1f}x (LAPACK {lap * 1e3:.0f} ms = {n27 / lap / 1e6:.0f} M rows/s; hyblas auto "
                   f"{auto * 1e3:.1f} ms = {n27 / auto / 1e6:.0f} M rows/s = {n27 / auto / ANCHOR_LAPACK:.1f}x the "
                   f"75 M rows/s anchor; path {paths.get(tkey, '?')})",
                   "met" if lap / auto >= 15 else "missed"))
    else:
        tg.append(("15x LAPACK", "not measured", "?"))
    splits = [(sec(t, s), s) for s in SPLITS if sec(t, s)]
    # The CPU alone: through dgtsv_ or its kernels called directly (the same work), the
    # faster. One sweep measured the first 18 % slower, alternated processes 0-11 %:
    # minutes of the host's drift apart, which against the one made a 1.37x of a 1.12x.
    spike = sec(t, "spike")
    cpu_best = min(x for x in (cpu, spike) if x) if (cpu or spike) else None
    if splits and cpu_best and gpu:
        bs, bl = min(splits)
        alone = min(cpu_best, gpu)
        tg.append(("CPU and GPU together >= 1.3x the faster alone (same system)",
                   f"{alone / bs:.2f}x: best split {bl.replace('hyblas-', '')} {bs * 1e3:.1f} ms; CPU alone "
                   f"{cpu_best * 1e3:.1f} ms (dgtsv_ {cpu * 1e3 if cpu else float('nan'):.1f}, kernels called "
                   f"directly {spike * 1e3 if spike else float('nan'):.1f}); GPU alone {gpu * 1e3:.1f} ms "
                   f"(host-resident, with transfers, check and factors)", "met" if alone / bs >= 1.3 else "missed"))
    else:
        tg.append(("CPU+GPU 1.3x", "not measured", "?"))
    dk = ("d", 1, n27, 3.0)
    if dk in dev:
        ours, cus, sp, ok = dev[dk]
        tg.append((f"device-resident GPU SPIKE >= 1.1x cusparseDgtsv2_nopivot (n=2^{target}, double, 1 RHS)",
                   f"{sp:.2f}x ({ours:.2f} ms vs {cus:.2f} ms; ours {n27 / ours / 1e3:.0f} M rows/s, "
                   f"the issue's cuSPARSE anchor {ANCHOR_CUSPARSE / 1e6:.0f}) {ok}",
                   "met" if sp >= 1.1 and ok == "ok" else "missed"))
    else:
        tg.append(("GPU SPIKE 1.1x cuSPARSE", f"gpu_check_gtsv: {verdict}", "?"))
    tg.append(("backward error never above 10x LAPACK's on any tested system",
               f"{total} results; worst {worst:.2f}x LAPACK's (floor u); {len(bad)} above or wrong; "
               f"gpu_check_gtsv: {verdict}",
               "met" if not bad and verdict.startswith(("passed", "not run")) else "missed"))
    out.append("| target | measured | |")
    out.append("|---|---|---|")
    for a, b, c in tg:
        out.append(f"| {a} | {b} | **{c}** |")
    out.append("")

    # Rates.
    present = [(l, h) for l, h in LABELS if any(l in d for d in rows.values())]
    out.append("M rows/s (median of the timed solves; X = not applicable or failed). auto/LAPACK is the "
               "speedup of hyblas's dgtsv_ over LAPACK's on the same system.")
    out.append("")
    out.append("| p | n | nrhs | kind | dom | " + " | ".join(h for _, h in present) + " | auto/LAPACK | auto path |")
    out.append("|" + "---|" * (7 + len(present)))
    for key in sorted(rows, key=lambda k: (k[0], k[3], k[2], k[4], k[1])):
        p, n, nrhs, kind, dom = key
        d = rows[key]
        cells = []
        for l, _ in present:
            r = d.get(l)
            cells.append("-" if r is None else "X" if r["ok"] != "ok" else f"{float(r['mrows']):.0f}")
        lap, auto = sec(d, "lapack"), sec(d, "hyblas-auto")
        ratio = f"{lap / auto:.2f}x" if lap and auto else "-"
        lg = n.bit_length() - 1
        ns = f"2^{lg}" if n == 1 << lg else str(n)
        out.append(f"| {p} | {ns} | {nrhs} | {kind} | {dom:g} | " + " | ".join(cells) +
                   f" | {ratio} | {paths.get(key, '-')} |")
    out.append("")
    if dev:
        out.append("Device-resident (gpu_check_gtsv part 2, CUDA events, median of 7):")
        out.append("")
        out.append("| p | nrhs | n | dom | ours ms | cuSPARSE ms | speedup | ok |")
        out.append("|---|---|---|---|---|---|---|---|")
        for (p, nrhs, n, dom), (o, c, s, ok) in sorted(dev.items()):
            out.append(f"| {p} | {nrhs} | 2^{n.bit_length() - 1} | {dom:g} | {o:.3f} | {c:.3f} | {s:.2f}x | {ok} |")
        out.append("")
    if bad:
        out.append("Problems:")
        out += [f"- {b}" for b in bad]
    out += notes
    print("\n".join(out))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
