#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HPL from Debian's hpcc package, unmodified, one MPI process, under the CPU
# library alone, NVBLAS and hyblas (LD_PRELOAD), in one run. hpcc calls
# cblas_dgemm/cblas_dtrsm (NVBLAS intercepts only Fortran names). Prints
# label, N, NB, HPL GFLOP/s, residual check, wall seconds of the whole hpcc.
#   tools/bench/run_hpl.sh "LABEL:N:NB ..."   (LABEL: cpu, nvblas, hyblas)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
CPU_LIB=$(ls /tmp/deb/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 \
               /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 2>/dev/null | head -1)
NVLIB=$(ls /usr/local/cuda/lib64/libnvblas.so.* 2>/dev/null | head -1)
printf 'NVBLAS_CPU_BLAS_LIB %s\nNVBLAS_GPU_LIST ALL\nNVBLAS_TILE_DIM 2048\nNVBLAS_AUTOPIN_MEM_ENABLED\n' \
    "$CPU_LIB" > $OUT/nvblas.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
echo "label,N,NB,hpl_gflops,residual,hpcc_wall"
for cfg in $1; do
  IFS=: read label N NB <<< "$cfg"
  d=$OUT/hpl_${label}_$N; mkdir -p $d; cd $d
  cat > hpccinf.txt <<INF
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$N           Ns
1            # of NBs
$NB          NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
1            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
INF
  t0=$(date +%s%N)
  case $label in
    cpu) timeout 1200 hpcc > hpcc.log 2>&1 ;;
    nvblas) NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB timeout 1200 hpcc > hpcc.log 2>&1 ;;
    hyblas*) HYBLAS_REPORT=1 LD_PRELOAD=$S/libhyblas.so timeout 1200 hpcc > hpcc.log 2>&1 ;;
  esac
  t1=$(date +%s%N)
  gf=$(awk -F= '/^HPL_Tflops=/{printf "%.1f", $2*1000}' hpccoutf.txt)
  res=$(grep -m1 -oE 'PASSED|FAILED' hpccoutf.txt)
  echo "$label,$N,$NB,${gf:-?},${res:-?},$(( (t1 - t0) / 1000000 ))ms"
  cd - > /dev/null
done
