#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# numpy under hyblas: the same products without and with libhyblas.so
# preloaded (numpy's extension loads libblas.so.3 RTLD_LOCAL: hyblas must
# find it), equal to a normalized bound, and intercepted per the trace.
#   numpy_check.sh PYTHON LIBHYBLAS TRACE SPEC...     (exit 77: no numpy)
set -eu
python=$1 lib=$2 trace=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$python" ]; then echo "numpy_check: $python not found: skipped"; exit 77; fi
status=0
"$python" "$here/numpy_check.py" save plain.npz || status=$?
[ "$status" -eq 77 ] && exit 77
[ "$status" -eq 0 ] || exit 1
rm -f "$trace"
LD_PRELOAD="$lib" HYBLAS_TRACE="$trace" "$python" "$here/numpy_check.py" compare plain.npz || exit 1
sh "$here/trace_check.sh" "$trace" "$@"
