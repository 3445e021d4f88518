#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A/B of the level-3 copy teams spinning through a device call (HYBLAS_TEAM_SPIN=1, the
# default) against sleeping between copies (0, the behaviour before), one run on the GPU
# machine: NVBLAS once, then hyblas auto and forced device (hyblas-pair), the two settings
# alternated twice, on tools/bench/team_spin.txt; every result checked by the benchmark.
# Writes $OUT/gemm_spin.csv and prints, per case, each label's times in milliseconds.
#   tools/bench/run_team_spin_ab.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
SPEC=tools/bench/team_spin.txt
. "$(dirname "$0")/bench_env.sh"
export OMP_WAIT_POLICY=PASSIVE
gemm_csv_header > $OUT/gemm_spin.csv
[ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB \
    timeout 150 $S/hyb_bench_gemm nvblas $SPEC 2>/dev/null | grep -v '^\[NVBLAS\]' >> $OUT/gemm_spin.csv
for spin in 0 1 0 1; do
    HYBLAS_TEAM_SPIN=$spin HYBLAS_ROUTINE_MODE=cblas_dgemm=gpu LD_PRELOAD=$S/libhyblas.so \
        timeout 150 $S/hyb_bench_gemm hyblas-pair $SPEC | sed "s/^hyblas/spin$spin-hyblas/" >> $OUT/gemm_spin.csv
done
tail -n +4 $OUT/gemm_spin.csv | awk -F, '{k=$3" "$4"x"$5"x"$6" beta="$7" "$1; t[k]=t[k]" "sprintf("%.2f",$8*1e3)}
    END{for(k in t) print k":"t[k]}' | sort
