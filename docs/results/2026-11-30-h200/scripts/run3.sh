#!/bin/bash
# The program's fields registered by the library against the same fields allocated
# page-locked by the program (cudaMallocHost, the engine's host_pinned flag: the memory the
# bound's pinned rates were measured on), processes alternating; in each, run by run,
# unpaced downloads (u), the sleeping kernel's 5 us between 8 MiB pieces (p) and a 1 MiB
# device-to-device copy on the lane between them (e). d 10 k 4 of the acoustic set under
# the 16 GiB budget. The benchmark of build-xb.sh (.stage/xb), the library of runs 1-2.
O=${1:-/tmp/r3}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep 'h2d registered' $O/calibrate.txt
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
CYCLE=nnupeepupueuep
run() { # name fields plan [trace]
  local s0; s0=$(steal) envs=()
  [ $2 = pin ] && envs=(HYB_X_PINNED=1)
  env "${envs[@]}" ${4:+HYBLAS_TRACE=$O/$1.trace.txt HYBLAS_TRACE_STEPS=1} HYB_EXP_PACE_CYCLE=$CYCLE \
    LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/xb/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $3 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp pace' $O/$1.err | tail -n +3 | awk '{print $4, $18, $20}') \
    <(grep '^sweep,acoustic' $O/$1.txt | awk -F, '{print $14, $21}')
}
twelve() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10 11 12; do p=$p,$1; done; echo $p; }
run reg-a reg $(twelve 10:4)
run pin-a pin $(twelve 10:4) trace
run reg-b reg $(twelve 10:4)
run pin-b pin $(twelve 10:4)
