#!/bin/bash
# Run 7 (nvidia-h200-x2, 32 cores): the resident sparse product with x's fingerprint team
# capped by the process's OpenMP thread count (the team is every allowed core but the
# caller's neighbours and one: about 30 threads on this host, 14 on the 16-core hosts),
# OMP_NUM_THREADS 16 and 9 against the default, two alternated rounds.
date -u; cat .stage/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
. tools/gpu/setup-env.sh
export HYBLAS_DEVICE=cuda OMP_WAIT_POLICY=PASSIVE HYBLAS_PROFILE=$OUT/hyb.profile
S=$PWD/.stage
$S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
for r in 1 2; do
  for t in default 16 9; do
    e=(); [ $t != default ] && e=(OMP_NUM_THREADS=$t)
    env "${e[@]}" timeout 60 $S/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 > $OUT/spmv-$t-$r.csv 2> $OUT/spmv-$t-$r.err
    echo "threads $t round $r exit $? $(grep 'resident device call' $OUT/spmv-$t-$r.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ') $(date -u +%T)"
  done
done
date -u
