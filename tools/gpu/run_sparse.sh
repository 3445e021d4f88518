#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine, one command inside the 10-minute limit: calibrate (unless this machine has a
# profile already), then the SpMV benchmark of issue 4 and the tridiagonal benchmark of
# issue 5, each within its share of the time. Returns the two reports, the two tables, the
# calibration and one archive with everything else (traces, learned rates, GPU check).
#   tools/gpu/stage.sh                        (here, after building)
#   tools/gpu/run_sparse.sh                   (GPU machine; SPMV_SECONDS, GTSV_SECONDS)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. tools/gpu/setup-env.sh
S=$PWD/.stage
mkdir -p ~/.cache/hyblas
[ -f ~/.cache/hyblas/profile ] || timeout 120 "$S/hyblas-calibrate" > "$OUT/calibrate.txt" 2>&1
cp -f ~/.cache/hyblas/profile "$OUT/profile.txt" 2>/dev/null
# Each benchmark writes many files; only a few may come back, so they work in W.
W=$OUT/work; mkdir -p "$W/spmv" "$W/gtsv"
t0=$(date +%s)
OUT=$W/spmv STAGE=$S SPMV_BENCH_SECONDS=${SPMV_SECONDS:-230} tools/bench/run_spmv_bench.sh
echo "spmv benchmark: $(( $(date +%s) - t0 )) s" >&2
t0=$(date +%s)
OUT=$W/gtsv STAGE=$S GTSV_BENCH_SECONDS=${GTSV_SECONDS:-310} tools/bench/run_gtsv_bench.sh
echo "gtsv benchmark: $(( $(date +%s) - t0 )) s" >&2
cp -f "$W/spmv/spmv_report.md" "$W/spmv/spmv.csv" "$W/gtsv/gtsv_report.md" "$W/gtsv/gtsv.csv" "$OUT/" 2>/dev/null
tar czf "$OUT/sparse_all.tgz" -C "$W" . && rm -rf "$W"
