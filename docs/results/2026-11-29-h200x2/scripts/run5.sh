#!/bin/bash
# Run 5 (nvidia-h200-x2): HPL (Debian's hpcc) with two MPI ranks, each taking the GPU of its
# local rank (no setting), against the same two ranks on the CPU library alone; N = 16000.
date -u; cat .stage/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
MULTI_HPL="hyblas:16000:512:2 cpu:16000:256:2" HPL_TIMEOUT=200 timeout 480 tools/gpu/run_multi_gpu.sh hpl > $OUT/run.log 2>&1
echo rc=$?; tail -4 $OUT/run.log; cat $OUT/hpl_multi_logs.txt
for d in /tmp/hplw/hpl_*/; do echo "== $d"; grep -h "report" $d/hpcc.log | tail -12; done > $OUT/reports.txt
date -u
