#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run an error-reporting program twice, without and with hyblas preloaded,
# in the current directory, and require identical records on stdout (the
# invalid-argument reports must not depend on hyblas).
#   xerbla_compare.sh PRELOAD program args...
# PRELOAD is what LD_PRELOAD gets: libhyblas.so (after the ASan runtime in an ASan build).
set -eu
lib=$1
shift
status=0
"$@" >plain.out 2>plain.err || status=$?
cat plain.err >&2
if [ "$status" -ne 0 ]; then
    cat plain.out
    echo "xerbla_compare: FAIL: the program fails without hyblas (status $status)" >&2
    exit 1
fi
LD_PRELOAD="$lib" "$@" >shim.out 2>shim.err || status=$?
cat shim.err >&2
if [ "$status" -ne 0 ]; then
    cat shim.out
    echo "xerbla_compare: FAIL: the program fails with hyblas (status $status)" >&2
    exit 1
fi
if ! diff -u plain.out shim.out; then
    echo "xerbla_compare: FAIL: the reports differ with hyblas (- without, + with)" >&2
    exit 1
fi
cat shim.out
echo "xerbla_compare: identical records ($(wc -l <shim.out) lines) with and without hyblas"
