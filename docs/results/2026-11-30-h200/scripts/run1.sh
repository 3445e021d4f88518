#!/bin/bash
# Paced downloads in the engine, run by run within one process: the experiment library
# (pace-modes.patch on 8bb8b1c) takes, in turn, unpaced downloads (u), the sleeping
# kernel's 5 us pause between 8 MiB pieces (p), or a device-to-device copy of 4 MiB (c)
# or 1 MiB (e) on the lane between the pieces, which holds the lane without a
# multiprocessor. Bus-bound plans d 10 k 4 and d 10 k 9 and the planner's d 10 k 18 of
# the acoustic set under the 16 GiB budget; the host's stolen time around each process.
O=${1:-/tmp/r1}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
# warm-up and the planner's row first (n: as built, unpaced), then twelve in a balanced order
CYCLE=${CYCLE:-nnuepccpeuucpe}
run() { # name plan [trace]
  local s0; s0=$(steal)
  env ${3:+HYBLAS_TRACE=$O/$1.trace.txt HYBLAS_TRACE_STEPS=1} HYB_EXP_PACE_CYCLE=$CYCLE \
    LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $2 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp pace' $O/$1.err | tail -n +3 | awk '{print $4, $18, $20}') \
    <(grep '^sweep,acoustic' $O/$1.txt | awk -F, '{print $14, $21}')
}
twelve() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10 11 12; do p=$p,$1; done; echo $p; }
run k4a $(twelve 10:4) trace
run k9a $(twelve 10:9)
run k18a $(twelve 10:18)
run k4b $(twelve 10:4)
