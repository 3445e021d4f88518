#!/bin/bash
# experiment: do later runs on one machine lose rate, and does compacting memory bring it back
O=${1:-/tmp/r5}; mkdir -p $O
S=$(pwd)/.stage
export HYBLAS_PROFILE=$O/hyb.profile
cat /proc/cmdline > $O/sys.txt; ls /sys/kernel/iommu_groups 2>&1 | wc -l >> $O/sys.txt; cat /sys/kernel/mm/transparent_hugepage/enabled >> $O/sys.txt; (dmesg 2>&1 | grep -i -m5 "iommu\|dmar") >> $O/sys.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
run() { LD_LIBRARY_PATH=$S/x:$LD_LIBRARY_PATH "$@" $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4,10:9 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/$name.txt 2>&1
  echo "$name exit $? $(grep '^sweep,acoustic' $O/$name.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}')"; }
for i in 1 2 3; do name=seq$i; cat /proc/buddyinfo > $O/buddy$i.txt; run env; done
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; echo 1 > /proc/sys/vm/compact_memory 2>/dev/null; echo "compact: $?"
for i in 4 5; do name=seq$i; cat /proc/buddyinfo > $O/buddy$i.txt; run env; done
