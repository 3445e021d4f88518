#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The out-of-core stencil benchmark (seed 003 ch. 3; docs/stencil.md): for each data set the
# OpenMP CPU path, then every device scheme (copy, direct, shared, in core, auto) under the
# seed's 16 GiB device budget and without a cap, each run checked against the CPU and the
# schemes bit for bit with each other, timed against the plan's prediction and against the
# PCIe bound from the calibrated pinned rates; with SWEEP=1 a grid of forced (d, k) around
# each out-of-core plan, to see how far the planner's choice is from the best measured.
# Builds nothing: it runs hyb_bench_stencil_ooc and hyblas-calibrate from a build directory.
#
#   tools/bench/run_stencil_ooc_bench.sh [BUILD_DIR]     (default $STAGE, else build-cuda)
# Environment (defaults in brackets):
#   OUT [/tmp/out]  SETS ["acoustic himeno incore"]: acoustic 1160^3, Himeno 1225 x 613 x 613,
#   laplace 45000^2, incore = acoustic 820^3 without a cap only  BUDGET [17179869184]
#   SWEEP [1]  STEPS [the set's: 36, 36, 64]  EXTRA [extra program arguments, e.g. sizes]
# Small on the simulated device (seconds):
#   HYBLAS_DEVICE=sim SETS="acoustic" EXTRA="--nx 40 --ny 40 --nz 64 --steps 6" BUDGET=4000000 tools/bench/run_stencil_ooc_bench.sh build
# Writes $OUT/gpu.txt (nvidia-smi, the build's REVISION), $OUT/calibrate.txt and
# $OUT/hyb.profile (the profile every run reads), $OUT/stencil_ooc_<set>.txt (each run's
# log), $OUT/stencil_ooc.csv (the rows), $OUT/stencil_ooc_sweep.csv (the sweep), and
# $OUT/stencil_ooc.svg when python3 is there; prints a table and the summaries.
# Exit 0, 1 (a set failed: a wrong result, a fallback, bytes not as planned), 77 (no device).
set -u -o pipefail
B=${1:-${STAGE:-build-cuda}}
BIN=$B/hyb_bench_stencil_ooc
OUT=${OUT:-/tmp/out}
SETS=${SETS:-acoustic himeno incore}
BUDGET=${BUDGET:-17179869184}
SWEEP=${SWEEP:-1}
STEPS=${STEPS:-}
EXTRA=${EXTRA:-}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$BIN" ]; then
    echo "no $BIN: build target hyb_bench_stencil_ooc" >&2
    exit 1
fi
mkdir -p "$OUT"

# (1) The machine and the build.
{
    if command -v nvidia-smi > /dev/null; then nvidia-smi 2>&1; else echo "nvidia-smi: not found"; fi
    echo "revision: $(cat "$B/REVISION" 2>/dev/null || git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo ?)"
    echo "cores: $(nproc); date: $(date -u '+%F %H:%M') UTC; HYBLAS_DEVICE=${HYBLAS_DEVICE:-default}"
} > "$OUT/gpu.txt"

# (2) Calibrate: the pinned PCIe rates for the bound column, and the profile the planner
# reads in every run below. Without them the runs go on with the default rates.
export HYBLAS_PROFILE=$OUT/hyb.profile
RATES=()
calibrate() { # the full measurement; --quick (small buffers) where the full one cannot run
    [ -x "$B/hyblas-calibrate" ] || { echo "no $B/hyblas-calibrate"; return 1; }
    "$B/hyblas-calibrate" && return 0
    echo "retrying with --quick"
    "$B/hyblas-calibrate" --quick
}
if calibrate > "$OUT/calibrate.txt" 2>&1; then
    # "  h2d pinned   X GB/s   d2h pinned   Y GB/s   both Z GB/s"
    read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' "$OUT/calibrate.txt")
    if [ -n "${BIDIR:-}" ]; then
        RATES=(--h2d "$H2D" --d2h "$D2H" --bidir "$BIDIR")
        echo "pinned PCIe: h2d $H2D GB/s, d2h $D2H GB/s, both $BIDIR GB/s"
    fi
    # "  h2d registered X GB/s   d2h registered Y GB/s   both Z GB/s (ordinary memory, ...)"
    read -r RH2D RD2H RBIDIR < <(awk '$1 == "h2d" && $2 == "registered" { print $3, $7, $10; exit }' "$OUT/calibrate.txt")
    if [ -n "${RBIDIR:-}" ]; then
        RATES+=(--reg-h2d "$RH2D" --reg-d2h "$RD2H" --reg-bidir "$RBIDIR")
        echo "registered PCIe: h2d $RH2D GB/s, d2h $RD2H GB/s, both $RBIDIR GB/s"
    fi
