#!/bin/bash
# experiment: does the engine's mix of transfers lower the duplex sum; do more copy connections help
O=${1:-/tmp/r2}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep registered $O/calibrate.txt | head -1
for h in registered-4k pinned; do
  $S/gpu_probe_duplex --mix --host $h --mib 1024 --reps 3 --touch-threads 16 > $O/mix-$h.txt 2>&1; echo "mix $h exit $?"; grep '^mix' $O/mix-$h.txt
done
for r in 1 2; do
 for c in 8 32 2; do
  CUDA_DEVICE_MAX_CONNECTIONS=$c HYBLAS_TRACE=$O/trace-c$c-$r.txt HYBLAS_TRACE_STEPS=1 LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/bench-c$c-$r.txt 2>&1
  echo "connections $c round $r exit $? $(grep '^row,acoustic\|^sweep,acoustic' $O/bench-c$c-$r.txt | awk -F, '$1=="row"{printf "d%s k%s %s s (%sx) ", $12, $13, $14, $27} $1=="sweep"{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}')"
 done
done
