#!/bin/bash
# Run 6 (nvidia-h200, one GPU): the cost model with a per-product issuer cost (new) against
# c615dc5 (old) on one GPU at small and middle sizes, three alternated rounds of forced onto
# the GPU and auto (where the CPU/device boundary lies); every result checked.
date -u; cat .stage/REVISION .stage/old/REVISION
. tools/gpu/setup-env.sh
S=$PWD/.stage; K=docs/results/2026-11-29-h200x2/scripts/ab1.txt
mkdir -p ~/.cache/hyblas; timeout 120 $S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
cp ~/.cache/hyblas/profile $OUT/profile.txt
export OMP_WAIT_POLICY=PASSIVE
for r in 1 2 3; do
 for b in old new; do
  L=$S; [ $b = old ] && L=$S/old
  for cfg in 1gpu auto; do
   e="HYBLAS_MODE=gpu"; [ $cfg = auto ] && e="HYBLAS_MODE=auto"
   env $e HYBLAS_TRACE=$OUT/trace_${b}_${cfg}_$r.txt LD_PRELOAD=$L/libhyblas.so \
     timeout 60 $S/hyb_bench_gemm $b-$cfg $K >> $OUT/ab.csv 2>>$OUT/ab.err
   echo "round $r $b $cfg rc=$? $(date -u +%T)"
  done
 done
done
cd $OUT && tar czf traces.tgz trace_*.txt && rm -f trace_*.txt
date -u
