#!/bin/bash
# The resident sparse call's spread against the bus's: the fixed pair of x's and y's size in
# single precision (32 MiB each way) with 0-14 threads reading the upload's buffer (as the
# fingerprint team reads x), then three processes of the 27-point calls benchmark in single
# precision, each call printed, with the fixed pair measured between them.
O=${1:-/tmp/r2}; mkdir -p $O
S=$(pwd)/.stage
P=$S/gpu_probe_bus_time
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
grep 'pinned' $O/calibrate.txt | head -1
for n in 0 4 8 14 0; do
  $P --series --host registered-4k --mib 32 --seconds 3 --readers $n >> $O/readers.txt 2>&1
done
$P --series --host pinned --mib 1024 --seconds 3 --readers 0 >> $O/readers.txt 2>&1
$P --series --host pinned --mib 1024 --seconds 3 --readers 14 >> $O/readers.txt 2>&1
grep -h '^#\|^series pairs' $O/readers.txt | cut -c1-200
for i in 1 2 3; do
  $P --series --host registered-4k --mib 32 --seconds 3 > $O/between$i.txt 2>&1
  echo "between $i: $(grep -h '^series pairs' $O/between$i.txt | cut -c1-160)"
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH timeout 200 $S/hyb_bench_spmv_calls --matrix stencil27 --prec s --max-calls 10 --per-call > $O/res$i.csv 2> $O/err$i.txt
  echo "process $i exit $? $(grep 'resident device call' $O/res$i.csv | sed 's/.*stencil27 \(.\) resident device call \([^ ]*\) s.*: \([0-9.]*x\) the bound.*/\1 \2 \3/' | tr '\n' ' ')"
done
$P --series --host registered-4k --mib 32 --seconds 3 > $O/between4.txt 2>&1
echo "between 4: $(grep -h '^series pairs' $O/between4.txt | cut -c1-160)"
