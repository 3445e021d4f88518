#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Check a hyblas trace file (HYBLAS_TRACE): each SPEC must match at least
# one line. SPEC is ROUTINE (intercepted at all), ROUTINE:PATH (at least one
# call of ROUTINE took PATH), or A|B[:PATH] (either routine).
#   trace_check.sh FILE SPEC...
set -eu
file=$1
shift
if [ ! -s "$file" ]; then
    echo "trace_check: FAIL: no trace lines in $file" >&2
    exit 1
fi
status=0
for spec in "$@"; do
    routines=${spec%%:*}
    path=
    case "$spec" in *:*) path=${spec#*:} ;; esac
    n=$(awk -v rs="$routines" -v p="$path" '
        BEGIN { k = split(rs, r, "|") }
        { for (i = 1; i <= k; i++) if ($1 == r[i]) {
              if (p == "" || index($0, " path=" p " ") > 0) c++
              break } }
        END { print c + 0 }' "$file")
    if [ "$n" -gt 0 ]; then
        echo "trace_check: ok   $spec ($n calls)"
    else
        echo "trace_check: FAIL $spec: no such call in the trace" >&2
        status=1
    fi
done
exit $status
