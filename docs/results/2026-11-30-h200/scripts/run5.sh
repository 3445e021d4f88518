#!/bin/bash
# Each run's ratio to the bound at the bus's rates of that moment: the benchmark of
# build-xb5.sh measures the pinned rates as hyblas-calibrate does right before and right
# after every timed run (stderr "exp moment"); the bound of the moment takes their means.
# The released library (8bb8b1c). d 10 k 4 on registered fields twice, on pinned fields
# (cudaMallocHost, host_pinned) once, and the planner's d 10 k 18, of the acoustic set
# under the 16 GiB budget.
O=${1:-/tmp/r5}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"; grep 'h2d registered' $O/calibrate.txt
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
run() { # name fields plan
  local s0; s0=$(steal) envs=()
  [ $2 = pin ] && envs=(HYB_X_PINNED=1)
  env "${envs[@]}" LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/xb/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $3 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 exit $rc stolen $((s1 - s0)) same $(grep -c ',1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt) hash $(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  # per sweep row: seconds, ratio to the calibrated bound, the moment's rates, ratio to its bound
  paste -d' ' <(grep '^exp moment' $O/$1.err | tail -n +3 | paste -d' ' - - | awk '{print $5, $7, $9, $14, $16, $18}') \
    <(grep '^sweep,acoustic' $O/$1.txt | awk -F, '{print $14, $21, $16, $17}') |
    awk '{h = ($1 + $4) / 2 * 1e9; d = ($2 + $5) / 2 * 1e9; r = ($3 + $6) / 2 * 1e9; b = $9 / h; if ($10 / d > b) b = $10 / d;
          if (($9 + $10) / r > b) b = ($9 + $10) / r; printf "%.3f s  %.3fx calibrated  moment %.1f %.1f %.1f GB/s  %.3fx\n", $7, $8, h / 1e9, d / 1e9, r / 1e9, $7 / b}'
}
ten() { local p=$1; for _ in 2 3 4 5 6 7 8 9 10; do p=$p,$1; done; echo $p; }
run reg-a reg $(ten 10:4)
run pin-a pin $(ten 10:4)
run reg-b reg $(ten 10:4)
run k18 reg $(ten 10:18)
