# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the BLAS benchmark scripts: finds the CPU library (Debian's
# OpenBLAS, carried or installed) and NVBLAS, and writes $OUT/nvblas.conf as
# the issues ask (the same CPU library, every GPU, tile 2048, autopin on).
# Sets CPU_LIB and NVLIB (empty where NVBLAS is missing).
CPU_LIB=$(ls /tmp/deb/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 \
               /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 2>/dev/null | head -1)
NVLIB=$(ls /usr/local/cuda/lib64/libnvblas.so.* 2>/dev/null | head -1)
printf 'NVBLAS_CPU_BLAS_LIB %s\nNVBLAS_GPU_LIST ALL\nNVBLAS_TILE_DIM 2048\nNVBLAS_AUTOPIN_MEM_ENABLED\n' \
    "$CPU_LIB" > $OUT/nvblas.conf

# The head of a hyb_bench_gemm CSV file: what ran, where, and the column names.
gemm_csv_header() {
  echo "# machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sort | uniq -c | xargs); $(nproc) cores; $(date -u +%F)"
  echo "# cpu library: $CPU_LIB; nvblas: ${NVLIB:-none}; hyblas $(cat "${STAGE:-.stage}/REVISION" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null)"
  echo "label,prec,shape,m,n,k,beta,seconds,tflops,relerr,ok"
}
