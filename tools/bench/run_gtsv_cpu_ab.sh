#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The tridiagonal CPU path through dgtsv_ against the same kernels called directly, one run
# on the GPU machine: processes of hyb_bench_gtsv alternated ROUNDS times (default 3) on
# SPEC, label `spike` (hyb_?gtsv_check + hyb_?gtsv_cpu_spike, no preload; its check and solve
# times apart as '#' lines) and label `hyblas-cpu` (dgtsv_ under LD_PRELOAD, HYBLAS_MODE=cpu;
# its trace gives check_s and cpu_s). A full sweep measured the second 18-25 % slower in
# double (849 against 1036 M rows/s at n = 2^27) and not in single: this tells a cost of the
# path from the host's drift over the minutes between the two labels. Alternated processes
# measured the path 0-11 % slower in five of six double cases: a third process per round,
# the direct call with libhyblas preloaded (HYBLAS_MODE=cpu; label `spike`, nothing
# intercepted), tells whether the preloaded library's presence or the path through dgtsv_
# costs it.
#   OUT=... STAGE=$PWD/.stage tools/bench/run_gtsv_cpu_ab.sh tools/bench/gtsv_split_focus.txt
set -u
SPEC=${1:-$(dirname "$0")/gtsv_split_focus.txt}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
CSV=$OUT/gtsv_cpu_ab.csv
echo "round,label,prec,n,nrhs,kind,dom,reps,seconds,mrows,berr,ok" > "$CSV"
for r in $(seq "${ROUNDS:-3}"); do
    timeout 120 "$S/hyb_bench_gtsv" spike "$SPEC" > "$OUT/ab_spike_$r.txt" 2>&1
    HYBLAS_LOG_LEVEL=1 HYBLAS_MODE=cpu HYBLAS_TRACE=$OUT/trace_ab_cpu_$r.txt LD_PRELOAD=$S/libhyblas.so \
        timeout 120 "$S/hyb_bench_gtsv" hyblas-cpu "$SPEC" > "$OUT/ab_cpu_$r.txt" 2>&1
    HYBLAS_MODE=cpu LD_PRELOAD=$S/libhyblas.so \
        timeout 120 "$S/hyb_bench_gtsv" spike "$SPEC" > "$OUT/ab_pspike_$r.txt" 2>&1
    grep -h -v '^#' "$OUT/ab_spike_$r.txt" "$OUT/ab_cpu_$r.txt" | sed "s/^/$r,/" >> "$CSV"
    grep -h -v '^#' "$OUT/ab_pspike_$r.txt" | sed "s/^spike/spike-preloaded/; s/^/$r,/" >> "$CSV"
done
# Per round and system: each label's M rows/s, the spike's check and solve, the dgtsv_
# path's median check_s and cpu_s from its trace.
python3 - "$OUT" "${ROUNDS:-3}" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
print("| round | system | spike M rows/s | check ms | solve ms | dgtsv_ cpu M rows/s | check_s ms | cpu_s ms | ratio "
      "| spike preloaded M rows/s | check ms | solve ms |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in range(1, rounds + 1):
    sp = [l for l in open(f"{out}/ab_spike_{r}.txt") if l.strip()]
    cp = [l for l in open(f"{out}/ab_cpu_{r}.txt") if l.strip() and not l.startswith("#")]
    notes = [l for l in sp if l.startswith("# spike")]
    rows = [l for l in sp if not l.startswith("#")]
    try:
        pp = [l for l in open(f"{out}/ab_pspike_{r}.txt") if l.strip()]
    except OSError:
        pp = []
    pnotes = [l for l in pp if l.startswith("# spike")]
    prows = [l for l in pp if not l.startswith("#")]
    tr = {}
    try:
        for l in open(f"{out}/trace_ab_cpu_{r}.txt"):
            m = re.search(r"^(\w)gtsv_ .*n=(\d+) nrhs=(\d+).*check_s=(\S+).*cpu_s=(\S+)", l)
            if m and "path=cpu" in l:
                tr.setdefault((m[1], m[2], m[3]), []).append((float(m[4]), float(m[5])))
    except OSError:
        pass
    for i, (a, b) in enumerate(zip(rows, cp)):
        fa, fb = a.split(","), b.split(",")
        cm = re.search(r"check ([\d.]+) ms, solve with factors ([\d.]+)", notes[i]) if i < len(notes) else None
        t = tr.get((fa[1], fa[2], fa[3]), [])
        # the trace also holds the untimed warm-up and earlier systems of the same size
        cs = statistics.median(x[0] for x in t) * 1e3 if t else float("nan")
        us = statistics.median(x[1] for x in t) * 1e3 if t else float("nan")
        pm = re.search(r"check ([\d.]+) ms, solve with factors ([\d.]+)", pnotes[i]) if i < len(pnotes) else None
        pr = prows[i].split(",")[8] if i < len(prows) else "-"
        print(f"| {r} | {fa[1]} 2^{int(fa[2]).bit_length()-1} x{fa[3]} dom {fa[5]} | {fa[8]} | "
              f"{cm[1] if cm else '-'} | {cm[2] if cm else '-'} | {fb[8]} | {cs:.1f} | {us:.1f} | "
              f"{float(fb[8])/float(fa[8]):.3f} | {pr} | {pm[1] if pm else '-'} | {pm[2] if pm else '-'} |")
PY
