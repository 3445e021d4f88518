#!/bin/bash
# What a program pays before its first result, by the fields' memory: the benchmark's
# set-up (allocation, then the data set written) and its first run (the warm-up, which
# locks the program's arrays unless they are page-locked already), then d 10 k 4 three
# times: the program's arrays (calloc, locked by the library), hyblas_host_alloc, and
# transparent huge pages (locked by the library).
O=${1:-/tmp/r4}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
run() { # name memory-option
  local t0; t0=$(date +%s.%N)
  env LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans 10:4,10:4,10:4 --no-cpu --h2d $H2D \
    --d2h $D2H --bidir $BIDIR $2 > $O/$1.txt 2> $O/$1.err
  echo "$1 ${2:-calloc} exit $? wall $(echo "$(date +%s.%N) - $t0" | bc) s $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  grep -o 'set-up: .*\|warm-up.*seconds_register [0-9.]*' $O/$1.txt
  grep '^sweep,acoustic' $O/$1.txt | awk -F, '{ printf "%s:%s %s %s\n", $10, $11, $14, $21 }'
}
run reg
run host --host-alloc
run huge --huge-pages
