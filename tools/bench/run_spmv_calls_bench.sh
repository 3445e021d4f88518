#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The "never slower" sparse benchmark of issue 25 on the GPU machine (about 2-4 minutes):
# the 27-point stencil (8 M rows) called 1, 2, 5, 10, 30, 100 and 1000 times from a fresh
# state, auto against the CPU alone and the device alone, and the resident call against the
# measured x+y bus bound, double and single. Writes $OUT/spmv_calls.csv and prints it.
# Builds nothing: it runs the staged binary (build, then tools/gpu/stage.sh).
#   tools/bench/run_spmv_calls_bench.sh [--quick]
# --quick: small matrices on the simulated device, the stencil and the ten seed-like ones (a
# functional check; runs anywhere).
# SPMV_CALLS_ARGS: more arguments of hyb_bench_spmv_calls (e.g. "--prec d --max-calls 100",
# "--matrix all" for the ten seed-like matrices beside the stencil).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
ARGS=${SPMV_CALLS_ARGS:-}
if [ "${1:-}" = "--quick" ]; then
    ARGS="--quick --matrix all"
    export HYBLAS_DEVICE=sim
fi
BIN=$S/hyb_bench_spmv_calls
if [ ! -x "$BIN" ]; then
    echo "run_spmv_calls_bench.sh: $BIN not found (build, then tools/gpu/stage.sh)" >&2
    exit 2
fi
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
timeout "${SPMV_CALLS_SECONDS:-540}" "$BIN" $ARGS > "$OUT/spmv_calls.csv" 2> "$OUT/spmv_calls.err"
rc=$?
cat "$OUT/spmv_calls.csv"
tail -5 "$OUT/spmv_calls.err" >&2
exit $rc
