#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds of libhyblas on the out-of-core stencil benchmark in one run, alternating, so that
# a change to the engine is measured against the build before it on the same machine and
# under the same calibration (docs/stencil.md). Builds nothing.
#
#   tools/bench/run_stencil_lib_ab.sh NEW_DIR OLD_DIR [OTHER_DIR...]
# NEW_DIR holds hyb_bench_stencil_ooc, hyblas-calibrate and the new libhyblas; OLD_DIR (and
# each OTHER_DIR) another libhyblas.so* and libhyblas_cuda.so, found first on
# LD_LIBRARY_PATH for its runs. Runs are named new, old, then each other directory's name.
# Environment (defaults in brackets):
#   OUT [/tmp/out]  ROUNDS [2]  TRACE_ROUND [1: that round's runs write step traces; 0 none]
#   ARGS [--set acoustic --budgets 17179869184 --schemes shared,auto --no-cpu --sweep]
# Writes $OUT/calibrate.txt, $OUT/hyb.profile, $OUT/<name>.<round>.txt (each run's output)
# and $OUT/<name>.<round>.trace.txt, and prints, per plan, each round's seconds and ratio
# to the PCIe bound. Exit 0, or 1 when a run failed (a wrong result, a fallback, bytes not as
# planned: the benchmark's own checks).
set -u -o pipefail
NEW=${1:?usage: run_stencil_lib_ab.sh NEW_DIR OLD_DIR [OTHER_DIR...]}
OLD=${2:?usage: run_stencil_lib_ab.sh NEW_DIR OLD_DIR [OTHER_DIR...]}
shift 2
OTHERS=("$@")
OUT=${OUT:-/tmp/out}
ROUNDS=${ROUNDS:-2}
TRACE_ROUND=${TRACE_ROUND:-1}
ARGS=${ARGS:---set acoustic --budgets 17179869184 --schemes shared,auto --no-cpu --sweep}
mkdir -p "$OUT"
NEW=$(cd "$NEW" && pwd)
OLD=$(cd "$OLD" && pwd)

export HYBLAS_PROFILE=$OUT/hyb.profile
RATES=()
if "$NEW/hyblas-calibrate" > "$OUT/calibrate.txt" 2>&1; then
    read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' "$OUT/calibrate.txt")
    [ -n "${BIDIR:-}" ] && RATES=(--h2d "$H2D" --d2h "$D2H" --bidir "$BIDIR")
    echo "pinned PCIe: h2d ${H2D:-?} GB/s, d2h ${D2H:-?} GB/s, both ${BIDIR:-?} GB/s"
else
    echo "hyblas-calibrate failed (see $OUT/calibrate.txt): no PCIe bound column"
fi
[ -f "$HYBLAS_PROFILE" ] || unset HYBLAS_PROFILE

rc=0
for r in $(seq 1 "$ROUNDS"); do
    for which in new old "${OTHERS[@]}"; do
        case $which in
            new) dir=$NEW ;;
            old) dir=$OLD ;;
            *) dir=$(cd "$which" && pwd); which=$(basename "$dir") ;;
        esac
        log=$OUT/$which.$r.txt
        trace=()
        [ "$r" = "$TRACE_ROUND" ] && trace=(HYBLAS_TRACE="$OUT/$which.$r.trace.txt" HYBLAS_TRACE_STEPS=1)
        # shellcheck disable=SC2086
        env "${trace[@]}" LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            "$NEW/hyb_bench_stencil_ooc" $ARGS "${RATES[@]}" > "$log" 2>&1
        status=$?
        [ "$status" = 0 ] || rc=1
        echo "round $r $which: exit $status, $(grep -c '^sweep,\|^row,' "$log") rows"
    done
done

# Per plan (scheme, d, k): seconds and ratio to the bound of every run, new then old.
echo "plan | each build and round: seconds (ratio to the PCIe bound)"
for f in "$OUT"/*.*.txt; do
    case $f in *.trace.txt | */calibrate.txt) continue ;; esac
    tag=$(basename "$f" .txt)
    awk -F, -v tag="$tag" '
        $1 == "row" && $2 != "set" { print $9 " d" $12 " k" $13, tag, $14, $27 }
        $1 == "sweep" && $2 != "set" { print $9 " d" $10 " k" $11, tag, $14, $21 }' "$f"
done | sort -k1,3 -s | awk '
    { key = $1 " " $2 " " $3; if (key != last) { if (last != "") print line; line = key; last = key }
      line = line sprintf(" | %s %.3f s (%.3fx)", $4, $5, $6) }
    END { if (last != "") print line }'
exit $rc
