#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# HPL through HPC Challenge (Debian's hpcc, unmodified, one MPI process, no
# mpirun) in the current directory, on an input written here: one problem
# N x N with block NB on a 1 x 1 grid (the other benchmarks size themselves
# from N). Checks: exit 0, HPL's residual check PASSED, no FAILED anywhere,
# the run completed, and the trace specs.
#   run_hpcc.sh HPCC N NB [-- TRACE SPEC...]    (exit 77: no hpcc)
set -eu
hpcc=$1 n=$2 nb=$3
shift 3
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$hpcc" >/dev/null 2>&1; then
    echo "run_hpcc: hpcc not installed: skipped"
    exit 77
fi
sh "$here/../../tools/hpccinf.sh" "$n" "$nb" >hpccinf.txt
rm -f hpccoutf.txt
# Open MPI: a singleton (no mpirun); allowed as root in CI containers.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
"$hpcc" >hpcc.log 2>&1 || status=$?
cat hpcc.log
fail=0
if [ "$status" -ne 0 ]; then echo "run_hpcc: FAIL: hpcc exited with $status" >&2; fail=1; fi
if [ ! -s hpccoutf.txt ]; then
    echo "run_hpcc: FAIL: no hpccoutf.txt" >&2
    exit 1
fi
grep -E 'Ax-b.*(PASSED|FAILED)|HPL_Tflops|HPL_N=|HPL_NB=|End of HPC' hpccoutf.txt || true
if ! grep -E '^\|\|Ax-b\|\|_oo/\(eps.*PASSED' hpccoutf.txt >/dev/null; then
    echo "run_hpcc: FAIL: HPL's residual check did not pass" >&2
    fail=1
fi
if grep -E 'FAILED' hpccoutf.txt >/dev/null; then
    echo "run_hpcc: FAIL: hpccoutf.txt has FAILED lines:" >&2
    grep -E 'FAILED' hpccoutf.txt >&2
    fail=1
fi
grep -q 'End of HPC Challenge tests' hpccoutf.txt || { echo "run_hpcc: FAIL: the run did not complete" >&2; fail=1; }
if [ $# -gt 0 ]; then
    sh "$here/trace_check.sh" "$@" || fail=1
fi
[ "$fail" -eq 0 ] && echo "run_hpcc: PASSED (N=$n NB=$nb)"
exit $fail
