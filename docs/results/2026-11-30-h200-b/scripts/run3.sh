#!/bin/bash
# Run 2 again on a third machine (its windows' medians read right), with the bus's both-ways rate beside each d 10 k 4
# process: a fixed pair of pinned buffers, 1 GiB up beside 1 GiB down, repeated for 4 s
# before each process and after the last (gpu_probe_bus_time --series), from which the
# least time of the engine's 1.5 : 1 pattern at that moment follows.
O=${1:-/tmp/r3}; mkdir -p $O
S=$(pwd)/.stage
P=$S/gpu_probe_bus_time
export HYBLAS_PROFILE=$O/hyb.profile
date -u > $O/date.txt; cat $S/REVISION > $O/revision.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
echo "pinned $H2D $D2H $BIDIR"
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
pair() { # name
  $P --series --host pinned --mib 1024 --seconds 4 --window-ms 500 > $O/$1.txt 2>&1
  echo "$1 exit $? $(grep -h '^series pairs' $O/$1.txt | cut -c1-160)" \
    "windows $(awk '/^window/ {print $9}' $O/$1.txt | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
}
run() { # name plan memory-option
  local s0 t0; s0=$(steal); t0=$(date +%s)
  env LD_LIBRARY_PATH=$S:$LD_LIBRARY_PATH $S/hyb_bench_stencil_ooc --set acoustic \
    --budgets 17179869184 --schemes shared --plans $2 --no-cpu --h2d $H2D --d2h $D2H \
    --bidir $BIDIR $3 > $O/$1.txt 2> $O/$1.err
  local rc=$? s1; s1=$(steal)
  echo "$1 ${3:-registered} exit $rc stolen $((s1 - s0)) wall $(( $(date +%s) - t0 )) s" \
    "same $(grep -c '^sweep,.*,1,[0-9.]*,[0-9.]*,na,na$' $O/$1.txt)" \
    "$(grep -o 'result hash [0-9a-f]*' $O/$1.txt)"
  grep -o 'warm-up.*seconds_register [0-9.]*' $O/$1.txt
  grep '^sweep,acoustic' $O/$1.txt | awk -F, '{ printf "%s:%s %s %s\n", $10, $11, $14, $21 }'
}
times() { local p=$2; for ((i = 1; i < $1; i++)); do p=$p,$2; done; echo $p; }
pair pair1
run k4r1 $(times 10 10:4)
pair pair2
run k4h1 $(times 10 10:4) --host-alloc
pair pair3
run k4r2 $(times 10 10:4)
pair pair4
run k4h2 $(times 10 10:4) --host-alloc
pair pair5
run k18r $(times 8 10:18)
run k18h $(times 8 10:18) --host-alloc
