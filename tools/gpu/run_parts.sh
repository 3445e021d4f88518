#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU machine: several of the issue benchmarks from one staged build in one
# command, each part bounded in time, everything packed into $OUT/PARTS.tgz
# (the device tool brings back a few files only, so one archive holds them).
#   tools/gpu/stage.sh BUILD; PARTS="checks faceloop wave" tools/gpu/run_parts.sh
# Parts (each a folder in the archive, with its command line in cmd.txt):
#   checks    tools/gpu/run_checks.sh (CHECKS, CHECK_SECONDS as there)
#   faceloop  hyb_faceloop_devcheck --large, traced (issue 24's 10^6-face rows)
#   wave      WORKLOADS=wave tools/bench/run_stencil_zfp_bench.sh (issue 22)
#   fidelity  the same with MODES=fidelity only (the seed's error check, 384 steps)
#   ooc       tools/bench/run_stencil_ooc_bench.sh, traced (issue 21; SETS, SWEEP as there)
#   knapsack  tools/bench/run_knapsack_bench.sh with KNAPSACK_* as there (issue 23)
#   never     tools/bench/run_never_slower.sh (issue 25)
#   spmvcalls tools/bench/run_spmv_calls_bench.sh (issue 25's call counts)
#   resident  tools/bench/run_spmv_resident_stages.sh (STAGINGS, THREADS, CALLS as there)
# Environment: STAGE (default .stage), PART_SECONDS (each part's bound, default 280),
# TOTAL_SECONDS (all parts together, default 570: a part gets at most what is left, so that
# the archive is written inside the device tool's 600 s), OUT (default /tmp/out).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. tools/gpu/setup-env.sh
export STAGE=${STAGE:-$PWD/.stage}
export LD_LIBRARY_PATH=$STAGE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export HYBLAS_DEVICE=${HYBLAS_DEVICE:-cuda}
W=$(mktemp -d)
LIMIT=${PART_SECONDS:-280}
END=$(( $(date +%s) + ${TOTAL_SECONDS:-570} ))
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "$(nproc) cores, $(free -g | awk '/^Mem/ {print $2}') GiB, $(date -u '+%F %T') UTC"
  echo "build: $(cat "$STAGE/REVISION" 2>/dev/null)"; } > "$W/machine.txt" 2>&1
part() { # name, command...: runs in its own folder under the archive, bounded
    local name=$1; shift
    mkdir -p "$W/$name"
    echo "$*" > "$W/$name/cmd.txt"
    local t0=$(date +%s)
    local bound=$(( END - t0 < LIMIT ? END - t0 : LIMIT ))
    [ "$bound" -gt 0 ] || { echo "$name not run: no time left" | tee -a "$W/parts.txt"; return; }
    OUT=$W/$name timeout "$bound" "$@" > "$W/$name/stdout.txt" 2> "$W/$name/stderr.txt"
    echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$W/parts.txt"
}
for p in ${PARTS:-checks}; do
    case $p in
        checks) part checks tools/gpu/run_checks.sh ;;
        faceloop) HYBLAS_TRACE=$W/faceloop/trace.txt part faceloop "$STAGE/hyb_faceloop_devcheck" --large ;;
        wave) HYBLAS_TRACE=$W/wave/trace.txt WORKLOADS=wave part wave tools/bench/run_stencil_zfp_bench.sh ;;
        fidelity) MODES=fidelity WORKLOADS=wave part fidelity tools/bench/run_stencil_zfp_bench.sh ;;
        ooc) HYBLAS_TRACE=$W/ooc/trace.txt part ooc tools/bench/run_stencil_ooc_bench.sh "$STAGE" ;;
        knapsack) part knapsack tools/bench/run_knapsack_bench.sh ;;
        never) part never tools/bench/run_never_slower.sh ;;
        spmvcalls) part spmvcalls tools/bench/run_spmv_calls_bench.sh ;;
        resident) part resident tools/bench/run_spmv_resident_stages.sh ;;
        *) echo "unknown part $p" | tee -a "$W/parts.txt" ;;
    esac
done
tar czf "$OUT/PARTS.tgz" -C "$W" .
cat "$W/parts.txt"
