#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# First call on the GPU machine: what the machine is, calibration, every
# level-3 routine and precision forced onto the device through the netlib
# testers, and a first GEMM measurement with per-stage times.
# Run from the repository root with .stage/ and .deb/ carried.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/gpu/setup-env.sh
S=$PWD/.stage
echo "== machine"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; free -g | head -2
ls /usr/local/cuda/lib64/libnvblas* /usr/local/cuda/lib64/libcublas.so* 2>&1 | head; python3 -c 'import numpy; print("numpy", numpy.__version__, numpy.__file__)'
ldd $S/libhyblas_cuda.so | grep -E "not found|cublas" 
export HYBLAS_PROFILE=$OUT/profile.txt
echo "== calibrate"; timeout 120 $S/hyblas-calibrate 2>&1 | tee $OUT/calibrate.txt

echo "== netlib level-3 testers, every call on the device"
cd /tmp && for p in s d c z; do
  HYBLAS_MODE=gpu HYBLAS_REPORT=1 LD_PRELOAD=$S/libhyblas.so timeout 300 $BLAS_TESTS/xblat3$p < $BLAS_TESTS/${p}blat3.in > $OUT/xblat3$p.log 2>&1
  echo "xblat3$p rc=$? passed=$(grep -c PASSED ${p}blat3.out) bad=$(grep -ciE 'FAIL|SUSPECT|FATAL' ${p}blat3.out)"; cp ${p}blat3.out $OUT/
  HYBLAS_MODE=gpu LD_LIBRARY_PATH=$HYB_REF_BLAS_DIR:$LD_LIBRARY_PATH LD_PRELOAD=$S/libhyblas.so timeout 300 $BLAS_TESTS/x${p}cblat3 < $BLAS_TESTS/${p}in3 > $OUT/x${p}cblat3.log 2>&1
  echo "x${p}cblat3 rc=$? passed=$(grep -c PASSED $OUT/x${p}cblat3.log) bad=$(grep -ciE 'FAIL|SUSPECT|FATAL' $OUT/x${p}cblat3.log)"
done; cd - > /dev/null
grep -h "report:" $OUT/xblat3d.log | head -12

echo "== first GEMM measurements"
cat > /tmp/spec1.txt <<'SPEC'
square d 1024 1024 1024 3
square d 4096 4096 4096 3
square d 8192 8192 8192 3
square d 16384 16384 16384 2
square z 4096 4096 4096 2
square s 8192 8192 8192 2
hpl d 16384 16384 512 2
tall d 262144 64 1024 2
SPEC
HYBLAS_MODE=gpu HYBLAS_TRACE=$OUT/trace_gpu.txt LD_PRELOAD=$S/libhyblas.so timeout 200 $S/hyb_bench_gemm gpu /tmp/spec1.txt 2>&1 | tee $OUT/bench1.csv
HYBLAS_TRACE=$OUT/trace_auto.txt LD_PRELOAD=$S/libhyblas.so timeout 100 $S/hyb_bench_gemm auto /tmp/spec1.txt 2>&1 | tee -a $OUT/bench1.csv
timeout 60 $S/hyb_bench_gemm cpu /tmp/spec1.txt 2e11 2>&1 | tee -a $OUT/bench1.csv
NVLIB=$(ls /usr/local/cuda/lib64/libnvblas.so.* 2>/dev/null | head -1)
printf 'NVBLAS_CPU_BLAS_LIB %s\nNVBLAS_GPU_LIST ALL\nNVBLAS_TILE_DIM 2048\nNVBLAS_AUTOPIN_MEM_ENABLED\n' \
  /tmp/deb/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 > /tmp/nvblas.conf
[ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=/tmp/nvblas.conf LD_PRELOAD=$NVLIB timeout 100 $S/hyb_bench_gemm nvblas /tmp/spec1.txt 2>&1 | tee -a $OUT/bench1.csv
cut -c1-400 $OUT/trace_gpu.txt | grep -v "path=cpu" | tail -20
for g in gpu_check_spmv gpu_check_gtsv; do
  [ -x $S/$g ] && { echo "== $g"; timeout 100 $S/$g > $OUT/$g.txt 2>&1; echo "rc=$?"; tail -25 $OUT/$g.txt; }
done
echo done
