#!/bin/bash
# Run 2: HPL (hpcc) with two MPI ranks sharing the one GPU (each rank takes the device of
# its local rank modulo the devices there), against one rank; build of 6f6a16b.
date -u
MULTI_HPL="hyblas:16000:512:2 hyblas:16000:512" HPL_TIMEOUT=200 timeout 460 tools/gpu/run_multi_gpu.sh hpl > $OUT/run.log 2>&1
echo rc=$?; tail -5 $OUT/run.log; cat $OUT/hpl_multi_logs.txt
for d in /tmp/hplw/hpl_*/; do echo "== $d"; grep -h "report" $d/hpcc.log | tail -8; done > $OUT/reports.txt
date -u
