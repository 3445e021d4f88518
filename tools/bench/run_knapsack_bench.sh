#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The knapsack benchmark of issue 23, one run on the GPU machine (builds nothing): runs
# gpu_check_knapsack, which checks every CUDA launcher against the simulated one and every
# method's optimum against the DP, times the kernels, solves the seed's set (n = 100..1000)
# and a large-capacity instance with O3S, BFS, in core, the CPU B&B and both DPs, then runs
# every GPU method through the public API on the CUDA device runtime. Writes
# $OUT/knapsack.csv (one row per instance and method), $OUT/gpu_check_knapsack.txt (the
# tables) and prints a per-size summary of the CSV (median seconds, solved counts).
#   tools/bench/run_knapsack_bench.sh              binary in $STAGE (default .stage) or build/
#   tools/bench/run_knapsack_bench.sh --quick      the check's quick mode (a minute)
# Environment: OUT (default /tmp/out), STAGE, KNAPSACK_PER_SIZE (instances a size, default 1),
# KNAPSACK_TIME_LIMIT (seconds a method and instance, default 60), KNAPSACK_BENCH_SECONDS
# (the whole run, default 540), KNAPSACK_ARGS (more arguments of the check: e.g. the
# peak-storage run "--sizes 700 800 --methods gpu_o3s,gpu_incore" with a long
# KNAPSACK_TIME_LIMIT, or "--auto-set --methods none" for AUTO against every method).
# Exit: the check's status (77: no device).
set -u -o pipefail
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
BIN=$S/gpu_check_knapsack
[ -x "$BIN" ] || BIN=$PWD/build/gpu_check_knapsack
if [ ! -x "$BIN" ]; then
    echo "run_knapsack_bench: no gpu_check_knapsack in $S or build/ (build it first)" >&2
    exit 1
fi
# The check's last part calls the public API through the library's device runtime, which
# loads the CUDA plugin beside the binary; a staged binary without one uses build/'s.
if [ -z "${HYBLAS_PLUGIN:-}" ] && [ ! -r "$(dirname "$BIN")/libhyblas_cuda.so" ] &&
   [ -r "$PWD/build/libhyblas_cuda.so" ]; then
    export HYBLAS_PLUGIN=$PWD/build/libhyblas_cuda.so
fi
CSV=$OUT/knapsack.csv
TXT=$OUT/gpu_check_knapsack.txt
if [ $QUICK = 1 ]; then
    ARGS=(--quick --csv "$CSV")
else
    ARGS=(--csv "$CSV" --per-size "${KNAPSACK_PER_SIZE:-1}" --time-limit "${KNAPSACK_TIME_LIMIT:-60}")
fi
# shellcheck disable=SC2206
[ -n "${KNAPSACK_ARGS:-}" ] && ARGS+=(${KNAPSACK_ARGS})
echo "knapsack benchmark: $BIN ${ARGS[*]}, output $OUT" >&2
timeout "${KNAPSACK_BENCH_SECONDS:-540}" "$BIN" "${ARGS[@]}" > "$TXT" 2>&1
rc=$?
tail -n 3 "$TXT" >&2
[ $rc = 77 ] && exit 77
[ -r "$CSV" ] || exit $rc
# The summary: per method and size, how many solved (ok = 1) and their median seconds.
awk -F, '
    /^#/ || $1 == "instance" { next }
    { key = $4 "," $2; cnt[key]++; if ($9 == 1) { ok[key]++; t[key, ok[key]] = $10 } }
    END {
        printf "%-14s %6s %7s %12s\n", "method", "n", "solved", "median_s"
        for (key in cnt) {
            m = ok[key] + 0
            for (i = 1; i <= m; i++) a[i] = t[key, i]
            for (i = 2; i <= m; i++) { v = a[i]; j = i - 1; while (j > 0 && a[j] > v) { a[j + 1] = a[j]; j-- } a[j + 1] = v }
            med = m ? a[int((m + 1) / 2)] : -1
            split(key, k, ",")
            printf "%-14s %6d %3d/%-3d %12.4f\n", k[1], k[2], m, cnt[key], med
        }
    }' "$CSV" | { IFS= read -r h; echo "$h"; sort -k1,1 -k2,2n; } | tee "$OUT/knapsack_summary.txt"
exit $rc
