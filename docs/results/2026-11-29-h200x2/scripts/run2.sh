#!/bin/bash
# Run 2 (nvidia-h200-x2): NVBLAS on both GPUs and hyblas auto on one GPU for run 1's
# table; then d 16384^3 and 24576^3 forced onto one GPU and both, under settings that
# change the two-device plan (tile edge, staging, copy threads), each traced, to find
# why two GPUs were slower than one on these shapes in run 1.
date -u; cat .stage/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
MULTI_RUNS="nvblas auto1" timeout 300 tools/gpu/run_multi_gpu.sh gemm > $OUT/run.log 2>&1
echo rc=$?; tail -22 $OUT/run.log
S=$PWD/.stage; K=docs/results/2026-11-29-h200x2/scripts/knobs.txt
export OMP_WAIT_POLICY=PASSIVE HYBLAS_MODE=gpu
for cfg in "1:" "all:" "all:HYBLAS_TILE=4096" "all:HYBLAS_TILE=2048" "all:HYBLAS_STAGING=register" \
           "1:HYBLAS_STAGING=register" "all:HYBLAS_COPY_THREADS=14"; do
  g=${cfg%%:*}; set=${cfg#*:}; label="gpus-$g${set:+-${set#HYBLAS_}}"
  env $set HYBLAS_GPUS=$g HYBLAS_TRACE=$OUT/trace_$label.txt LD_PRELOAD=$S/libhyblas.so \
    timeout 120 $S/hyb_bench_gemm $label $K >> $OUT/knobs.csv 2>>$OUT/knobs.err
  echo "$label rc=$?"
done
cat $OUT/knobs.csv
date -u
