#!/bin/bash
# Does the rollback copy cost the bus-bound plans time? One experiment library
# (keep-modes.patch on the named commit) that takes, run by run within one process, the
# copy as built (n: 8 threads), no copy (o) or the copy on all cores but two (w), so that
# the bus's drift over seconds falls on all three alike. Bus-bound plans d 10 k 4 and
# d 10 k 9 of the acoustic set under the 16 GiB budget; the host's stolen time around
# each process.
O=${1:-/tmp/r1}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
# warm-up and the planner's row first (n), then nine runs of the plan in a balanced order
CYCLE=nnnowownwno
run() { # name plan trace
  local s0; s0=$(steal)
  env ${3:+HYBLAS_TRACE=$O/$1.trace.txt HYBLAS_TRACE_STEPS=1} HYB_EXP_KEEP_CYCLE=$CYCLE \
    LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $2 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp keep' $O/$1.err | tail -n +3 | awk '{print $4, $16, $18, $14}') \
    <(grep '^sweep,acoustic' $O/$1.txt | awk -F, '{print $14, $21}')
}
P4=10:4,10:4,10:4,10:4,10:4,10:4,10:4,10:4,10:4
P9=10:9,10:9,10:9,10:9,10:9,10:9,10:9,10:9,10:9
run k4a $P4 trace
run k9a $P9 trace
run k4b $P4
run k9b $P9
run k4c $P4
