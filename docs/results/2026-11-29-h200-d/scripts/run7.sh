#!/bin/bash
# A/B: x's fingerprints started before issuing (new) against after it (old), resident sparse product
O=${1:-/tmp/r7}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
grep 'pinned' $O/calibrate.txt | head -1
for r in 1 2 3 4; do
 for b in old new; do
  LD_LIBRARY_PATH=$S/$b:$S:$LD_LIBRARY_PATH timeout 200 $S/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 --check-all > $O/$b-$r.csv 2>$O/$b-$r.err
  echo "$b round $r exit $? $(grep 'resident device call' $O/$b-$r.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ') $(grep -h "fingerprints" $O/$b-$r.csv | sed "s/.*x's fingerprints \([^ ]*\) s.*/xsum \1/" | tr '\n' ' ')"
 done
done
