#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run here after building: copy what the GPU machine runs (libraries, tools,
# benchmarks, test programs) from BUILD (default build/) into .stage/
# (git-ignored), small enough to carry with the run.
set -e
B=${1:-build}
rm -rf .stage && mkdir -p .stage
for f in libhyblas.so libhyblas.so.0 libhyblas_cuda.so hyblas-calibrate hyblas-run hyb_bench_gemm \
         hyb_bench_spmv hyb_bench_spmv_calls hyb_bench_gtsv gpu_check_spmv gpu_check_gtsv gpu_probe_bus hyb-spmv-gen hyb_linpack; do
    [ -e "$B/$f" ] && cp -a "$B/$f" .stage/
done
cp -a $B/libhyblas.so.0.* .stage/ 2>/dev/null || true
for f in $(find $B/tests -maxdepth 2 -type f -perm -u+x 2>/dev/null); do cp -a "$f" .stage/; done
# the commit the staged build came from (the GPU machine's copy of the tree has no history)
git describe --always --dirty > .stage/REVISION 2>/dev/null || true
du -sh .stage
