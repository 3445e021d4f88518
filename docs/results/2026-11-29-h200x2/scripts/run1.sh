#!/bin/bash
# Run 1 (nvidia-h200-x2): how the GPUs are linked, the calibration, then the level-3
# benchmark of tools/bench/gemm_multi.txt on one GPU against both (forced and auto), and
# 52d2333's build (interleaved tiles, no bands) forced onto both; every result checked.
date -u; cat .stage/REVISION .stage/old/REVISION
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi topo -m > $OUT/topo.txt 2>&1; nproc; free -g | head -2
MULTI_RUNS="1gpu allgpu autoall old" OLD_STAGE=$PWD/.stage/old \
  timeout 570 tools/gpu/run_multi_gpu.sh gemm > $OUT/run.log 2>&1
echo rc=$?; tail -30 $OUT/run.log
date -u
