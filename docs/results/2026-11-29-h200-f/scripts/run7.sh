#!/bin/bash
# The final build's resident calls one by one in double and single precision (pipeline,
# device span, x's fingerprints, change check), four processes, with the host's stolen time.
O=${1:-/tmp/r6}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
grep 'pinned' $O/calibrate.txt | head -1
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
for i in 1 2 3 4; do
  s0=$(steal); t0=$(date +%s.%N)
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH timeout 200 $S/new/hyb_bench_spmv_calls --matrix stencil27 --prec ds --max-calls 30 --per-call > $O/res$i.csv 2> $O/calls$i.txt
  rc=$?; s1=$(steal); t1=$(date +%s.%N)
  echo "process $i exit $rc $(grep 'resident device call' $O/res$i.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ')stolen $(( s1 - s0 )) ticks in $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s"
done