else
    echo "hyblas-calibrate missing or failed (see $OUT/calibrate.txt): no PCIe bound column"
fi
# A named profile that does not exist only draws a warning from every run: fall back to
# the default profile instead.
[ -f "$HYBLAS_PROFILE" ] || unset HYBLAS_PROFILE

# (3) Each set.
CSV=$OUT/stencil_ooc.csv
SWEEP_CSV=$OUT/stencil_ooc_sweep.csv
: > "$CSV"
: > "$SWEEP_CSV"
RC=0
for s in $SETS; do
    case $s in
        incore) args=(--set acoustic --nx 820 --ny 820 --nz 820 --budgets 0) ;;
        *) args=(--set "$s" --budgets "$BUDGET,0") ;;
    esac
    [ -n "$STEPS" ] && args+=(--steps "$STEPS")
    [ "$SWEEP" = 1 ] && args+=(--sweep)
    LOG=$OUT/stencil_ooc_$s.txt
    echo "== $s: $BIN ${args[*]} ${RATES[*]} $EXTRA"
    # EXTRA last: its sizes replace the set's (the program takes the last of an option).
    # shellcheck disable=SC2086
    "$BIN" "${args[@]}" ${RATES[@]+"${RATES[@]}"} $EXTRA > "$LOG" 2>&1
    r=$?
    if [ $r = 77 ]; then
        echo "no device (see $LOG)"
        exit 77
    fi
    if [ $r != 0 ]; then
        echo "$s FAILED (exit $r; see $LOG)"
        RC=1
    fi
    # One header per file, the set's rows after it.
    [ -s "$CSV" ] || grep -m1 '^row,set,' "$LOG" | sed 's/^row,//' >> "$CSV"
    [ -s "$SWEEP_CSV" ] || grep -m1 '^sweep,set,' "$LOG" | sed 's/^sweep,//' >> "$SWEEP_CSV"
    grep '^row,' "$LOG" | grep -v '^row,set,' | sed 's/^row,//' >> "$CSV"
    grep '^sweep,' "$LOG" | grep -v '^sweep,set,' | sed 's/^sweep,//' >> "$SWEEP_CSV"
done

# (4) The table (the columns that matter side by side) and the summaries.
COLS=set,nx,budget,scheme,path,fell_back,d,k,seconds,predicted,bytes_match,max_diff,bound,diff_ok,same_as_first_gpu,pcie_bound_s,ratio_to_bound,ratio_to_reg_bound,gosa_diff
echo
awk -F, -v cols="$COLS" '
    NR == 1 { n = split(cols, want, ","); for (i = 1; i <= NF; i++) at[$i] = i }
    { line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? "," : "") $(at[want[j]]); print line }' "$CSV" |
    if command -v column > /dev/null; then column -s, -t; else tr , '\t'; fi
echo
for s in $SETS; do
    grep '^# summary' "$OUT/stencil_ooc_$s.txt" 2>/dev/null | sed "s/^# summary /$s: /"
done
# Region sharing's closest approach to the bus bound, over the rows and the sweep.
for f in "$CSV" "$SWEEP_CSV"; do
    awk -F, -v what="$(basename "$f" .csv)" '
        NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $(at["scheme"]) == "shared" && $(at["ratio_to_bound"]) != "na" {
            key = $(at["set"]) " budget " $(at["budget"])
            r = $(at["ratio_to_bound"]) + 0; g = $(at["ratio_to_reg_bound"])
            if (!(key in best) || r < best[key]) { best[key] = r; reg[key] = g; dk[key] = "d " $(at["d"]) " k " $(at["k"]) }
        }
        END { for (k in best) printf "%s: %s, shared closest to the bus bound: %.3fx the page-locked buffers'"'"' rates, %sx registered memory'"'"'s (%s)\n", what, k, best[k], reg[k], dk[k] }' "$f"
done
if command -v python3 > /dev/null && [ "$(wc -l < "$CSV")" -gt 1 ]; then
    python3 "$HERE/plot_stencil_ooc.py" "$CSV" "$OUT/stencil_ooc.svg" || echo "plot failed"
fi
echo "rows: $CSV; sweep: $SWEEP_CSV; logs: $OUT/stencil_ooc_<set>.txt; $([ $RC = 0 ] && echo ok || echo "a set FAILED")"
exit $RC
