#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The "never slower" benchmark: per case of the three families hyblas replaces (dgemm, the
# MKL sparse product, dgtsv), hyblas auto against the real library and against the best
# forced path, as ratios measured in one run. Builds nothing: it runs the staged benchmark
# programs (hyb_bench_gemm, hyb_bench_spmv, hyb_bench_gtsv, libhyblas.so, hyblas-run).
# Writes $OUT/never_slower_{gemm,spmv,gtsv}.csv and $OUT/never_slower.md, prints the table.
#   tools/bench/run_never_slower.sh            GPU machine (exit 77 without a CUDA device)
#   tools/bench/run_never_slower.sh --quick    anywhere: small sizes on the simulated device
# Environment: STAGE (the programs; default .stage), OUT (default /tmp/out), MKL_LIB (Intel
# MKL's libmkl_rt.so.2, default build/mkl-venv/lib's if there: the sparse product's real
# library is then MKL's own routine, else hyblas's CPU kernel stands for it),
# NEVER_SLOWER_SECONDS (bound on each family's run; default 180). On the GPU machine the
# exit status is 1 when auto is slower than the better of the real library and the best
# forced path anywhere (by more than 5 %); --quick judges only correctness and completeness
# (the simulated device's times say nothing of a real one).
set -u -o pipefail
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
HERE=$(cd "$(dirname "$0")" && pwd)
S=${STAGE:-$PWD/.stage}
OUT=${OUT:-/tmp/out}
LIMIT=${NEVER_SLOWER_SECONDS:-180}
mkdir -p "$OUT"
for f in hyb_bench_gemm hyb_bench_spmv hyb_bench_gtsv libhyblas.so hyblas-run; do
    if [ ! -e "$S/$f" ]; then
        echo "run_never_slower.sh: $S/$f not found (build, then tools/gpu/stage.sh, or set STAGE)" >&2
        exit 2
    fi
done
if [ $QUICK = 1 ]; then
    DEV=sim STRICT=
    GEMM_SPEC=$HERE/never_slower_gemm_quick.txt GTSV_SPEC=$HERE/never_slower_gtsv_quick.txt
    SPMV_ARGS="--quick --calls 4 --sweep 0 --prec d"
    SPMV_MATRICES="pwtk"
    export HYBLAS_SIM_MEM=${HYBLAS_SIM_MEM:-64M}
