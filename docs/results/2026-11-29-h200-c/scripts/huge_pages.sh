#!/bin/bash
# experiment: the program's arrays in transparent huge pages against 4 KiB pages, alternating
O=${1:-/tmp/r7}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
for i in 1 2 3; do for h in small huge; do
  flag=(); [ $h = huge ] && flag=(--huge-pages)
  t0=$(awk '$1=="thp_fault_alloc"{print $2}' /proc/vmstat)
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR "${flag[@]}" > $O/$h$i.txt 2>&1
  echo "$h$i exit $? $(grep '^sweep,acoustic' $O/$h$i.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}') thp_faults $(( $(awk '$1=="thp_fault_alloc"{print $2}' /proc/vmstat) - t0 ))"
done; done
