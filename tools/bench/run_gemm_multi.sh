#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 3 on a machine with several GPUs, one run: the same ordinary program
# (hyb_bench_gemm, calling dgemm_ of the system BLAS) under NVBLAS on every
# GPU (NVBLAS_GPU_LIST ALL), hyblas forced onto one GPU (HYBLAS_GPUS=1) and
# onto all of them (HYBLAS_GPUS=all), and hyblas auto on all of them; every
# result checked. Writes $OUT/gemm_multi.csv, the trace of the all-GPU runs
# and the report (tools/bench/gemm_multi_report.py).
#   tools/bench/run_gemm_multi.sh [SPECFILE]
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
SPEC=${1:-tools/bench/gemm_multi.txt}
. "$(dirname "$0")/bench_env.sh"
gemm_csv_header > $OUT/gemm_multi.csv
[ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB \
    timeout 400 $S/hyb_bench_gemm nvblas-all $SPEC 2>/dev/null | grep -v '^\[NVBLAS\]' >> $OUT/gemm_multi.csv
HYBLAS_MODE=gpu HYBLAS_GPUS=1 LD_PRELOAD=$S/libhyblas.so \
    timeout 300 $S/hyb_bench_gemm hyblas-1gpu $SPEC >> $OUT/gemm_multi.csv
HYBLAS_MODE=gpu HYBLAS_GPUS=all HYBLAS_TRACE=$OUT/trace_multi.txt HYBLAS_REPORT=1 LD_PRELOAD=$S/libhyblas.so \
    timeout 300 $S/hyb_bench_gemm hyblas-allgpu $SPEC >> $OUT/gemm_multi.csv
HYBLAS_GPUS=all LD_PRELOAD=$S/libhyblas.so \
    timeout 300 $S/hyb_bench_gemm hyblas-auto-all $SPEC >> $OUT/gemm_multi.csv
python3 tools/bench/gemm_multi_report.py $OUT/gemm_multi.csv | tee $OUT/gemm_multi_report.md
