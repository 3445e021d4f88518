#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The README's second command (and CI's): install what is missing, build,
# run every test; then build without the CUDA plugin and run the tests
# again, since a machine without CUDA must build and pass too; then a
# Release build (-O3, what packagers build), an ASan+UBSan build and the
# unit suites under ThreadSanitizer (clang, libomp), which find what only
# the optimiser or a sanitizer exposes.
set -eu
cd "$(dirname "$0")/.."
tools/deps.sh --mkl build/mkl-venv
jobs=$(nproc)
cmake -S . -B build >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest -j"$jobs" --output-on-failure)
cmake -S . -B build-nocuda -DHYB_ENABLE_CUDA=OFF >/dev/null
cmake --build build-nocuda -j"$jobs"
(cd build-nocuda && ctest -j"$jobs" --output-on-failure)

# Release: everything but the external suites and the benchmarks, which the
# two builds above run in full and which take most of the time.
cmake -S . -B build-release -DHYB_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j"$jobs"
(cd build-release && ctest -j"$jobs" --output-on-failure -LE 'external|perf')

# ASan+UBSan (undefined behaviour stops the program): the unit suites, the
# fuzzers' corpus replays and the outside checks of the sparse products. Leaks are not reported: the
# test programs keep their buffers to the end. Left out: unit.spmv_dispatch
# times the device against the CPU, which the sanitizer slows several times.
cmake -S . -B build-asan -DHYB_ENABLE_CUDA=OFF -DHYB_SANITIZE=address >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest -j"$jobs" --output-on-failure \
	-R '^(unit\.|abi\.|preload\.spmv_random\.|fuzz\.)' -E '^unit\.spmv_dispatch$')

# ThreadSanitizer over every unit suite, OpenMP regions included (tools/tsan.sh).
tools/tsan.sh
