#!/bin/bash
# A/B/C, resident sparse product of the 27-point matrix, four alternated rounds:
# old = 21bd345; mid = fingerprints after the DMA (08bd269); new = mid and the change check
# walked by a fifth of the cores.
O=${1:-/tmp/r5}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
grep 'pinned' $O/calibrate.txt | head -1
for r in 1 2 3 4; do
 for b in old mid new; do
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH timeout 200 $S/$b/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 > $O/$b-$r.csv 2>$O/$b-$r.err
  echo "$b round $r exit $? $(grep 'resident device call' $O/$b-$r.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ') $(grep "resident call's stages" $O/$b-$r.csv | sed 's/.*pipeline \([^ ]*\) s.*change check \([^ ]*\) s beside it, outside the pipeline \([^ ]*\) s.*/pipe \1 check \2 out \3/' | tr '\n' ' ')"
 done
done
LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH timeout 200 $S/new/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 --check-all > $O/new-check.csv 2>$O/new-check.err
echo "new check-all exit $? $(grep 'resident device call' $O/new-check.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ')"
