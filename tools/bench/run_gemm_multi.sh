#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Several GPUs in one host (issues 3 and 26), one run: the same ordinary program
# (hyb_bench_gemm, calling dgemm_ of the system BLAS) under NVBLAS on every GPU
# (NVBLAS_GPU_LIST ALL) and under hyblas: forced onto one GPU (HYBLAS_MODE=gpu
# HYBLAS_GPUS=1) and onto all of them (HYBLAS_GPUS=all), and in auto mode on one
# GPU and with all of them at hand (the model picks how many it uses: the trace
# of that run says, column "devices"); every result checked. Writes
# $OUT/gemm_multi.csv, the traces and the report (tools/bench/gemm_multi_report.py).
#   tools/bench/run_gemm_multi.sh [SPECFILE]
# MULTI_RUNS picks the runs (default "nvblas 1gpu allgpu auto1 autoall"); with
# OLD_STAGE set (a staged build of another revision), "old" runs that build
# forced onto all GPUs, labelled hyblas-old-allgpu.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
SPEC=${1:-tools/bench/gemm_multi.txt}
. "$(dirname "$0")/bench_env.sh"
CSV=$OUT/gemm_multi.csv
[ -f $CSV ] || gemm_csv_header > $CSV
for run in ${MULTI_RUNS:-nvblas 1gpu allgpu auto1 autoall}; do
  case $run in
  nvblas)  [ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB \
               timeout 400 $S/hyb_bench_gemm nvblas-all $SPEC 2>/dev/null | grep -v '^\[NVBLAS\]' >> $CSV ;;
  1gpu)    HYBLAS_MODE=gpu HYBLAS_GPUS=1 LD_PRELOAD=$S/libhyblas.so \
               timeout 300 $S/hyb_bench_gemm hyblas-1gpu $SPEC >> $CSV ;;
  allgpu)  HYBLAS_MODE=gpu HYBLAS_GPUS=all HYBLAS_TRACE=$OUT/trace_multi.txt HYBLAS_REPORT=1 \
               LD_PRELOAD=$S/libhyblas.so timeout 300 $S/hyb_bench_gemm hyblas-allgpu $SPEC >> $CSV ;;
  auto1)   HYBLAS_GPUS=1 LD_PRELOAD=$S/libhyblas.so \
               timeout 300 $S/hyb_bench_gemm hyblas-auto-1gpu $SPEC >> $CSV ;;
  autoall) HYBLAS_GPUS=all HYBLAS_TRACE=$OUT/trace_auto.txt LD_PRELOAD=$S/libhyblas.so \
               timeout 300 $S/hyb_bench_gemm hyblas-auto-all $SPEC >> $CSV ;;
  old)     [ -n "${OLD_STAGE:-}" ] && HYBLAS_MODE=gpu HYBLAS_GPUS=all \
               LD_PRELOAD=$OLD_STAGE/libhyblas.so timeout 300 $S/hyb_bench_gemm hyblas-old-allgpu $SPEC >> $CSV ;;
  esac
done
python3 tools/bench/gemm_multi_report.py $CSV ${OUT}/trace_auto.txt | tee $OUT/gemm_multi_report.md
