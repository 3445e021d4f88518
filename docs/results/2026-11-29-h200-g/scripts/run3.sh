#!/bin/bash
# Does the rollback copy on 4 or 3 threads keep ahead of the planner's own plans? The
# experiment library of runs 1 and 2 (keep-modes.patch), run by run within one process: the
# copy on 8, 4 or 3 threads or none. The plans the planner picks (acoustic 16 GiB d 10 k 18,
# no cap d 3 k 36; Himeno 16 GiB d 10 k 36) and the bus-bound d 10 k 4; the host's stolen
# time around each process.
O=${1:-/tmp/r1}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
# warm-up and the planner's row first (n), then twelve runs in a balanced order
CYCLE=nn84o3o3843o48
run() { # name set budget plan [trace]
  local s0; s0=$(steal)
  env ${5:+HYBLAS_TRACE=$O/$1.trace.txt HYBLAS_TRACE_STEPS=1} HYB_EXP_KEEP_CYCLE=$CYCLE \
    LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set $2 \
    --budgets $3 --schemes shared --plans $4 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp keep' $O/$1.err | tail -n +3 | awk '{print $4, $16, $18, $14}') \
    <(grep '^sweep,' $O/$1.txt | grep -v '^sweep,set' | awk -F, '{print $14, $21}')
}
twelve() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10 11 12; do p=$p,$1; done; echo $p; }
G16=17179869184
run a18a acoustic $G16 $(twelve 10:18) trace
run a36a acoustic 0 $(twelve 3:36)
run h36a himeno $G16 $(twelve 10:36)
run a4a acoustic $G16 $(twelve 10:4)
run a18b acoustic $G16 $(twelve 10:18)
run a36b acoustic 0 $(twelve 3:36)
run h36b himeno $G16 $(twelve 10:36)
