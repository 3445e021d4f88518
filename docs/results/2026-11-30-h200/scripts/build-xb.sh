#!/bin/bash
# Builds the experiment benchmark of run 3 here (not on the GPU machine): the stencil
# benchmark with bench-pinned.diff and pinned.c, into .stage/xb.
set -e
S=$(dirname "$0"); T=$(mktemp -d)
cp tools/bench/hyb_bench_stencil_ooc.c $T/ && patch -s -d $T < $S/bench-pinned.diff
mkdir -p .stage/xb
cc -O3 -DNDEBUG -fopenmp -std=gnu11 -Iinclude -I/usr/local/cuda/include $T/hyb_bench_stencil_ooc.c \
  $S/pinned.c -o .stage/xb/hyb_bench_stencil_ooc -Wl,-rpath,'$ORIGIN/..' -L.stage -l:libhyblas.so.0 \
  -L/usr/local/cuda/lib -lcudart_static -ldl -lrt -lpthread -lm
strip --strip-debug .stage/xb/hyb_bench_stencil_ooc
