#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: calibrate, then the full GEMM benchmark (tools/bench/run_gemm_bench.sh).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/gpu/setup-env.sh
S=$PWD/.stage
cat /sys/kernel/mm/transparent_hugepage/enabled
mkdir -p ~/.cache/hyblas
# A machine already calibrated in this lease (tools/gpu/run_sparse.sh) keeps its profile.
[ -f ~/.cache/hyblas/profile ] && [ "${CALIBRATE:-0}" != 1 ] || timeout 120 $S/hyblas-calibrate 2>&1 | tee $OUT/calibrate.txt
cp ~/.cache/hyblas/profile $OUT/profile.txt
export OMP_WAIT_POLICY=PASSIVE   # the harness's own OpenMP threads must not spin beside the library
STAGE=$S tools/bench/run_gemm_bench.sh ${1:-tools/bench/gemm_sweep.txt}
[ "${NUMPY:-1}" = 1 ] && STAGE=$S tools/bench/run_numpy.sh 8192 2>&1 | tee $OUT/numpy.csv
cd $OUT && tar czf traces.tgz trace_*.txt && rm -f trace_*.txt
