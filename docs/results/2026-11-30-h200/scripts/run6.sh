#!/bin/bash
# Does the rollback copy make the registered fields' first second slow? The experiment
# library (keep-off.patch on 30b1698) takes, run by run within one process, the copy as
# built (n) or none (o); registered and pinned fields (the benchmark of build-xb.sh,
# HYB_X_PINNED=1), step traces for the windows of stencil_bus_rates.py. d 10 k 4 of the
# acoustic set under the 16 GiB budget.
O=${1:-/tmp/r6}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep 'h2d registered' $O/calibrate.txt
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
CYCLE=nnnoonnoonnoon
run() { # name fields plan
  local s0; s0=$(steal) envs=()
  [ $2 = pin ] && envs=(HYB_X_PINNED=1)
  env "${envs[@]}" HYBLAS_TRACE=$O/$1.trace.txt HYBLAS_TRACE_STEPS=1 HYB_EXP_KEEP_CYCLE=$CYCLE \
    LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/xb/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $3 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp keep' $O/$1.err | tail -n +3 | awk '{print $4}') \
    <(grep '^sweep,acoustic' $O/$1.txt | awk -F, '{print $14, $21}')
  gzip $O/$1.trace.txt
}
twelve() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10 11 12; do p=$p,$1; done; echo $p; }
run reg-a reg $(twelve 10:4)
run pin-a pin $(twelve 10:4)
run reg-b reg $(twelve 10:4)
