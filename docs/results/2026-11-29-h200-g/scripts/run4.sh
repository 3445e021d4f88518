#!/bin/bash
# The team sized by the block that writes first (87c51cc, new) against the build before it
# (0c28f37, old), alternating processes under one calibration: the planner's 16 GiB plan
# d 10 k 18 three times and the bus-bound d 10 k 4 twice in each process.
O=${1:-/tmp/r4}; mkdir -p $O
S=$(pwd)/.stage
date -u > $O/date.txt; cat $S/REVISION $S/old/REVISION > $O/revision.txt
OUT=$O ROUNDS=3 TRACE_ROUND=0 \
ARGS="--set acoustic --budgets 17179869184 --schemes shared --no-cpu --plans 10:18,10:18,10:18,10:4,10:4" \
  tools/bench/run_stencil_lib_ab.sh $S $S/old
