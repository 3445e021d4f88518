#!/bin/bash
# experiment: does the bus itself (probe beside each run) slow down with the engine's runs
O=${1:-/tmp/r6}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
for i in 1 2 3 4 5; do
  $S/gpu_probe_duplex --no-pace --host registered-4k --mib 6144 --reps 2 > $O/probe$i.txt 2>&1
  echo "probe$i: $(grep -h '^A\|^B\|^D' $O/probe$i.txt | tr -s ' ' | tr '\n' ';')"
  LD_LIBRARY_PATH=$S/x:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/bench$i.txt 2>&1
  echo "bench$i exit $? $(grep '^sweep,acoustic' $O/bench$i.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}')"
done
