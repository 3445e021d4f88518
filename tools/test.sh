#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The README's second command (and CI's): install what is missing, build,
# run every test; then build without the CUDA plugin and run the tests
# again, since a machine without CUDA must build and pass too.
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh
jobs=$(nproc)
cmake -S . -B build >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest -j"$jobs" --output-on-failure)
cmake -S . -B build-nocuda -DHYB_ENABLE_CUDA=OFF >/dev/null
cmake --build build-nocuda -j"$jobs"
(cd build-nocuda && ctest -j"$jobs" --output-on-failure)
