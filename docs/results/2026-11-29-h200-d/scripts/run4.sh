#!/bin/bash
# experiment: the resident sparse product's device timeline (x chunks, kernels, downloads) per call
# (library built with spmv-timeline.diff, staged in .stage/sp with hyb_bench_spmv_calls)
O=${1:-/tmp/r4}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
grep pinned $O/calibrate.txt | head -1
for i in 1 2 3; do
  HYB_X_SPMV_TL=1 LD_LIBRARY_PATH=$S/sp:$S:$LD_LIBRARY_PATH timeout 200 $S/sp/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 > $O/res$i.csv 2> $O/tl$i.txt
  echo "process $i exit $?"; grep 'resident device call\|device span' $O/res$i.csv | cut -c1-260
done
