#!/bin/bash
# Run 3 (nvidia-h200-x2): the cost model with a per-product issuer cost (new) against
# c615dc5 (old), two alternated rounds of: forced onto one GPU, forced onto both, auto
# with both at hand (traced: the device count and tiles of each call); every result checked.
date -u; cat .stage/REVISION .stage/old/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
. tools/gpu/setup-env.sh
S=$PWD/.stage; K=docs/results/2026-11-29-h200x2/scripts/ab.txt
mkdir -p ~/.cache/hyblas; timeout 120 $S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
cp ~/.cache/hyblas/profile $OUT/profile.txt
export OMP_WAIT_POLICY=PASSIVE
for r in 1 2; do
 for b in old new; do
  L=$S; [ $b = old ] && L=$S/old
  for cfg in 1gpu allgpu autoall; do
   case $cfg in 1gpu) e="HYBLAS_MODE=gpu HYBLAS_GPUS=1";; allgpu) e="HYBLAS_MODE=gpu HYBLAS_GPUS=all";;
                autoall) e="HYBLAS_GPUS=all";; esac
   env $e HYBLAS_TRACE=$OUT/trace_${b}_${cfg}_$r.txt LD_PRELOAD=$L/libhyblas.so \
     timeout 100 $S/hyb_bench_gemm $b-$cfg $K >> $OUT/ab.csv 2>>$OUT/ab.err
   echo "round $r $b $cfg rc=$? $(date -u +%T)"
  done
 done
done
cd $OUT && tar czf traces.tgz trace_*.txt && rm -f trace_*.txt
date -u
