#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: HPL (hpcc) under the CPU library, NVBLAS and hyblas, gated
# (tools/bench/run_hpl.sh, HPL_GATED=1: the suites overlap, every HPL runs
# alone). At N above 16384 hpcc's RandomAccess takes minutes, so the whole run
# outlasts one 10-minute command: start it detached, then collect it.
#   tools/gpu/run_hpl.sh ["LABEL:N:NB ..."]          run in the foreground
#   tools/gpu/run_hpl.sh start ["LABEL:N:NB ..."]    detached (setsid) into $HPL_DIR
#   tools/gpu/run_hpl.sh collect SECONDS             wait up to SECONDS for it, copy to $OUT
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
W=${HPL_DIR:-/tmp/hplrun}
RUNS="cpu:23040:256 nvblas:23040:256,512 hyblas:23040:512,768"
case ${1:-} in
start)
  mkdir -p "$W"; rm -rf "${W:?}"/*
  HPL_DIR=$W OUT=$W setsid nohup "$0" "${2:-$RUNS}" > $W/run.log 2>&1 < /dev/null &
  exit 0 ;;
collect)
  end=$(( $(date +%s) + ${2:-560} ))
  while [ ! -f $W/done ] && [ $(date +%s) -lt $end ]; do sleep 2; done
  cp -r $W/. $OUT/; cat $W/run.log
  [ -f $W/done ] || echo "# still running"
  exit 0 ;;
esac
. tools/gpu/setup-env.sh
S=$PWD/.stage
[ -f ~/.cache/hyblas/profile ] || timeout 120 $S/hyblas-calibrate > $OUT/calibrate.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
HPL_GATED=${HPL_GATED:-1} HPL_TIMEOUT=${HPL_TIMEOUT:-1500} STAGE=$S \
    tools/bench/run_hpl.sh "${1:-$RUNS}" | tee $OUT/hpl.csv
for d in $OUT/hpl_*; do grep -h "report:" $d/hpcc.log | head -6; grep -h -E "^WR|^\|\|Ax" $d/hpccoutf.txt; done
cd $OUT && tar czf hpl_logs.tgz hpl_* && rm -rf hpl_*/
touch $OUT/done
