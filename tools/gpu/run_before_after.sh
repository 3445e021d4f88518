#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: the GEMM sweep's small end, the SpMV benchmark and the
# tridiagonal benchmark, each on two staged builds in one run (BEFORE and
# AFTER, e.g. .stage/before and .stage/after), so that a restructuring can be
# checked to change no measured behaviour beyond the machine's noise.
#   tools/gpu/run_before_after.sh            (BEFORE, AFTER, OUT, PART=gemm|sparse|gtsv)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. tools/gpu/setup-env.sh
BEFORE=${BEFORE:-$PWD/.stage/before} AFTER=${AFTER:-$PWD/.stage/after}
mkdir -p ~/.cache/hyblas
[ -f ~/.cache/hyblas/profile ] || timeout 120 "$AFTER/hyblas-calibrate" > "$OUT/calibrate.txt" 2>&1
for side in before after; do
    S=$BEFORE; [ $side = after ] && S=$AFTER
    mkdir -p "$OUT/$side"
    case ${PART:-gemm} in
        gemm) OUT=$OUT/$side STAGE=$S PARTS="cpu hyblas" tools/bench/run_gemm_bench.sh tools/bench/gemm_small.txt \
                  > "$OUT/$side/gemm_report.txt" 2>&1 ;;
        sparse) OUT=$OUT/$side/w STAGE=$S SPMV_BENCH_SECONDS=${SPMV_SECONDS:-110} tools/bench/run_spmv_bench.sh \
                    > "$OUT/$side/spmv_report.txt" 2>&1
                OUT=$OUT/$side/w STAGE=$S GTSV_BENCH_SECONDS=${GTSV_SECONDS:-110} tools/bench/run_gtsv_bench.sh \
                    > "$OUT/$side/gtsv_report.txt" 2>&1
                cp -f "$OUT/$side/w/spmv.csv" "$OUT/$side/w/gtsv.csv" "$OUT/$side/" 2>/dev/null
                rm -rf "$OUT/$side/w" ;;
        gtsv) OUT=$OUT/$side/w STAGE=$S GTSV_BENCH_SECONDS=${GTSV_SECONDS:-110} \
              GTSV_SPEC=${GTSV_SPEC:-tools/bench/gtsv_before_after.txt} \
              GTSV_SPLIT_SPEC=${GTSV_SPLIT_SPEC:-tools/bench/gtsv_before_after.txt} tools/bench/run_gtsv_bench.sh \
                  > "$OUT/$side/gtsv_report.txt" 2>&1
              cp -f "$OUT/$side/w/gtsv.csv" "$OUT/$side/" 2>/dev/null
              rm -rf "$OUT/$side/w" ;;
    esac
done
