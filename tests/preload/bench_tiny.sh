#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The cost hyblas adds to a tiny dgemm_ call (4x4, 16x16; mode auto keeps
# them on the CPU), measured two ways:
#  - wall clock, without and with LD_PRELOAD (best of 3; informative only,
#    a shared 2-core VM is noisy);
#  - instructions, under callgrind when valgrind is available: the Ir count
#    of the measured loop only (--toggle-collect), with minus without,
#    divided by the number of calls. This one is asserted: < LIMIT.
# And the process's first call, where hyblas finds the real routine: its
# instructions with minus without, asserted < FIRST_LIMIT.
#   bench_tiny.sh BENCH LIBHYBLAS VALGRIND|"" LIMIT FIRST_LIMIT
set -eu
bench=$1 lib=$2 valgrind=${3:-} limit=${4:-400} first_limit=${5:-150000}
export OPENBLAS_NUM_THREADS=1

best() { # best ns/call of 3 runs for size $1, optionally preloaded ($2)
    b=''
    for _ in 1 2 3; do
        if [ -n "${2:-}" ]; then
            v=$(LD_PRELOAD="$lib" "$bench" | awk -v s="$1" '$2 == s { sub("ns_per_call=", "", $4); print $4 }')
        else
            v=$("$bench" | awk -v s="$1" '$2 == s { sub("ns_per_call=", "", $4); print $4 }')
        fi
        b=$(awk -v a="$b" -v v="$v" 'BEGIN { print (a == "" || v < a) ? v : a }')
    done
    echo "$b"
}

echo "wall clock (best of 3, ns per call; informative):"
for s in 4x4 16x16; do
    base=$(best "$s")
    shim=$(best "$s" shim)
    awk -v s="$s" -v b="$base" -v h="$shim" \
        'BEGIN { printf "  dgemm %-5s without %8.1f  with %8.1f  added %7.1f ns/call\n", s, b, h, h - b }'
done

if [ -z "$valgrind" ] || ! command -v "$valgrind" >/dev/null 2>&1; then
    echo "valgrind not found: instruction counts not measured"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # Ir of loop function $1 with args $2..; preloaded when PRE is set
    fn=$1
    shift
    out="$tmp/cg.$fn.${PRE:+shim}"
    if [ -n "${PRE:-}" ]; then
        LD_PRELOAD="$lib" "$valgrind" --tool=callgrind --callgrind-out-file="$out" \
            "--toggle-collect=$fn*" "$bench" "$@" >/dev/null 2>"$tmp/vg.err" || { cat "$tmp/vg.err" >&2; exit 1; }
    else
        "$valgrind" --tool=callgrind --callgrind-out-file="$out" \
            "--toggle-collect=$fn*" "$bench" "$@" >/dev/null 2>"$tmp/vg.err" || { cat "$tmp/vg.err" >&2; exit 1; }
    fi
    awk '$1 == "totals:" { print $2 }' "$out"
}

status=0
echo "instructions (callgrind, measured loop only):"
for cfg in "hyb_bench_loop4 20000 --n4 20000 --n16 0" "hyb_bench_loop16 5000 --n4 0 --n16 5000"; do
    # shellcheck disable=SC2086 # split the configuration into words
    set -- $cfg
    fn=$1 calls=$2
    shift 2
    base=$(PRE='' ir "$fn" "$@")
    shim=$(PRE=1 ir "$fn" "$@")
    added=$(awk -v b="$base" -v h="$shim" -v n="$calls" 'BEGIN { printf "%.1f", (h - b) / n }')
    verdict=$(awk -v a="$added" -v l="$limit" 'BEGIN { print (a < l) ? "ok" : "FAIL" }')
    echo "  $verdict $fn: $calls calls, Ir without $base, with $shim, added $added per call (limit $limit)"
    [ "$verdict" = ok ] || status=1
done
base=$(PRE='' ir hyb_bench_first --first)
shim=$(PRE=1 ir hyb_bench_first --first)
added=$((shim - base))
verdict=$(awk -v a="$added" -v l="$first_limit" 'BEGIN { print (a < l) ? "ok" : "FAIL" }')
echo "  $verdict the first call: Ir without $base, with $shim, added $added (limit $first_limit)"
[ "$verdict" = ok ] || status=1
exit $status
