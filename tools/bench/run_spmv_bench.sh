#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The SpMV benchmark of issue 4, one run on the GPU machine (about 3-5 minutes): the ten
# seed-like matrices and the 27-point stencil (8 M rows), double and single, CPU only,
# GPU only, the seed's hybrid (model K and a sweep of K), the row split, hyblas auto and
# cuSPARSE CSR with everything on the device, first calls and steady state (mean of 100
# calls, a new x each), every result checked. Writes $OUT/spmv.csv, $OUT/spmv_rates.txt
# (the calibrated CPU rates), $OUT/spmv_report.md, and prints the report.
#   tools/bench/run_spmv_bench.sh [--quick]
# --quick: small matrices on the simulated device (a functional check; runs anywhere).
# SPMV_BENCH_SECONDS (default 340) bounds the run; the report shows what finished.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
SRC=${HYB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
QUICK=
if [ "${1:-}" = "--quick" ]; then
    QUICK=--quick
    export HYBLAS_DEVICE=sim
fi
BIN=$S/hyb_bench_spmv
if [ ! -x "$BIN" ]; then
    echo "run_spmv_bench.sh: $BIN not found (build, then tools/gpu/stage.sh)" >&2
    exit 2
fi
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
THP=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
MACHINE="${GPU:-no GPU (${HYBLAS_DEVICE:-cuda})}; $(nproc) cores; $(date -u +%F); THP: ${THP:-?}; hyblas $(cat "$S/REVISION" 2>/dev/null || (cd "$SRC" && git rev-parse --short HEAD 2>/dev/null))"
echo "# machine: $MACHINE" > "$OUT/spmv.csv"
# The benchmark's own OpenMP threads must not spin beside the library's kernels.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
rm -f "$OUT/spmv_trace.txt"   # the trace is appended to
# MKL_LIB (Intel MKL's libmkl_rt.so.2, default build/mkl-venv/lib's if there): MKL's own CSR
# product beside hyblas's CPU kernel (rows "mkl").
MKL_LIB=${MKL_LIB:-$(ls "$SRC"/build/mkl-venv/lib/libmkl_rt.so.2 2>/dev/null | head -1)}
MKL_ARGS=
if [ -n "$MKL_LIB" ] && [ -e "$MKL_LIB" ]; then
    MKL_ARGS="--mkl $MKL_LIB"
    export MKL_THREADING_LAYER=${MKL_THREADING_LAYER:-GNU}
    export LD_LIBRARY_PATH="$(dirname "$MKL_LIB")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
HYBLAS_TRACE=$OUT/spmv_trace.txt timeout "${SPMV_BENCH_SECONDS:-340}" "$BIN" $QUICK $MKL_ARGS --rates-out "$OUT/spmv_rates.txt" >> "$OUT/spmv.csv" 2> "$OUT/spmv.err"
rc=$?
[ $rc -eq 124 ] && echo "run_spmv_bench.sh: the benchmark ran out of time; the report shows what finished" >&2
tail -5 "$OUT/spmv.err" >&2
python3 "$SRC/tools/bench/spmv_report.py" "$OUT/spmv.csv" > "$OUT/spmv_report.md"
prc=$?
cat "$OUT/spmv_report.md"
[ $rc -ne 0 ] && exit $rc
exit $prc
