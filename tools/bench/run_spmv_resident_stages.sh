#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The resident sparse product's stages at several staging-copy team sizes and ways of
# moving x and y (issue 25, item 2): hyb_bench_spmv_calls at up to $CALLS calls (default 30),
# once per HYBLAS_STAGING value in $STAGINGS (default "auto": x and y registered; "copy":
# both staged) and HYBLAS_COPY_THREADS value in $THREADS (default "8 15"), each printing
# the resident call's mean stages against the bus bound.
# Builds nothing: it runs the staged binary (build, then tools/gpu/stage.sh).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
BIN=$S/hyb_bench_spmv_calls
if [ ! -x "$BIN" ]; then
    echo "run_spmv_resident_stages.sh: $BIN not found (build, then tools/gpu/stage.sh)" >&2
    exit 2
fi
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
rc=0
for s in ${STAGINGS:-auto}; do
    for t in ${THREADS:-8 15}; do
        HYBLAS_STAGING=$s HYBLAS_COPY_THREADS=$t timeout 200 "$BIN" --max-calls "${CALLS:-30}" \
            --check-all > "$OUT/resident_${s}_t$t.csv" 2> "$OUT/resident_${s}_t$t.err" || rc=$?
        echo "staging $s, copy threads $t:"; grep '^#' "$OUT/resident_${s}_t$t.csv"
    done
done
exit $rc
