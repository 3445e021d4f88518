#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The gated HPL benchmark (tools/bench/run_hpl.sh, HPL_GATED=1) on a small N:
# two hpcc processes started together, held before HPL and let through one at
# a time, one of them with two block sizes. Checks: a line per HPL problem
# (three), every residual PASSED, and, unless the script says a process got into
# HPL before it was held, the second process's HPL after the first's (hpcc's own
# timestamps: the first's HPL ended no later than the second left the part before).
#   run_hpl_gated.sh LIBDIR     (LIBDIR holds libhyblas.so; exit 77: no hpcc)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v hpcc >/dev/null 2>&1 || { echo "run_hpl_gated: hpcc not installed: skipped"; exit 77; }
out=$PWD/gated
rm -rf "$out"
HPL_GATED=1 HPL_TIMEOUT=300 OUT=$out STAGE=$1 \
    bash "$here/../../tools/bench/run_hpl.sh" "cpu:3000:128 hyblas:3000:128,256" > rows.csv
cat rows.csv
fail=0
[ "$(grep -c ',PASSED,' rows.csv)" -eq 3 ] || { echo "run_hpl_gated: FAIL: want 3 passed HPL lines" >&2; fail=1; }
grep -q -E ',(FAILED|\?),' rows.csv && { echo "run_hpl_gated: FAIL: a failed or missing HPL line" >&2; fail=1; }
# epoch of the "Current time" line just before a section's end
at() { awk -v s="End of $2 section." '/^Current time/ {t = $3} $0 == s {gsub(/[()]/, "", t); print t; exit}' "$1"; }
# At this N a process may reach HPL within one poll; the script then labels it -late and
# the order is not promised.
a=$(at "$out/hpl_cpu_3000/hpccoutf.txt" HPL) b=$(at "$out/hpl_hyblas_3000/hpccoutf.txt" LatencyBandwidth)
if grep -q -- '-late,' rows.csv; then
    echo "run_hpl_gated: a process reached HPL before it was held (labelled late)"
elif [ -z "$a" ] || [ -z "$b" ] || [ "$a" -gt "$b" ]; then
    echo "run_hpl_gated: FAIL: the HPL parts overlapped (first ended at $a, second began at $b)" >&2; fail=1
fi
[ "$fail" -eq 0 ] && echo "run_hpl_gated: PASSED"
exit $fail
