#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The ZFP codec check and benchmark of issue 22 (part 1), one run on the GPU machine (under a
# minute; builds nothing): every test field at every rate encoded and decoded by the CUDA
# codec, bit for bit against the host codec and libzfp (when libzfp.so.1 can be opened),
# slabs in place, then encode/decode throughput on large fields (median of repetitions,
# GB/s of uncompressed data) beside a device-to-device copy; then the stage on the device
# runtime with the CUDA plugin (gpu_check_zfp_stage: slabs saved and loaded through the
# registered kernels bit for bit against the host codec, fault fallback, stage throughput).
# Writes $OUT/zfp.csv and $OUT/zfp_stage.csv (the throughput rows, with a machine line) and
# $OUT/zfp.txt (the whole report), and prints it.
#   tools/bench/run_zfp_bench.sh [--quick]
# The programs are $STAGE/gpu_check_zfp and $STAGE/gpu_check_zfp_stage (default .stage/,
# see tools/gpu/stage.sh; the stage check finds $STAGE/libhyblas_cuda.so beside it), or
# ZFP_CHECK=/path/to/gpu_check_zfp, ZFP_STAGE_CHECK=/path/to/gpu_check_zfp_stage. Exit
# status: 0 when both were bit-exact, 1 a mismatch, 77 no device.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
S=${STAGE:-$PWD/.stage}
SRC=${HYB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${ZFP_CHECK:-$S/gpu_check_zfp}
STG=${ZFP_STAGE_CHECK:-$S/gpu_check_zfp_stage}
for b in "$BIN" "$STG"; do
    if [ ! -x "$b" ]; then
        echo "run_zfp_bench.sh: $b not found (build with CUDA, then stage it or set ZFP_CHECK / ZFP_STAGE_CHECK)" >&2
        exit 2
    fi
done
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
MACHINE="${GPU:-no GPU}; $(nproc) cores; $(date -u +%F); hyblas $(cat "$S/REVISION" 2>/dev/null || (cd "$SRC" && git rev-parse --short HEAD 2>/dev/null))"
echo "# machine: $MACHINE" > "$OUT/zfp.txt"
echo "# command: $BIN ${1:-} --csv $OUT/zfp.csv.part" >> "$OUT/zfp.txt"
"$BIN" ${1:+"$1"} --csv "$OUT/zfp.csv.part" 2>&1 | tee -a "$OUT/zfp.txt"
rc=${PIPESTATUS[0]}
{ echo "# machine: $MACHINE"; cat "$OUT/zfp.csv.part" 2>/dev/null; } > "$OUT/zfp.csv"
rm -f "$OUT/zfp.csv.part"
echo "# command: $STG ${1:-} --csv $OUT/zfp_stage.csv.part" >> "$OUT/zfp.txt"
"$STG" ${1:+"$1"} --csv "$OUT/zfp_stage.csv.part" 2>&1 | tee -a "$OUT/zfp.txt"
rs=${PIPESTATUS[0]}
{ echo "# machine: $MACHINE"; cat "$OUT/zfp_stage.csv.part" 2>/dev/null; } > "$OUT/zfp_stage.csv"
rm -f "$OUT/zfp_stage.csv.part"
# a mismatch anywhere fails the run; 77 only when neither found a device
if [ "$rc" = 1 ] || [ "$rs" = 1 ]; then exit 1; fi
if [ "$rc" = 0 ] && [ "$rs" = 0 ]; then exit 0; fi
if [ "$rc" = 77 ] && [ "$rs" = 77 ]; then exit 77; fi
exit 1
