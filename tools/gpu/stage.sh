#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run here after building: copy what the GPU machine runs (libraries, tools,
# benchmarks, GPU check programs, test programs) from BUILD (default build/)
# into DEST (default .stage/, git-ignored), small enough to carry with the run.
#   tools/gpu/stage.sh [BUILD [DEST]]
set -e
B=${1:-build}
D=${2:-.stage}
rm -rf "$D" && mkdir -p "$D"
for f in libhyblas.so libhyblas.so.0 libhyblas_cuda.so hyblas-calibrate hyblas-run hyb-spmv-gen \
         hyb-kernels hyb_linpack hyb_faceloop_devcheck "$B"/hyb_bench_* "$B"/gpu_check_* "$B"/gpu_bench_* "$B"/gpu_probe_*; do
    f=${f#"$B"/}
    [ -f "$B/$f" ] && [ -x "$B/$f" ] && cp -a "$B/$f" "$D/"
done
cp -a $B/libhyblas.so.0.* "$D/" 2>/dev/null || true
for f in $(find $B/tests -maxdepth 3 -type f -perm -u+x 2>/dev/null); do cp -a "$f" "$D/"; done
# the commit the staged build came from (the GPU machine's copy of the tree has no history):
# the build's own source tree, which need not be this one
SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$B/CMakeCache.txt" 2>/dev/null)
git -C "${SRC:-.}" describe --always --dirty > "$D/REVISION" 2>/dev/null || true
du -sh "$D"
