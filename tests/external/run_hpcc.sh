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
# HPL.dat format (one value per line, comment after it), then hpcc's
# PTRANS lines after the separator line 32.
cat >hpccinf.txt <<EOT
HPLinpack input for hyblas's hpcc test
(written by tests/external/run_hpcc.sh)
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$n           Ns
1            # of NBs
$nb          NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
1            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0            Number of additional problem sizes for PTRANS
$n           values of N
0            number of additional blocking sizes for PTRANS
$nb          values of NB
EOT
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
