#!/bin/bash
# experiment: does the rate a direction keeps beside the other depend on where the host bytes lie?
O=${1:-/tmp/r1}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
for i in 1 2; do
  $S/gpu_probe_duplex --scan 24576 --scan-duplex --host registered-4k --touch-threads 16 --reps 2 > $O/scan-reg$i.txt 2>&1
  echo "scan-reg$i exit $?"; awk '/^scan/ {u+=$7; n++; if(min==""||$7<min)min=$7; if($7>max)max=$7} END {printf "  up-beside mean %.2f min %.1f max %.1f over %d GiB\n", u/n, min, max, n}' $O/scan-reg$i.txt
done
$S/gpu_probe_duplex --scan 24576 --scan-duplex --host pinned --reps 2 > $O/scan-pinned.txt 2>&1
echo "scan-pinned exit $?"; awk '/^scan/ {u+=$7; n++; if(min==""||$7<min)min=$7; if($7>max)max=$7} END {printf "  up-beside mean %.2f min %.1f max %.1f over %d GiB\n", u/n, min, max, n}' $O/scan-pinned.txt
for i in 1 2 3 4 5; do
  HYB_X_BUS_SCAN=1 HYBLAS_TRACE=$O/trace$i.txt HYBLAS_TRACE_STEPS=1 LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/xb/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/bench$i.txt 2>&1
  echo "bench$i exit $? $(grep '^sweep,acoustic' $O/bench$i.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}') $(grep 'busscan summary' $O/bench$i.txt)"
done
