#!/bin/bash
# Is the processes' spread a slow moment or slow memory? Fixed buffers over time, GiBs in
# shuffled orders, and the engine's bus-bound plan three times in each of four processes,
# with the fixed pair measured between processes.
O=${1:-/tmp/r1}; mkdir -p $O
S=$(pwd)/.stage
P=$S/gpu_probe_bus_time
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
summ() { grep -h '^series pairs\|^series bound' "$@" | cut -c1-200; awk '/^window/ {print $7}' "$@" | sort -n | sed -n '1p;$p' | tr '\n' ' '; echo "(window p50 min max)"; }
{
$P --series --host pinned --mib 32 --seconds 8 --window-ms 250
$P --series --host registered-4k --mib 32 --seconds 8 --window-ms 250
$P --series --host pinned --mib 1024 --seconds 8 --window-ms 250
} > $O/series.txt 2>&1
echo "series exit $?"; grep -h '^#\|^series' $O/series.txt | cut -c1-220
$P --place 24 --passes 3 > $O/place.txt 2>&1
echo "place exit $?"; grep -h 'correlation' $O/place.txt
for i in 1 2 3 4; do
  $P --series --host pinned --mib 1024 --seconds 4 --window-ms 500 > $O/between$i.txt 2>&1
  echo "between $i: $(summ $O/between$i.txt | tr '\n' ' ')"
  LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4,10:4,10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/bench$i.txt 2>&1
  echo "bench $i exit $? $(grep '^sweep,acoustic' $O/bench$i.txt | awk -F, '{printf "d%s k%s %s s (%sx) ", $10, $11, $14, $21}') $(grep -c 'same_as_first_gpu' $O/bench$i.txt)"
done
$P --series --host pinned --mib 1024 --seconds 4 --window-ms 500 > $O/between5.txt 2>&1
echo "between 5: $(summ $O/between5.txt | tr '\n' ' ')"
grep -h "result hash" $O/bench*.txt
