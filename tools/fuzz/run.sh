#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build the library with clang, ASan+UBSan and libFuzzer's coverage (no CUDA), then run each
# fuzzer of tools/fuzz for FUZZ_SECONDS seconds (default 60) from its corpus directory (kept in
# BUILD/corpus-NAME across runs, seeded from the committed tools/fuzz/corpus/NAME.corpus). A
# finding stops the run: libFuzzer writes the input as BUILD/crash-* and prints how to replay
# it (BUILD/fuzz_NAME FILE). To keep what a run found for CI's replay (fuzz.replay.NAME):
#   BUILD/fuzz_NAME -merge=1 NEWDIR BUILD/corpus-NAME; tools/fuzz/corpus.py pack NEWDIR tools/fuzz/corpus/NAME.corpus
#   tools/fuzz/run.sh [NAME ...]      FUZZ_SECONDS=600 BUILD=build-fuzz tools/fuzz/run.sh
# Needs Debian's clang, libclang-rt-14-dev and libomp-dev (apt-get install clang
# libclang-rt-14-dev libomp-dev).
set -eu
cd "$(dirname "$0")/../.."
B=${BUILD:-build-fuzz}
S=${FUZZ_SECONDS:-60}
F="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
# The library links with --no-undefined, so it takes the sanitizers' shared runtime, and so
# must the fuzzers (one runtime per process).
RT=$(dirname "$(clang -print-file-name=libclang_rt.asan-x86_64.so)")
L="-fsanitize=address,undefined -shared-libsan -Wl,-rpath,$RT"
cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DHYB_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug \
      -DHYB_WERROR=OFF -DCMAKE_C_FLAGS="$F" -DCMAKE_SHARED_LINKER_FLAGS="$L" >/dev/null
cmake --build "$B" -j"$(nproc)" --target hyblas >/dev/null
names=${*:-$(cd tools/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//' | grep -v '^replay$')}
for n in $names; do
    # --export-dynamic: a harness's own xerbla_ is the one the real library calls.
    clang $F $L -fsanitize=fuzzer -Iinclude -Itools/fuzz "tools/fuzz/fuzz_$n.c" -L"$B" -lhyblas -lm \
          -ldl -Wl,--export-dynamic -Wl,-rpath,"$PWD/$B" -o "$B/fuzz_$n"
    # A harness's own settings: tools/fuzz/NAME.env, NAME=VALUE lines.
    own=""
    if [ -f "tools/fuzz/$n.env" ]; then own=$(grep -E '^[A-Z_0-9]+=' "tools/fuzz/$n.env" | tr '\n' ' '); fi
    mkdir -p "$B/corpus-$n"
    if [ -f "tools/fuzz/corpus/$n.corpus" ]; then
        python3 tools/fuzz/corpus.py unpack "tools/fuzz/corpus/$n.corpus" "$B/corpus-$n" >/dev/null
    fi
    echo "fuzz_$n: $S s"
    # The simulated device, so that the device paths run too; one thread keeps runs
    # comparable.
    # shellcheck disable=SC2086 # $own is NAME=VALUE words
    (cd "$B" && env HYBLAS_DEVICE=sim HYBLAS_SIM_MEM=256M OMP_NUM_THREADS=1 $own \
        ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
        "./fuzz_$n" -max_total_time="$S" -rss_limit_mb=4096 -print_final_stats=1 "corpus-$n")
done
