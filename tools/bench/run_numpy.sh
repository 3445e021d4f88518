#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# numpy (pip wheel: calls scipy_cblas_dgemm64_) a @ b at n = 8192: plain,
# under NVBLAS, under hyblas; the trace shows the calls were intercepted.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
PY=${PYTHON:-python3}
NVLIB=$(ls /usr/local/cuda/lib64/libnvblas.so.* 2>/dev/null | head -1)
echo "label,n,seconds,tflops,relerr,numpy"
$PY tools/bench/bench_numpy.py numpy ${1:-8192}
[ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB $PY tools/bench/bench_numpy.py numpy+nvblas ${1:-8192} 2>&1 | grep -v '^\[NVBLAS\]'
HYBLAS_TRACE=$OUT/trace_numpy.txt LD_PRELOAD=$S/libhyblas.so $PY tools/bench/bench_numpy.py numpy+hyblas ${1:-8192}
echo "intercepted: $(cut -d' ' -f1 $OUT/trace_numpy.txt | sort | uniq -c | tr '\n' ' ')"
