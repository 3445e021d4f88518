#!/bin/bash
# Unpaced (u) against paced downloads (p: the sleeping kernel's 5 us between 8 MiB pieces)
# run by run within one process, on the planners' plans, which users get: the acoustic set
# under 16 GiB (d 10 k 18) three times, without a cap (d 3 k 36), Himeno under 16 GiB
# (d 10 k 36). The library of runs 1-3 (pace-modes.patch), the released benchmark.
O=${1:-/tmp/r4}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep 'h2d registered' $O/calibrate.txt
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
CYCLE=nnuppuuppuuppu
run() { # name set budget plan
  local s0; s0=$(steal)
  env HYB_EXP_PACE_CYCLE=$CYCLE LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc \
    --set $2 --budgets $3 --schemes shared --plans $4 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  paste -d' ' <(grep '^exp pace' $O/$1.err | tail -n +3 | awk '{print $4, $18, $20}') \
    <(grep '^sweep,' $O/$1.txt | grep -v '^sweep,set' | awk -F, '{print $14, $21}')
}
twelve() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10 11 12; do p=$p,$1; done; echo $p; }
G16=17179869184
run a18a acoustic $G16 $(twelve 10:18)
run a36n acoustic 0 $(twelve 3:36)
run a18b acoustic $G16 $(twelve 10:18)
run h36a himeno $G16 $(twelve 10:36)
run a18c acoustic $G16 $(twelve 10:18)
