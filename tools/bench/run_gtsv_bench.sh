#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The tridiagonal benchmark of issue 5, one run on the GPU machine (about 4-5 minutes):
# LAPACK's dgtsv_/sgtsv_, the serial Thomas algorithm, hyblas's CPU SPIKE (check + solve +
# factors), the GPU SPIKE streamed from host memory, hyblas through dgtsv_ under
# LD_PRELOAD (CPU alone, GPU alone, forced CPU/GPU shares, the model's shares, each staged
# through pinned buffers and from registered pages, and auto), and
# tools/gpu_check_gtsv (device-resident GPU SPIKE against cusparse?gtsv2_nopivot). Every
# result is checked. Writes $OUT/gtsv.csv, the traces, the learned rates and the GPU check's
# output, and prints the report (tools/bench/gtsv_report.py) with the issue's targets.
#   . tools/gpu/setup-env.sh; tools/gpu/stage.sh (on the build machine, before)
#   tools/bench/run_gtsv_bench.sh            GPU machine, binaries in .stage/
#   tools/bench/run_gtsv_bench.sh --quick    anywhere: tiny sizes on the simulated device
# Environment: OUT (default /tmp/out), STAGE (default .stage), LOG2N_TARGET (report).
set -u -o pipefail
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ $QUICK = 1 ]; then
    SPEC=$HERE/gtsv_sweep_quick.txt SPLIT=$HERE/gtsv_split_quick.txt DEV=sim TARGET=${LOG2N_TARGET:-17}
    export HYBLAS_SIM_MEM=${HYBLAS_SIM_MEM:-16M}   # several chunks even at these sizes
else
    SPEC=$HERE/gtsv_sweep.txt SPLIT=$HERE/gtsv_split.txt DEV=cuda TARGET=${LOG2N_TARGET:-27}
fi
# GTSV_SPEC / GTSV_SPLIT_SPEC: other system lists (a focused run, e.g. gtsv_split.txt for both).
SPEC=${GTSV_SPEC:-$SPEC} SPLIT=${GTSV_SPLIT_SPEC:-$SPLIT}
CSV=$OUT/gtsv.csv
ERR=$OUT/gtsv.err
: > "$ERR"
# The rates the heterogeneous split learns in this run (fresh: nothing from earlier runs) sit
# next to a copy of the machine profile (hyblas-calibrate's, if there is one).
MACHINE_PROFILE=${HYBLAS_PROFILE:-${XDG_CACHE_HOME:-$HOME/.cache}/hyblas/profile}
if [ -r "$MACHINE_PROFILE" ]; then cp -f "$MACHINE_PROFILE" "$OUT/profile"; else echo "# no calibration: built-in defaults" > "$OUT/profile"; fi
export HYBLAS_PROFILE=$OUT/profile
rm -f "$OUT/profile.learn"
export HYBLAS_LOG_LEVEL=1

LAPACK_LIB=$(ldd "$S/hyb_bench_gtsv" 2>/dev/null | awk '/liblapack/ {print $3}' | head -1)
LAPACK_REAL=$(readlink -f "$LAPACK_LIB" 2>/dev/null)
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
{
  echo "# machine: ${GPU:-no GPU ($DEV device)}; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')); $(date -u +%F)"
  echo "# lapack: ${LAPACK_REAL:-?}; hyblas $(cat "$S/REVISION" 2>/dev/null || git -C "$HERE" rev-parse --short HEAD 2>/dev/null); OMP_NUM_THREADS=${OMP_NUM_THREADS:-default}; quick=$QUICK"
  echo "label,prec,n,nrhs,kind,dom,reps,seconds,mrows,berr,ok"
} > "$CSV"

T0=$(date +%s)
DEADLINE=${GTSV_BENCH_SECONDS:-340}   # the whole run stays under 6 minutes
# left: seconds of the budget that remain.
left() { echo $(( DEADLINE - ( $(date +%s) - T0 ) )); }
# run LABEL SPEC TIMEOUT [VAR=VALUE ...]: one process of the benchmark program, cut short
# when the budget runs out (the report then shows what is missing).
run() {
    local label=$1 spec=$2 limit=$3
    shift 3
    local l=$(left)
    [ "$l" -lt "$limit" ] && limit=$l
    if [ "$limit" -lt 10 ]; then
        echo "# $label: skipped (time budget spent)" >> "$CSV"
        echo "  $label: skipped (time budget spent)" >&2
        return
    fi
    local t=$(date +%s)
    env "$@" timeout "$limit" "$S/hyb_bench_gtsv" "$label" "$spec" >> "$CSV" 2>> "$ERR"
    local rc=$?
    [ $rc = 0 ] || echo "# $label: exit status $rc" >> "$CSV"
    echo "  $label: $(( $(date +%s) - t )) s (rc $rc)" >&2
}

