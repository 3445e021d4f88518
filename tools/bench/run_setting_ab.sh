#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A/B of one hyblas setting on the level-3 path, one run on the GPU machine: NVBLAS once,
# then hyblas auto and forced device (hyblas-pair) with VAR=0 and VAR=1 (or each of VALUES) alternated ROUNDS
# times (default 2; a process's first round tends to run slower), on SPEC; every result checked by the benchmark. Writes $OUT/ab_VAR.csv and a trace per
# setting ($OUT/trace_VAR0.txt, _VAR1.txt: per call the plan, prediction, load1/store2
# seconds), and prints, per case, each label's times in milliseconds. SKIP_NVBLAS=1 leaves
# NVBLAS out.
#   tools/bench/run_setting_ab.sh HYBLAS_HOST_BETA tools/bench/host_beta.txt
set -u
VAR=$1 SPEC=$2
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
. "$(dirname "$0")/bench_env.sh"
export OMP_WAIT_POLICY=PASSIVE
# MODES: the routine modes of the hyblas runs (default: auto through dgemm_, the device
# through cblas_dgemm; "dgemm_=cpu,cblas_dgemm=gpu" puts a CPU call before each device call).
MODES=${MODES:-cblas_dgemm=gpu,cblas_sgemm=gpu,cblas_zgemm=gpu}
CSV=$OUT/ab_$VAR.csv
gemm_csv_header > $CSV
[ -n "$NVLIB" ] && [ -z "${SKIP_NVBLAS:-}" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB \
    timeout 150 $S/hyb_bench_gemm nvblas $SPEC 2>/dev/null | grep -v '^\[NVBLAS\]' >> $CSV
# BASE: a folder with another build's libhyblas.so (and plugin), run as label "base" in
# each round before the two settings (an earlier commit, for a before/after in one run).
for v in $(for r in $(seq ${ROUNDS:-2}); do echo ${BASE:+b} ${VALUES:-0 1}; done); do
    if [ $v = b ]; then
        HYBLAS_ROUTINE_MODE=$MODES LD_PRELOAD=$BASE/libhyblas.so \
            timeout 150 $S/hyb_bench_gemm hyblas-pair $SPEC | sed "s/^hyblas/base-hyblas/" >> $CSV
        continue
    fi
    env $VAR=$v HYBLAS_TRACE=$OUT/trace_$VAR$v.txt HYBLAS_ROUTINE_MODE=$MODES \
        LD_PRELOAD=$S/libhyblas.so timeout 150 $S/hyb_bench_gemm hyblas-pair $SPEC |
        sed "s/^hyblas/v$v-hyblas/" >> $CSV
done
tail -n +4 $CSV | awk -F, '{k=$2" "$3" "$4"x"$5"x"$6" beta="$7" "$1; t[k]=t[k]" "sprintf("%.2f",$8*1e3)}
    END{for(k in t) print k":"t[k]}' | sort
