#!/bin/bash
# nvidia-h200-x2 (32 cores): the resident sparse product with x's fingerprint team capped
# at 16 cores (HYB_XSUM_CORES_MAX, kernels/pipeline/hyb_spmv_pipe.c) by the library itself,
# no OMP_NUM_THREADS: three processes in double and single, each call's line, the host's
# stolen time around each process.
O=${1:-$OUT}
date -u; cat .stage/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
. tools/gpu/setup-env.sh > /dev/null 2>&1
export HYBLAS_DEVICE=cuda OMP_WAIT_POLICY=PASSIVE HYBLAS_PROFILE=$O/hyb.profile
S=$PWD/.stage
nproc
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
for r in 1 2 3; do
  s0=$(steal)
  timeout 150 $S/hyb_bench_spmv_calls --matrix stencil27 --prec ds --max-calls 30 --per-call > $O/spmv-$r.csv 2> $O/spmv-$r.err
  rc=$?; s1=$(steal)
  echo "spmv $r exit $rc stolen $((s1 - s0)) $(grep 'resident device call' $O/spmv-$r.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ') $(date -u +%T)"
done
