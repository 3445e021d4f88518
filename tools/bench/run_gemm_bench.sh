#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The GEMM benchmark of issue 3, one run on the GPU machine: the same
# ordinary program (hyb_bench_gemm, calling dgemm_ of the system BLAS) under
# the CPU library alone, NVBLAS (autopin, tile 2048, same CPU library),
# hyblas auto and hyblas forced GPU; every result checked. Writes
# $OUT/gemm.csv and prints the report table (tools/bench/gemm_report.py).
#   tools/bench/run_gemm_bench.sh [SPECFILE]
# PARTS (default "cpu nvblas hyblas") runs some of the three and appends to an existing
# $OUT/gemm.csv: the sweep fits the GPU machine's 10-minute commands as two, the CPU alone
# first and the rest on the same machine next with the first one's CSV put back.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=${STAGE:-$PWD/.stage}
SPEC=${1:-tools/bench/gemm_sweep.txt}
. "$(dirname "$0")/bench_env.sh"
PARTS=${PARTS:-cpu nvblas hyblas}
[ -s $OUT/gemm.csv ] || gemm_csv_header > $OUT/gemm.csv
# CPU alone: calls above 2.2e12 flops are skipped (minutes each; the device wins by 100x there).
case " $PARTS " in *" cpu "*) timeout 900 $S/hyb_bench_gemm cpu $SPEC 2.2e12 >> $OUT/gemm.csv ;; esac
case " $PARTS " in *" nvblas "*) [ -n "$NVLIB" ] && NVBLAS_CONFIG_FILE=$OUT/nvblas.conf LD_PRELOAD=$NVLIB \
    timeout 900 $S/hyb_bench_gemm nvblas $SPEC 2>/dev/null | grep -v '^\[NVBLAS\]' >> $OUT/gemm.csv ;; esac
# hyblas auto (dgemm_), forced device (cblas_dgemm) and, where a CPU call is
# cheap, forced CPU (scipy_dgemm_) in turns in one process, on the same data:
# their difference is the model's choice, not the noise between two runs.
# Started as the README tells users to start a program, by hyblas-run (which
# sets OPENBLAS_THREAD_TIMEOUT=18 where a device is in use: device calls right
# after a forced CPU call ran 2.0-3.0 ms at n = 1024 beside OpenBLAS's spinning
# threads, 1.5-1.9 alone).
case " $PARTS " in *" hyblas "*)
HYBLAS_ROUTINE_MODE=cblas_dgemm=gpu,cblas_sgemm=gpu,cblas_zgemm=gpu,scipy_dgemm_=cpu,scipy_sgemm_=cpu,scipy_zgemm_=cpu \
    timeout 900 $S/hyblas-run --no-report --trace $OUT/trace_hyblas.txt -- $S/hyb_bench_gemm hyblas-pair $SPEC \
    >> $OUT/gemm.csv ;; esac
python3 tools/bench/gemm_report.py $OUT/gemm.csv | tee $OUT/gemm_report.md
