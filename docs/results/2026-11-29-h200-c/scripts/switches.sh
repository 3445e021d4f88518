#!/bin/bash
# experiment: which part of the engine lowers the duplex rate (switches of the x build)
O=${1:-/tmp/r4}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
for r in 1 2; do
 for cfg in base nokeep nokern nod2d nokern,nokeep pace0; do
  envs=(); case $cfg in
   base) ;; nokeep) envs=(HYB_X_NOKEEP=1);; nokern) envs=(HYB_X_NOKERN=1);; nod2d) envs=(HYB_X_NOD2D=1);;
   nokern,nokeep) envs=(HYB_X_NOKERN=1 HYB_X_NOKEEP=1);; pace0) envs=(HYBLAS_STENCIL_DOWN_PAUSE_NS=0);; esac
  tr=(); [ $r = 1 ] && tr=(HYBLAS_TRACE=$O/$cfg.trace.txt HYBLAS_TRACE_STEPS=1)
  env "${envs[@]}" "${tr[@]}" LD_LIBRARY_PATH=$S/x:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4,10:9 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/$cfg.$r.txt 2>&1
  echo "$cfg.$r exit $? $(grep '^sweep,acoustic' $O/$cfg.$r.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}')"
 done
done
