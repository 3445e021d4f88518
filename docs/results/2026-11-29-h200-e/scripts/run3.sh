#!/bin/bash
# Run 3: two MPI ranks sharing the one GPU again, build of 7d6cefb (the ranks that take a
# device share its free memory); HPL N = 11000 only (hpcc's other tests stay short).
date -u; cat .stage/REVISION
MULTI_HPL="hyblas:11000:512:2" HPL_TIMEOUT=200 timeout 280 tools/gpu/run_multi_gpu.sh hpl > $OUT/run.log 2>&1
echo rc=$?; tail -3 $OUT/run.log; cat $OUT/hpl_multi_logs.txt
for d in /tmp/hplw/hpl_*/; do echo "== $d"; grep -h "report" $d/hpcc.log | tail -8; done > $OUT/reports.txt
date -u
