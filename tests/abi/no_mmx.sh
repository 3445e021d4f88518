#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The built libraries contain no MMX instruction. A function that leaves a value in an MMX
# register without EMMS returns with the x87 register stack full, and the caller's next
# long double operation yields NaN (GCC 12 at -O3 did this to the sparse kernels; the build
# now passes -mno-mmx). The disassembly is searched for the MMX registers.
#   no_mmx.sh LIBRARY...      exit 0: none found; 1: found (listed); 77: cannot check here
set -eu
case "$(uname -m)" in
x86_64 | i?86) ;;
*)
	echo "skip: not an x86 machine"
	exit 77
	;;
esac
if ! command -v objdump >/dev/null 2>&1; then
	echo "skip: objdump is not installed"
	exit 77
fi
status=0
for lib in "$@"; do
	# a function name line, then its instructions; print the functions that use %mm0-7
	found=$(objdump -d --no-show-raw-insn "$lib" |
		awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /%mm[0-7]/ { print fn }' | sort | uniq -c)
	if [ -n "$found" ]; then
		echo "FAIL: $lib uses MMX registers in:"
		echo "$found"
		status=1
	else
		echo "ok: $lib has no MMX instruction"
	fi
done
exit $status
