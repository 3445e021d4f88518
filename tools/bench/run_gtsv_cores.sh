#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Tridiagonal "never slower" sweep (issue 25 item 4): dgtsv_ (or sgtsv_) through hyblas in
# auto mode against the real LAPACK, in the same run, for every core count (taskset) and
# n = 2^LOG2N_MIN .. 2^LOG2N_MAX; prints one ratio per case (hyblas / LAPACK, medians of
# the repetitions; above 1.05 is marked). Each core count starts from an empty learned
# profile, so the learning calls (LAPACK first, the CPU SPIKE once) are inside the run.
#   tools/bench/run_gtsv_cores.sh [BUILD_DIR]      (default: build)
# Environment: CORES (core lists separated by spaces, default "0 0,1 ... 0..nproc-1"),
#   LOG2N_MIN (13), LOG2N_MAX (22), PREC (d), REPS (21), ROUNDS (2: LAPACK and hyblas
#   alternate, the faster median of the rounds counts for each), OUT (a temporary folder).
set -u -o pipefail
B=$(cd "${1:-build}" && pwd)
BENCH=$B/hyb_bench_gtsv
LIB=$B/libhyblas.so
[ -x "$BENCH" ] && [ -r "$LIB" ] || { echo "no $BENCH or $LIB: build first" >&2; exit 2; }
command -v taskset > /dev/null || { echo "taskset is missing" >&2; exit 2; }
LMIN=${LOG2N_MIN:-13} LMAX=${LOG2N_MAX:-22} PREC=${PREC:-d} REPS=${REPS:-21} ROUNDS=${ROUNDS:-2}
OUT=${OUT:-$(mktemp -d /tmp/hyb_gtsv_cores.XXXXXX)}
mkdir -p "$OUT"
if [ -z "${CORES:-}" ]; then
    CORES="" list=""
    for ((c = 0; c < $(nproc); c++)); do list=${list:+$list,}$c; CORES="$CORES $list"; done
fi
SPEC=$OUT/spec.txt
: > "$SPEC"
for ((l = LMIN; l <= LMAX; l++)); do echo "$PREC $l 1 c 3 $REPS" >> "$SPEC"; done
unset HYBLAS_MODE
export HYBLAS_LOG_LEVEL=0

# one LABEL CPUS PRELOAD: the sweep in one process; CSV rows on stdout.
one() {
    if [ "$3" = 1 ]; then
        LD_PRELOAD=$LIB taskset -c "$2" "$BENCH" "$1" "$SPEC"
    else
        taskset -c "$2" "$BENCH" "$1" "$SPEC"
    fi | grep -v '^#'
}

echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(nproc) cores; $(date -u '+%F %H:%M') UTC; hyblas $(cat "$B/REVISION" 2>/dev/null || git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)"
printf "%-8s %6s %12s %12s %7s\n" cores log2n lapack_ms hyblas_ms ratio
worst=0
for cpus in $CORES; do
    export HYBLAS_PROFILE=$OUT/profile.$cpus
    rm -f "$HYBLAS_PROFILE" "$HYBLAS_PROFILE.learn"
    : > "$OUT/lapack.$cpus.csv"
    : > "$OUT/hyblas.$cpus.csv"
    for ((r = 0; r < ROUNDS; r++)); do
        one lapack "$cpus" 0 >> "$OUT/lapack.$cpus.csv"
        one hyblas-auto "$cpus" 1 >> "$OUT/hyblas.$cpus.csv"
    done
    # the faster median of the rounds per n, then the ratio
    res=$(awk -F, -v cpus="$cpus" '
        FNR == 1 { f++ }
        $1 != "" && $3 ~ /^[0-9]+$/ {
            if ($11 != "ok") bad[$3] = 1
            if (!(($3, f) in best) || $8 < best[$3, f]) best[$3, f] = $8
            ns[$3] = 1
        }
        END {
            w = 0
            for (n in ns) {
                l = best[n, 1]; h = best[n, 2]
                lg = 0; for (m = n; m > 1; m /= 2) lg++
                ratio = h / l
                printf "%-8s %6d %12.4f %12.4f %7.3f%s\n", cpus, lg, l * 1e3, h * 1e3, ratio, (ratio > 1.05 ? "  SLOWER" : "") (bad[n] ? "  FAILED" : "")
                if (ratio > w) w = ratio
            }
            printf "worst %.3f\n", w
        }' "$OUT/lapack.$cpus.csv" "$OUT/hyblas.$cpus.csv")
    echo "$res" | grep -v '^worst' | sort -k2,2n
    w=$(echo "$res" | awk '/^worst/ {print $2}')
    worst=$(awk -v a="$worst" -v b="$w" 'BEGIN { print (b > a ? b : a) }')
    cp -f "$HYBLAS_PROFILE.learn" "$OUT/learned.$cpus.learn" 2> /dev/null
done
echo "# worst ratio $worst (target: at most 1.05); CSV and learned rates in $OUT"
awk -v w="$worst" 'BEGIN { exit !(w <= 1.05) }'
