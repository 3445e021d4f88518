#!/bin/bash
# Run 4 (nvidia-h200-x2, 32 cores): issues 21 and 25 on this kind of host. Three processes
# each of the out-of-core acoustic set on its bus-bound plan (16 GiB budget, region sharing,
# d 10 k 4), and of the 27-point sparse calls (resident product against the x + y bound).
# PARTS picks them (default "stencil spmv"; the first attempt ran the stencil without
# LD_LIBRARY_PATH, exit 127, and was run again with PARTS=stencil).
date -u; cat .stage/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
. tools/gpu/setup-env.sh
export HYBLAS_DEVICE=cuda OMP_WAIT_POLICY=PASSIVE HYBLAS_PROFILE=$OUT/hyb.profile
S=$PWD/.stage
$S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $OUT/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
for r in $(case " ${PARTS:-stencil spmv} " in *" stencil "*) echo 1 2 3;; esac); do
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH timeout 100 $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 \
    --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $OUT/stencil-$r.txt 2>&1
  echo "stencil $r exit $? $(grep '^row,acoustic' $OUT/stencil-$r.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $12, $13, $14, $27}') $(grep -c same_as_first $OUT/stencil-$r.txt) $(grep 'result hash' $OUT/stencil-$r.txt | tail -1)"
done
for r in $(case " ${PARTS:-stencil spmv} " in *" spmv "*) echo 1 2 3;; esac); do
  timeout 100 $S/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 --check-all > $OUT/spmv-$r.csv 2> $OUT/spmv-$r.err
  echo "spmv $r exit $? $(grep 'resident device call' $OUT/spmv-$r.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ')"
done
date -u
