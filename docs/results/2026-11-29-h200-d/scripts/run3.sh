#!/bin/bash
# experiment: the engine on the program's registered arrays against the same arrays in pinned memory
O=${1:-/tmp/r3}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep registered $O/calibrate.txt | head -1
for r in 1 2 3 4; do
 for m in reg pin; do
  envs=(); [ $m = pin ] && envs=(HYB_X_PINNED=1)
  env "${envs[@]}" HYBLAS_TRACE=$O/trace-$m-$r.txt HYBLAS_TRACE_STEPS=1 LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/xb/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/bench-$m-$r.txt 2>&1
  echo "$m round $r exit $? $(grep '^row,acoustic\|^sweep,acoustic' $O/bench-$m-$r.txt | awk -F, '$1=="row"{printf "d%s k%s %s s (%sx) ", $12, $13, $14, $27} $1=="sweep"{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}') $(grep -c 'same_as_first' $O/bench-$m-$r.txt) $(grep '# 2 device\|result hash' $O/bench-$m-$r.txt | tail -1)"
 done
done
