#!/bin/bash
# experiment: does per-call work beside the transfers (registrations, events, pinned allocations, page faults) slow them
O=${1:-/tmp/r5}; mkdir -p $O
S=$(pwd)/.stage
date > $O/date.txt
for h in registered-4k pinned; do
  for m in 1024 32; do
    $S/gpu_probe_duplex --churn --host $h --mib $m --reps 20 > $O/churn-$h-$m.txt 2>&1; echo "churn $h $m MiB exit $?"; cat $O/churn-$h-$m.txt
  done
done