else
    if ! [ -c /dev/nvidia0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
        echo "run_never_slower.sh: no CUDA device (use --quick for the simulated device)" >&2
        exit 77
    fi
    DEV=cuda STRICT=--strict
    GEMM_SPEC=$HERE/never_slower_gemm.txt GTSV_SPEC=$HERE/never_slower_gtsv.txt
    SPMV_ARGS="--calls 30 --sweep 0 --prec d"
    SPMV_MATRICES="stencil27 pwtk scircuit"
fi
export HYBLAS_DEVICE=$DEV HYBLAS_LOG_LEVEL=${HYBLAS_LOG_LEVEL:-1}
# The benchmark's own OpenMP threads must not spin beside the library's kernels.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
# A fresh learning store: what auto knows it learns in this run (the machine profile that
# hyblas-calibrate wrote, if any, is copied in as the starting point).
MACHINE_PROFILE=${HYBLAS_PROFILE:-${XDG_CACHE_HOME:-$HOME/.cache}/hyblas/profile}
if [ -r "$MACHINE_PROFILE" ]; then cp -f "$MACHINE_PROFILE" "$OUT/never_slower_profile"
else echo "# no calibration: built-in defaults" > "$OUT/never_slower_profile"; fi
rm -f "$OUT"/never_slower_profile.*
export HYBLAS_PROFILE=$OUT/never_slower_profile
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
HEAD="# machine: ${GPU:-no GPU ($DEV device)}; $(nproc) cores; $(date -u +%F); hyblas $(cat "$S/REVISION" 2>/dev/null || git -C "$HERE" rev-parse --short HEAD 2>/dev/null); quick=$QUICK"
ERR=$OUT/never_slower.err
: > "$ERR"
fail=0
# step NAME CMD...: one program, bounded in time; its failure is reported and counted.
step() {
    local name=$1
    shift
    local t=$(date +%s)
    timeout "$LIMIT" "$@" 2>> "$ERR"
    local rc=$?
    echo "  $name: $(( $(date +%s) - t )) s (rc $rc)" >&2
    [ $rc = 0 ] || { echo "run_never_slower.sh: $name exited with $rc (see $ERR)" >&2; fail=1; }
}

echo "never slower: device $DEV, output $OUT" >&2
# Level 3: the CPU library alone, then hyblas auto (dgemm_), forced device (cblas_dgemm) and
# forced CPU (scipy_dgemm_) in turns in one process on the same data, started by hyblas-run
# as a user starts a program.
{ echo "$HEAD"; echo "label,prec,shape,m,n,k,beta,seconds,tflops,relerr,ok"; } > "$OUT/never_slower_gemm.csv"
step "dgemm, real library" "$S/hyb_bench_gemm" real "$GEMM_SPEC" >> "$OUT/never_slower_gemm.csv"
HYBLAS_ROUTINE_MODE=cblas_dgemm=gpu,scipy_dgemm_=cpu \
    step "dgemm, hyblas" "$S/hyblas-run" --no-report --trace "$OUT/never_slower_trace_gemm.txt" -- \
    "$S/hyb_bench_gemm" hyblas-pair "$GEMM_SPEC" >> "$OUT/never_slower_gemm.csv"
# Sparse: the first call and the steady state, auto against the CPU alone and the device
# alone (interleaved call by call), per matrix; the program's own rows name the paths.
echo "$HEAD" > "$OUT/never_slower_spmv.csv"
MKL_LIB=${MKL_LIB:-$(ls "$HERE"/../../build/mkl-venv/lib/libmkl_rt.so.2 2>/dev/null | head -1)}
MKL_ARGS=
if [ -n "$MKL_LIB" ] && [ -e "$MKL_LIB" ]; then
    MKL_ARGS="--mkl $MKL_LIB"
    # MKL's threads on the GNU OpenMP runtime, the one hyblas's kernels use
    export MKL_THREADING_LAYER=${MKL_THREADING_LAYER:-GNU}
    export LD_LIBRARY_PATH="$(dirname "$MKL_LIB")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "# sparse real library: $MKL_LIB" >> "$OUT/never_slower_spmv.csv"
else
    echo "# sparse real library: no MKL (MKL_LIB); hyblas's CPU kernel stands for it" >> "$OUT/never_slower_spmv.csv"
fi
for mat in $SPMV_MATRICES; do
    # shellcheck disable=SC2086 # the argument lists are meant to split
    step "sparse, $mat" "$S/hyb_bench_spmv" $SPMV_ARGS $MKL_ARGS --only "$mat" >> "$OUT/never_slower_spmv.csv"
done
# Tridiagonal: LAPACK without hyblas, then hyblas forced to each path, then auto (after the
# forced runs, whose measured rates auto's choice may use, as in an ordinary process's life).
{ echo "$HEAD"; echo "label,prec,n,nrhs,kind,dom,reps,seconds,mrows,berr,ok"; } > "$OUT/never_slower_gtsv.csv"
step "dgtsv, LAPACK" "$S/hyb_bench_gtsv" lapack "$GTSV_SPEC" >> "$OUT/never_slower_gtsv.csv"
for mode in cpu gpu auto; do
    LD_PRELOAD=$S/libhyblas.so HYBLAS_MODE=$mode HYBLAS_TRACE=$OUT/never_slower_trace_gtsv_$mode.txt \
        step "dgtsv, hyblas $mode" "$S/hyb_bench_gtsv" hyblas-$mode "$GTSV_SPEC" >> "$OUT/never_slower_gtsv.csv"
done

python3 "$HERE/never_slower_report.py" $STRICT "$OUT/never_slower_gemm.csv" "$OUT/never_slower_spmv.csv" \
    "$OUT/never_slower_gtsv.csv" > "$OUT/never_slower.md"
rc=$?
cat "$OUT/never_slower.md"
[ $rc = 0 ] || fail=1
exit $fail
