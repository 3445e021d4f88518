#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: the device runtime's and the extension families' GPU checks,
# each against its CPU reference, from one staged build; one line per
# program in $OUT/checks.txt (exit code 0 = correct, 77 = no device) and its
# full output beside it.
#   tools/gpu/stage.sh BUILD; tools/gpu/run_checks.sh   (STAGE, OUT, CHECK_SECONDS)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. tools/gpu/setup-env.sh
S=${STAGE:-$PWD/.stage}
T=${CHECK_SECONDS:-150}
# the programs linked against libhyblas find the staged one
export LD_LIBRARY_PATH=$S${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
check() {
    local name=$1; shift
    [ -x "$1" ] || { echo "$name missing ($1)" | tee -a "$OUT/checks.txt"; return; }
    local t0=$(date +%s)
    timeout "$T" "$@" > "$OUT/$name.txt" 2>&1
    echo "$name rc=$? $(( $(date +%s) - t0 )) s: $*" | tee -a "$OUT/checks.txt"
}
for c in ${CHECKS:-runtime zfp zfp_stage stencil stencil_api knapsack faceloop faceloop_api spmv gtsv}; do
    case $c in
        knapsack|faceloop) check "$c" "$S/gpu_check_$c" --quick ;;
        faceloop_api) check "$c" "$S/hyb_faceloop_devcheck" ;;
        *) check "$c" "$S/gpu_check_$c" ;;
    esac
done
