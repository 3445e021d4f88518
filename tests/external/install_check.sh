#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the build into a fresh prefix, then use it as a user would:
# build and run a consumer with find_package(hyblas) and one with
# pkg-config, and run the installed hyblas-run on a plain BLAS program.
#   install_check.sh CMAKE CC PKG_CONFIG BUILD_DIR LIBDIR CONSUMER_SRC APP_DGEMM
set -eu
cmake=$1 cc=$2 pkgconfig=$3 build=$4 libdir=$5 src=$6 app=$7
work=$(pwd)
prefix=$work/prefix
rm -rf "$prefix" consumer-cmake consumer-pc
fail=0
check() { # message, then the command
    what=$1
    shift
    if "$@"; then echo "install_check: ok   $what"; else echo "install_check: FAIL $what" >&2; fail=1; fi
}

"$cmake" --install "$build" --prefix "$prefix"
check "libhyblas.so and its soname links" test -e "$prefix/$libdir/libhyblas.so" -a -e "$prefix/$libdir/libhyblas.so.0"
if [ -e "$build/libhyblas_cuda.so" ]; then
    check "libhyblas_cuda.so beside libhyblas.so" test -e "$prefix/$libdir/libhyblas_cuda.so"
fi
check "bin/hyblas-run" test -x "$prefix/bin/hyblas-run"
check "bin/hyblas-calibrate" test -x "$prefix/bin/hyblas-calibrate"
check "pkg-config file" test -e "$prefix/$libdir/pkgconfig/hyblas.pc"
check "CMake package" test -e "$prefix/$libdir/cmake/hyblas/hyblasConfig.cmake" \
    -a -e "$prefix/$libdir/cmake/hyblas/hyblasConfigVersion.cmake"
n=$(nm -D --defined-only "$prefix/$libdir/libhyblas.so" | awk '$2 == "T"' | wc -l)
check "the installed library exports the routine table ($n symbols)" test "$n" -gt 100

# 1. find_package(hyblas)
"$cmake" -S "$src" -B consumer-cmake -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >consumer-cmake.log 2>&1 ||
    { cat consumer-cmake.log; echo "install_check: FAIL configuring the find_package consumer" >&2; exit 1; }
"$cmake" --build consumer-cmake >>consumer-cmake.log 2>&1 ||
    { cat consumer-cmake.log; echo "install_check: FAIL building the find_package consumer" >&2; exit 1; }
check "find_package consumer runs" env LD_LIBRARY_PATH="$prefix/$libdir" consumer-cmake/consumer "$prefix/$libdir"

# 2. pkg-config
flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" "$pkgconfig" --cflags --libs hyblas)
echo "pkg-config --cflags --libs hyblas: $flags"
mkdir -p consumer-pc
# shellcheck disable=SC2086 # word splitting of the flags is intended
"$cc" -o consumer-pc/consumer "$src/consumer.c" $flags -lblas -ldl -lm
check "pkg-config consumer runs" env LD_LIBRARY_PATH="$prefix/$libdir" consumer-pc/consumer "$prefix/$libdir"

# 3. The installed hyblas-run, on an unmodified program.
preload=$("$prefix/bin/hyblas-run" --no-report -- sh -c 'echo "$LD_PRELOAD"')
check "hyblas-run preloads the installed library ($preload)" \
    test "$(cd "$(dirname "$preload")" && pwd)" = "$(cd "$prefix/$libdir" && pwd)"
HYBLAS_DEVICE=sim "$prefix/bin/hyblas-run" --mode gpu --trace "$work/run.trace" -- \
    "$app" --shim yes --trace "$work/run.trace" --expect-path gpu 2>run.err && ok=1 || ok=0
cat run.err
check "hyblas-run --mode gpu runs app_dgemm on the (simulated) device" test "$ok" = 1
check "hyblas-run printed the exit report" grep -q '\] report: dgemm_' run.err

[ "$fail" -eq 0 ] && echo "install_check: PASSED"
exit $fail
