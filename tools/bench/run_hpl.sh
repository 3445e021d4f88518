#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HPL from Debian's hpcc package, unmodified, one MPI process, under the CPU
# library alone, NVBLAS and hyblas (LD_PRELOAD), in one run. hpcc calls
# cblas_dgemm/cblas_dtrsm (NVBLAS intercepts only Fortran names). Prints
# label, N, NB, ranks, HPL GFLOP/s, residual check, wall seconds of the whole hpcc.
#   tools/bench/run_hpl.sh "LABEL:N:NB[:RANKS] ..."   (LABEL: cpu, nvblas, hyblas)
# RANKS > 1: mpirun starts that many processes on a 1 x RANKS grid, the cores
# shared out among them; under hyblas each takes the GPU of its local rank.
# HPL_TIMEOUT (default 1200) bounds each hpcc run in seconds; HPL_TRACE=1
# writes hyblas's trace of each call beside the run's output (trace.txt).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
. "$(dirname "$0")/bench_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
echo "label,N,NB,ranks,hpl_gflops,residual,hpcc_wall"
for cfg in $1; do
  IFS=: read label N NB NP <<< "$cfg"
  NP=${NP:-1}
  d=$OUT/hpl_${label}_$N; [ "$NP" -gt 1 ] && d=${d}_np$NP
  mkdir -p $d; cd $d; rm -f hpccoutf.txt   # hpcc appends to it
  sh "$HERE/../hpccinf.sh" "$N" "$NB" 1200 40 1 "$NP" > hpccinf.txt   # PTRANS small: HPL is timed
  case $label in
    cpu) lib=() ;;
    nvblas) lib=(NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB) ;;
    hyblas*) lib=(HYBLAS_REPORT=1 OPENBLAS_THREAD_TIMEOUT=${OPENBLAS_THREAD_TIMEOUT:-4} LD_PRELOAD=$S/libhyblas.so)
             [ "${HPL_TRACE:-0}" = 1 ] && lib+=(HYBLAS_TRACE=$d/trace.txt) ;;
  esac
  launch=()
  if [ "$NP" -gt 1 ]; then
    t=$(( $(nproc) / NP ))
    launch=(mpirun -np "$NP" --bind-to none)
    lib+=(OMP_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t)
  fi
  t0=$(date +%s%N)
  timeout ${HPL_TIMEOUT:-1200} "${launch[@]}" env "${lib[@]}" hpcc > hpcc.log 2>&1
  t1=$(date +%s%N)
  gf=$(awk -F= '/^HPL_Tflops=/{printf "%.1f", $2*1000}' hpccoutf.txt)
  res=$(grep -m1 -oE 'PASSED|FAILED' hpccoutf.txt)
  echo "$label,$N,$NB,$NP,${gf:-?},${res:-?},$(( (t1 - t0) / 1000000 ))ms"
  cd - > /dev/null
done
