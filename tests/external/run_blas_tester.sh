#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run one netlib BLAS tester in the current directory (each test has its own
# directory: the testers write their *.out files there) and check its
# report: every routine the input enables PASSED its computational tests
# (both layouts for CBLAS) and its error-exit tests, nothing FAILED, was
# SUSPECT or FATAL, and the tester exited 0.
#   run_blas_tester.sh KIND TESTER [INPUT] [-- TRACE SPEC...]
#     KIND: l1 (xblat1?, x?cblat1), f77 (xblat2?, xblat3?), cblas (x?cblat2/3)
set -eu
kind=$1 tester=$2
shift 2
input=
if [ $# -gt 0 ] && [ "$1" != "--" ]; then input=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)

rm -f ./*.out ./*.SNAP
status=0
if [ -n "$input" ]; then
    "$tester" <"$input" >tester.log 2>&1 || status=$?
else
    "$tester" >tester.log 2>&1 || status=$?
fi
# Level 2/3 testers write their summary to the file named on the input's
# first line; gather everything into one report.
cat tester.log ./*.out >report.txt 2>/dev/null || true
cat report.txt

fail=0
if [ "$status" -ne 0 ]; then echo "run_blas_tester: FAIL: $tester exited with $status" >&2; fail=1; fi
if grep -E 'FAIL|SUSPECT|FATAL' report.txt >/dev/null; then
    echo "run_blas_tester: FAIL: the report has FAIL/SUSPECT/FATAL lines:" >&2
    grep -E 'FAIL|SUSPECT|FATAL' report.txt >&2
    fail=1
fi
if grep -E '^\[hyblas [0-9:]+\] (error|warning)' report.txt >/dev/null; then
    echo "run_blas_tester: FAIL: hyblas reported errors or warnings" >&2
    fail=1
fi

case "$kind" in
l1)
    tests=$(grep -c 'Test of subprogram number' report.txt || true)
    passes=$(grep -c -- '----- PASS -----' report.txt || true)
    echo "run_blas_tester: $passes of $tests subprograms passed"
    if [ "$tests" -eq 0 ] || [ "$passes" -ne "$tests" ]; then fail=1; fi
    ;;
f77 | cblas)
    grep -q 'END OF TESTS' report.txt || { echo "run_blas_tester: FAIL: no END OF TESTS" >&2; fail=1; }
    errexits=$(awk '/TO TEST ERROR EXITS/ { print $1; exit }' "$input")
    layouts=$(awk '/TO TEST COLUMN-MAJOR/ { print $1; exit }' "$input")
    # The routines the input enables: lines "NAME T PUT F FOR NO TEST...".
    # Each must pass its computational tests (CBLAS: once per layout; the
    # complex level-2 CBLAS testers omit the layout words) and, counted
    # over all routines, the error-exit tests (c/zcblat2 print cgerc's
    # error-exit line under the name cgeru).
    routines=$(awk '$2 == "T" && /PUT F FOR NO TEST/ { print $1 }' "$input")
    nlayouts=1
    [ "$kind" = cblas ] && [ "$layouts" != 0 ] && [ "$layouts" != 1 ] && nlayouts=2
    for r in $routines; do
        n=$(grep -c -E "^ *$r +PASSED THE (COLUMN-MAJOR |ROW-MAJOR +)?COMPUTATIONAL TESTS" report.txt || true)
        if [ "$n" -lt "$nlayouts" ]; then
            echo "run_blas_tester: FAIL: $r passed $n computational test runs, want $nlayouts" >&2
            echo x >>missing.txt
        fi
    done
    if [ "$errexits" = T ]; then
        nr=$(echo $routines | wc -w)
        ne=$(grep -c -E "PASSED THE TESTS OF ERROR-EXITS" report.txt || true)
        echo "run_blas_tester: $ne error-exit passes for $nr routines"
        [ "$ne" -ge "$nr" ] || echo x >>missing.txt
    fi
    if [ -s missing.txt ]; then fail=1; fi
    rm -f missing.txt
    ;;
*) echo "run_blas_tester: unknown kind $kind" >&2; exit 2 ;;
esac

if [ $# -gt 0 ]; then
    sh "$here/trace_check.sh" "$@" || fail=1
fi
[ "$fail" -eq 0 ] && echo "run_blas_tester: PASSED ($tester)"
exit $fail
