#!/bin/bash
# hyblas_host_alloc as a mapping of the library's own (2 MiB pages, zeroed by the OpenMP
# threads, then page-locked by registration) against the program's calloc'd arrays locked
# by the library at the first run: what each pays before its first result (set-up and
# first run) and d 10 k 4 six times, three pairs of processes alternating.
O=${1:-/tmp/r5}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
run() { # name memory-option
  env LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans 10:4,10:4,10:4,10:4,10:4,10:4 --no-cpu \
    --h2d $H2D --d2h $D2H --bidir $BIDIR $2 > $O/$1.txt 2> $O/$1.err
  echo "$1 ${2:-calloc} exit $? $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  grep -o 'set-up: .*\|warm-up.*seconds_register [0-9.]*' $O/$1.txt
  grep '^sweep,acoustic' $O/$1.txt | awk -F, '{ printf "%s:%s %s %s\n", $10, $11, $14, $21 }'
}
for i in 1 2 3; do
  run k4r$i
  run k4h$i --host-alloc
done
