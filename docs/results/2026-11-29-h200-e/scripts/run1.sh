#!/bin/bash
# Run 1: the level-3 path on one H200, the build of 4c21813 (new) against 52d2333 (old),
# and the new build with HYBLAS_GPUS=0,0 (two device contexts on the one GPU: bands of
# tiles and the taking over of a band on real CUDA). Two rounds; forced to the device.
date -u; . tools/gpu/setup-env.sh; export OMP_WAIT_POLICY=PASSIVE; S=$PWD/.stage; nvidia-smi -L; nproc
printf 'square d 8192 8192 8192 3\nsquare d 16384 16384 16384 2\nhpl d 16384 16384 512 3\nsquare s 16384 16384 16384 2\n' > /tmp/spec.txt
. tools/bench/bench_env.sh; C=$OUT/g.csv; gemm_csv_header > $C
for r in 1 2; do
  HYBLAS_MODE=gpu LD_PRELOAD=$S/libhyblas.so timeout 100 $S/hyb_bench_gemm new-1gpu /tmp/spec.txt >> $C
  HYBLAS_MODE=gpu LD_PRELOAD=$S/old/libhyblas.so timeout 100 $S/hyb_bench_gemm old-1gpu /tmp/spec.txt >> $C
  HYBLAS_MODE=gpu HYBLAS_GPUS=0,0 HYBLAS_TRACE=$OUT/t00_$r.txt HYBLAS_REPORT=1 LD_PRELOAD=$S/libhyblas.so \
      timeout 100 $S/hyb_bench_gemm new-0,0 /tmp/spec.txt >> $C 2>$OUT/rep00_$r.txt
done
cat $C; grep -c "devices=2" $OUT/t00_1.txt; date -u
