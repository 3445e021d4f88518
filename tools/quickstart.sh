#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The README's first command: install what is missing, build hyblas, and run
# the main job: HPL from Debian's hpcc package, an unmodified program that
# calls BLAS through the system library, under hyblas (LD_PRELOAD through
# hyblas-run), with hyblas's per-routine report at exit. With a GPU and the
# CUDA plugin the large updates run on the device; without, on the CPU.
#   tools/quickstart.sh [N]     (HPL problem size, default 6000)
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
N=${1:-6000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tools/hpccinf.sh "$N" 256 1200 40 > "$work/hpccinf.txt"
echo "hyblas: running hpcc (HPL N=$N) under hyblas-run; HPC Challenge's other parts take a minute too"
cd "$work"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
    "$OLDPWD/build/hyblas-run" -- hpcc 2>&1 | grep -E "report:|warning|error" || true
grep -E "^T/V +N|^WR|\.\.\.\. (PASSED|FAILED)" hpccoutf.txt | head -3
