#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run a LAPACK test program (liblapack-test's xlintst?, xeigtst?) on an
# input file in the current directory and check its report: every path the
# input lists passed its threshold (and error exits), nothing failed, and
# "End of tests" was reached.
#   run_lapack_tester.sh TESTER INPUT [-- TRACE SPEC...]
set -eu
tester=$1 input=$2
shift 2
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)

status=0
"$tester" <"$input" >report.txt 2>&1 || status=$?
cat report.txt
fail=0
if [ "$status" -ne 0 ]; then echo "run_lapack_tester: FAIL: $tester exited with $status" >&2; fail=1; fi
grep -q 'End of tests' report.txt || { echo "run_lapack_tester: FAIL: no 'End of tests'" >&2; fail=1; }
if grep -i -E 'fail|error code|illegal|\*\*\*' report.txt | grep -v 'error exits' >/dev/null; then
    echo "run_lapack_tester: FAIL: the report has failures:" >&2
    grep -i -E 'fail|error code|illegal|\*\*\*' report.txt | grep -v 'error exits' >&2
    fail=1
fi
# Paths: lines of the input starting with a three-letter code (DGE, DPO...).
for p in $(awk 'NR > 1 && $1 ~ /^[SDCZ][A-Z0-9][A-Z0-9]$/ { print $1 }' "$input"); do
    if ! grep -E "All tests for $p (routines|drivers) +passed the threshold" report.txt >/dev/null; then
        echo "run_lapack_tester: FAIL: no 'All tests for $p ... passed the threshold'" >&2
        fail=1
    fi
    if ! grep -E "$p (routines|drivers) passed the tests of the error exits" report.txt >/dev/null; then
        echo "run_lapack_tester: FAIL: no '$p routines passed the tests of the error exits'" >&2
        fail=1
    fi
done
if [ $# -gt 0 ]; then
    sh "$here/trace_check.sh" "$@" || fail=1
fi
[ "$fail" -eq 0 ] && echo "run_lapack_tester: PASSED ($tester)"
exit $fail