echo "gtsv benchmark: $SPEC, device $DEV, output $OUT" >&2
# Most important first: the device-resident comparison with cuSPARSE (target 3), LAPACK
# (the reference of targets 1 and 4), hyblas's configurations (targets 1 and 2); then the
# kernels called directly and the serial baseline.
if [ $QUICK = 1 ]; then
    echo "# gpu_check_gtsv not run (--quick)" > "$OUT/gpu_check_gtsv.txt"
elif [ -x "$S/gpu_check_gtsv" ]; then
    t=$(date +%s)
    timeout $(( DEADLINE / 3 < 150 ? DEADLINE / 3 : 150 )) "$S/gpu_check_gtsv" > "$OUT/gpu_check_gtsv.txt" 2>&1
    echo "# gpu_check_gtsv exit status $?" >> "$OUT/gpu_check_gtsv.txt"
    echo "  gpu_check_gtsv: $(( $(date +%s) - t )) s" >&2
else
    echo "# gpu_check_gtsv not staged" > "$OUT/gpu_check_gtsv.txt"
fi
run lapack "$SPEC" 120
# hyblas through dgtsv_/sgtsv_ as an application calls them. The forced configurations run
# first: their measured rates go into $OUT/profile.learn (the learning store), which the model's shares and auto
# then use (the seed's profiled, refined throughput).
HYB="LD_PRELOAD=$S/libhyblas.so HYBLAS_DEVICE=$DEV"
run hyblas-cpu "$SPEC" 60 $HYB HYBLAS_MODE=cpu HYBLAS_TRACE=$OUT/trace_hyblas-cpu.txt
run hyblas-gpu "$SPEC" 60 $HYB HYBLAS_MODE=gpu HYBLAS_STAGING=copy HYBLAS_CPU_RATIO=0 HYBLAS_TRACE=$OUT/trace_hyblas-gpu.txt
for r in 0.7 0.5 0.3; do
    run hyblas-split$r "$SPLIT" 40 $HYB HYBLAS_MODE=gpu HYBLAS_STAGING=copy HYBLAS_CPU_RATIO=$r HYBLAS_TRACE=$OUT/trace_hyblas-split$r.txt
done
run hyblas-split "$SPLIT" 40 $HYB HYBLAS_MODE=gpu HYBLAS_STAGING=copy HYBLAS_TRACE=$OUT/trace_hyblas-split.txt
# The device reading the application's registered pages (no staging copy in, pivots from the
# device): alone, forced shares, the model's shares.
REG="$HYB HYBLAS_MODE=gpu HYBLAS_STAGING=register"
run hyblas-rgpu "$SPLIT" 40 $REG HYBLAS_CPU_RATIO=0 HYBLAS_TRACE=$OUT/trace_hyblas-rgpu.txt
for r in 0.7 0.6 0.5; do
    run hyblas-rsplit$r "$SPLIT" 40 $REG HYBLAS_CPU_RATIO=$r HYBLAS_TRACE=$OUT/trace_hyblas-rsplit$r.txt
done
run hyblas-rsplit "$SPLIT" 40 $REG HYBLAS_TRACE=$OUT/trace_hyblas-rsplit.txt
run hyblas-auto "$SPEC" 60 $HYB HYBLAS_MODE=auto HYBLAS_TRACE=$OUT/trace_hyblas-auto.txt
cp -f "$OUT/profile.learn" "$OUT/profile.learn.final" 2>/dev/null
# hyblas's kernels called directly (no preload), and the serial baseline.
run spike "$SPEC" 40
run gpu-stream "$SPLIT" 40 HYBLAS_DEVICE=$DEV
run thomas "$SPEC" 120
echo "total $(( $(date +%s) - T0 )) s" >&2

python3 "$HERE/gtsv_report.py" --target-log2n "$TARGET" "$CSV" "$OUT/gpu_check_gtsv.txt" | tee "$OUT/gtsv_report.md"
