#!/bin/bash
# LAPACK's linear-equation tester (double) plain, with LD_PRELOAD only, and under hyblas-run,
# on this machine without a GPU; three rounds, alternating.
B=${1:-/tmp/ciC/build}
L=/usr/lib/x86_64-linux-gnu/lapack
cd $(mktemp -d)
for r in 1 2 3; do
  for how in plain preload run; do
    t0=$(date +%s.%N)
    case $how in
      plain) $L/xlintstd < $L/dtest.in > out.$how.$r 2>&1 ;;
      preload) LD_PRELOAD=$B/libhyblas.so $L/xlintstd < $L/dtest.in > out.$how.$r 2>&1 ;;
      run) $B/hyblas-run --no-report -- $L/xlintstd < $L/dtest.in > out.$how.$r 2>&1 ;;
    esac
    rc=$?
    t1=$(date +%s.%N)
    printf "%s round %d: %.2f s rc %d, %s\n" $how $r $(echo "$t1 - $t0" | bc) $rc "$(grep -c 'failed' out.$how.$r) lines with 'failed'"
  done
done
