#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The stencil family's phase-A benchmark on the GPU machine: tools/gpu_check_stencil checks
# every stencil's CUDA launchers through every scheme's schedule against the CPU path, then
# times each kernel on a resident domain. Builds nothing. Writes $OUT/stencil_check.txt (the
# whole output) and $OUT/stencil_kernels.csv (one row per timed kernel: the rates the cost
# model's defaults in policies/stencil/hyb_stencil_defaults.h should be compared with), and
# prints the CSV as a table; then tools/gpu_check_stencil_api runs the device pipeline through
# the public API against the CPU path ($OUT/stencil_api_check.txt, $OUT/stencil_api_ooc.csv:
# n,T,cap,scheme,d,k,gpu_s,gpu_pred_s,cpu_s,cpu_pred_s; STENCIL_API_ARGS passes --n N
# --steps T --cap BYTES). Exit: 0 correct, 1 wrong, 77 no device.
#   tools/bench/run_stencil_bench.sh [path/to/gpu_check_stencil]
# Default binary: $STAGE/gpu_check_stencil if STAGE is set, else build-cuda/gpu_check_stencil.
# Environment: OUT (default /tmp/out).
set -u -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ -n "${STAGE:-}" ]; then DEFAULT_BIN=$STAGE/gpu_check_stencil; else DEFAULT_BIN=build-cuda/gpu_check_stencil; fi
BIN=${1:-$DEFAULT_BIN}
if [ ! -x "$BIN" ]; then
    echo "no $BIN: build it with a CUDA build (target gpu_check_stencil)" >&2
    exit 1
fi
LOG=$OUT/stencil_check.txt
CSV=$OUT/stencil_kernels.csv
"$BIN" > "$LOG" 2>&1
RC=$?
grep -E '^(device|FAIL|PASSED|FAILED|no CUDA)' "$LOG"
[ $RC = 77 ] && exit 77
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
{
    echo "# machine: ${GPU:-?}; $(date -u +%F); hyblas $(git rev-parse --short HEAD 2>/dev/null || echo ?); check rc=$RC"
    echo "kernel,prec,nx,ny,nz,ms_per_step,gpoints_per_s,gb_per_s,elements_per_point"
    # "time NAME P NX x NY x NZ: MS ms/step, G Gpoints/s, B GB/s at E elements/point"
    sed -n 's/^time \([^ ]*\) *\([sd]\) *\([0-9]*\) x *\([0-9]*\) x *\([0-9]*\): *\([0-9.]*\) ms\/step, *\([0-9.]*\) Gpoints\/s, *\([0-9.]*\) GB\/s at \([0-9.]*\) elements\/point$/\1,\2,\3,\4,\5,\6,\7,\8,\9/p' "$LOG"
} > "$CSV"
column -s, -t < <(grep -v '^#' "$CSV")
echo "check: $( [ $RC = 0 ] && echo correct || echo "FAILED (rc $RC, see $LOG)" ); CSV: $CSV"

# The device pipeline through the public API (libhyblas with its CUDA plugin): every stencil
# and scheme against the CPU path, then an out-of-core acoustic run under a device-memory cap
# of three quarters of its arrays, timed against the CPU.
API_BIN=$(dirname "$BIN")/gpu_check_stencil_api
API_LOG=$OUT/stencil_api_check.txt
if [ -x "$API_BIN" ]; then
    HYBLAS_DEVICE=${HYBLAS_DEVICE:-cuda} "$API_BIN" ${STENCIL_API_ARGS:-} > "$API_LOG" 2>&1
    ARC=$?
    grep -E '^(FAIL|PASSED|FAILED|no device)' "$API_LOG"
    grep -E '^ok   acoustic [0-9]+\^3|^  why' "$API_LOG"
    grep '^csv,' "$API_LOG" | sed 's/^csv,//' > "$OUT/stencil_api_ooc.csv"
    echo "api check: $( [ $ARC = 0 ] && echo correct || echo "rc $ARC, see $API_LOG" )"
    [ $RC = 0 ] && RC=$ARC
else
    echo "no $API_BIN: build target gpu_check_stencil_api" >&2
    RC=1
fi
exit $RC
