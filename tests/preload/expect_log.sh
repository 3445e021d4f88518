#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run a program and check hyblas's log lines on its stderr (lines starting
# "[hyblas "): their number must lie in [MIN, MAX], and each must match
# REGEX when given. The program's own status is kept.
#   expect_log.sh --lines MIN MAX [--match REGEX] -- program args...
set -eu
min=0 max=0 match=''
while [ $# -gt 0 ]; do
    case "$1" in
        --lines) min=$2 max=$3; shift 3 ;;
        --match) match=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "expect_log.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
err=$(mktemp)
trap 'rm -f "$err"' EXIT
status=0
"$@" 2>"$err" || status=$?
cat "$err" >&2
n=$(grep -c '^\[hyblas ' "$err" || true)
echo "expect_log: $n hyblas log line(s) on stderr (allowed $min..$max)"
if [ "$n" -lt "$min" ] || [ "$n" -gt "$max" ]; then
    echo "expect_log: FAIL: $n hyblas log lines, expected $min..$max" >&2
    [ "$status" -ne 0 ] || status=1
fi
if [ -n "$match" ] && grep '^\[hyblas ' "$err" | grep -v -E -e "$match" >/dev/null; then
    echo "expect_log: FAIL: a hyblas log line does not match /$match/" >&2
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
