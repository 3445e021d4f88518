#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# HPL from Debian's hpcc package, unmodified, under the CPU library alone,
# NVBLAS and hyblas (LD_PRELOAD), in one run. hpcc calls cblas_dgemm/cblas_dtrsm
# (NVBLAS intercepts only Fortran names). Prints one line per HPL problem:
# label, N, NB, ranks, HPL GFLOP/s, residual check, HPL seconds, wall time of
# the whole hpcc (gated: from its resumption to its end).
#   tools/bench/run_hpl.sh "LABEL:N:NB[:RANKS] ..."   (LABEL: cpu, nvblas, hyblas, or
#   hyblas1gpu: hyblas with HYBLAS_GPUS=1, one GPU for the process)
# N and NB may be comma lists: one hpcc runs every pair (the rest of the suite
# is sized by the largest N). RANKS > 1: mpirun starts that many processes on a
# 1 x RANKS grid, the cores shared out among them; under hyblas each takes the
# GPU of its local rank.
# HPL_TIMEOUT (default 1200) bounds each hpcc run in seconds (gated: all of them); HPL_TRACE=1
# writes hyblas's trace of each call beside the run's output (trace.txt).
# HPL_GATED=1 (one process each): all configurations start at once, so the
# rest of the suite (RandomAccess alone takes minutes at large N, on one core)
# overlaps; each is stopped (SIGSTOP) when it reaches SingleFFT, the last part
# before HPL, and then they are resumed one at a time, in the order given, so
# that every HPL runs with the machine to itself. Only the HPL lines count. A
# process that got into HPL before it was held (small N) is labelled LABEL-late.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
. "$(dirname "$0")/bench_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
GATED=${HPL_GATED:-0}

# Working folder, input and environment of one configuration; sets d, lib, launch.
prepare() {
  local label=$1 N=$2 NB=$3 NP=$4
  d=$OUT/hpl_${label}_${N//,/-}; [ "$NP" -gt 1 ] && d=${d}_np$NP
  mkdir -p $d; rm -f $d/hpccoutf.txt   # hpcc appends to it
  sh "$HERE/../hpccinf.sh" "$N" "$NB" 1200 40 1 "$NP" > $d/hpccinf.txt   # PTRANS small: HPL is timed
  case $label in
    cpu) lib=() ;;
    nvblas) lib=(NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB) ;;
    hyblas*) lib=(HYBLAS_REPORT=1 OPENBLAS_THREAD_TIMEOUT=${OPENBLAS_THREAD_TIMEOUT:-18} LD_PRELOAD=$S/libhyblas.so)
             [ "$label" = hyblas1gpu ] && lib+=(HYBLAS_GPUS=1)
             [ "${HPL_TRACE:-0}" = 1 ] && lib+=(HYBLAS_TRACE=$d/trace.txt) ;;
  esac
  launch=()
  if [ "$NP" -gt 1 ]; then
    local t=$(( $(nproc) / NP ))
    launch=(mpirun -np "$NP" --bind-to none)
    lib+=(OMP_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t)
  fi
}

# One line per HPL problem of a finished run: its WR line and the residual after it.
report() {
  awk -v l=$1 -v np=$3 -v w=$4 '
    /^WR/ { n = $2; nb = $3; t = $6; gf = sprintf("%.1f", $7) }
    /PASSED|FAILED/ && n { r = ($0 ~ /PASSED/) ? "PASSED" : "FAILED"
                           print l "," n "," nb "," np "," gf "," r "," t "," w "ms"; n = "" }' \
    $2/hpccoutf.txt 2>/dev/null | grep . || echo "$1,?,?,$3,?,?,?,$4ms"
}

echo "label,N,NB,ranks,hpl_gflops,residual,hpl_s,hpcc_wall"
if [ "$GATED" != 1 ]; then
  for cfg in $1; do
    IFS=: read label N NB NP <<< "$cfg"; NP=${NP:-1}
    prepare $label $N $NB $NP
    t0=$(date +%s%N)
    (cd $d && timeout ${HPL_TIMEOUT:-1200} "${launch[@]}" env "${lib[@]}" hpcc > hpcc.log 2>&1)
    t1=$(date +%s%N)
    report $label $d $NP $(( (t1 - t0) / 1000000 ))
  done
  exit 0
fi

# Gated: start everything, stop each at SingleFFT, then HPL one at a time.
pids=() dirs=() labels=() t0=$(date +%s%N)
for cfg in $1; do
  IFS=: read label N NB NP <<< "$cfg"
  prepare $label $N $NB 1
  (cd $d && exec env "${lib[@]}" hpcc > hpcc.log 2>&1) &
  pids+=($!) dirs+=($d) labels+=($label)
done
deadline=$(( $(date +%s) + ${HPL_TIMEOUT:-1200} ))
gated=()
while [ ${#gated[@]} -lt ${#pids[@]} ] && [ $(date +%s) -lt $deadline ]; do
  for i in "${!pids[@]}"; do
    [ -n "${gated[$i]:-}" ] && continue
    if grep -qs "Begin of SingleFFT" ${dirs[$i]}/hpccoutf.txt; then
      kill -STOP ${pids[$i]} 2>/dev/null; gated[$i]=stopped
      echo "# ${labels[$i]}: suite done in $(( ($(date +%s%N) - t0) / 1000000 )) ms, held" >&2
      # At small N the last parts take less than a poll: a process already in HPL
      # when stopped ran it beside the others, and its lines say so.
      if grep -qs "Begin of HPL section" ${dirs[$i]}/hpccoutf.txt; then
        labels[$i]=${labels[$i]}-late
        echo "# ${labels[$i]}: reached HPL before it was held; its HPL did not run alone" >&2
      fi
    elif ! kill -0 ${pids[$i]} 2>/dev/null; then
      gated[$i]=exited
    fi
  done
  sleep 0.1
done
for i in "${!pids[@]}"; do
  if [ "${gated[$i]:-}" = stopped ]; then
    t1=$(date +%s%N)
    kill -CONT ${pids[$i]}
    while kill -0 ${pids[$i]} 2>/dev/null && [ $(date +%s) -lt $deadline ]; do sleep 0.1; done
    kill -0 ${pids[$i]} 2>/dev/null && kill -KILL ${pids[$i]}
    wait ${pids[$i]} 2>/dev/null
    report ${labels[$i]} ${dirs[$i]} 1 $(( ($(date +%s%N) - t1) / 1000000 ))
  else
    kill -KILL ${pids[$i]} 2>/dev/null; wait ${pids[$i]} 2>/dev/null
    report ${labels[$i]} ${dirs[$i]} 1 -1
  fi
done
