#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: HPL (hpcc) under the CPU library, NVBLAS and hyblas.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/gpu/setup-env.sh
S=$PWD/.stage
[ -f ~/.cache/hyblas/profile ] || timeout 120 $S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
STAGE=$S tools/bench/run_hpl.sh "${1:-cpu:16000:256 nvblas:16000:256 hyblas:16000:512 hyblas:30000:768}" | tee $OUT/hpl.csv
for d in $OUT/hpl_*; do grep -h "report:" $d/hpcc.log | head -6; grep -h -E "^WR|PASSED|FAILED" $d/hpccoutf.txt | head -3; done
cd $OUT && tar czf hpl_logs.tgz hpl_* && rm -rf hpl_*/
