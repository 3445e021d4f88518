#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run a program with a fresh hyblas trace (the test sets HYBLAS_TRACE=TRACE)
# and check the trace afterwards.
#   run_traced.sh TRACE [SPEC...] -- program args...
set -eu
trace=$1
shift
specs=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do specs="$specs $1"; shift; done
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$trace"
"$@"
[ -z "$specs" ] || sh "$here/trace_check.sh" "$trace" $specs
