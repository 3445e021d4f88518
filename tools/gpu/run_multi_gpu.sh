#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine with several GPUs (nvidia-h200-x2): issues 3 and 26, several GPUs.
#   tools/gpu/run_multi_gpu.sh gemm   calibrate, then the GEMM benchmark on one GPU
#                                     against all of them (tools/bench/run_gemm_multi.sh;
#                                     MULTI_RUNS and OLD_STAGE pass through)
#   tools/gpu/run_multi_gpu.sh hpl    HPL (hpcc) with one MPI rank per GPU, each rank
#                                     taking the GPU of its local rank, against one rank
#                                     on one GPU, one rank with every GPU, and the CPU
#                                     library (MULTI_HPL overrides the runs, in
#                                     tools/bench/run_hpl.sh syntax)
# Each part fits one 10-minute command; run them one after the other on one machine.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/gpu/setup-env.sh
S=$PWD/.stage
nvidia-smi -L
mkdir -p ~/.cache/hyblas
[ -f ~/.cache/hyblas/profile ] || timeout 120 $S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
cp ~/.cache/hyblas/profile $OUT/profile.txt
export OMP_WAIT_POLICY=PASSIVE   # the harness's own OpenMP threads must not spin beside the library
case ${1:-gemm} in
gemm)
  STAGE=$S tools/bench/run_gemm_multi.sh
  cd $OUT && tar czf traces.tgz trace_*.txt && rm -f trace_*.txt nvblas.conf ;;
hpl)
  W=/tmp/hplw; mkdir -p $W
  OUT=$W STAGE=$S HPL_TIMEOUT=${HPL_TIMEOUT:-170} tools/bench/run_hpl.sh \
      "${MULTI_HPL:-hyblas:23040:512:2 hyblas1gpu:23040:512 cpu:23040:256 hyblas:23040:512}" \
      | tee $OUT/hpl_multi.csv
  for d in $W/hpl_*/; do
    echo "== $d"; grep -h "report:" $d/hpcc.log; grep -h -E "^WR|PASSED|FAILED" $d/hpccoutf.txt | head -3
  done > $OUT/hpl_multi_logs.txt ;;
esac
