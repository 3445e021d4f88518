#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The built libraries never take libgomp's process-wide locks (GOMP_atomic_start, which GCC
# emits to merge an OpenMP reduction of more than one variable or of a type without an
# atomic instruction, and GOMP_critical_start for `omp critical`). A thread of the program
# holding one when another thread calls fork() leaves it held in the child, whose next
# sparse product then waits forever (found by preload.fork.busy_threads). The disassembly
# is searched for calls to them.
#   no_gomp_locks.sh LIBRARY...   exit 0: none found; 1: found (listed); 77: cannot check
set -eu
if ! command -v objdump >/dev/null 2>&1; then
	echo "skip: objdump is not installed"
	exit 77
fi
status=0
for lib in "$@"; do
	found=$(objdump -d --no-show-raw-insn "$lib" |
		awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /call.*<GOMP_(atomic_start|critical_start|critical_name_start)/ { print fn }' |
		sort | uniq -c)
	if [ -n "$found" ]; then
		echo "FAIL: $lib takes libgomp's process-wide locks in:"
		echo "$found"
		status=1
	else
		echo "ok: $lib takes none of libgomp's process-wide locks"
	fi
done
exit $status
