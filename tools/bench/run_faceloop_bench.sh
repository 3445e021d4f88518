#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The face-loop benchmark of issue 24 (seed 004), one run; builds nothing. Runs, from the
# staged binaries in $STAGE:
#   hyb_bench_faceloop   the CPU side through the public API: serial and OpenMP face loops
#                        on the seed's 24 cases (and --large meshes), checked, with the
#                        planner's predictions  -> $OUT/faceloop_cpu.csv
#   gpu_check_faceloop   the CUDA launchers against the CPU face loop: vanilla, remapped,
#                        register-limited; registers, occupancy, kernel times, per-step and
#                        resident steps  -> $OUT/faceloop_gpu.txt (skipped: exit 77)
#   gpu_bench_memmodel   the memory-model microbenchmark beside the seed's Table 4.2
#                        -> $OUT/memmodel.txt (skipped: exit 77)
#   hyb_faceloop_devcheck  the device path through the public API (the library's driver on
#                        the device HYBLAS_DEVICE selects, the CUDA plugin by default): every
#                        form in both transfer schemes against the CPU, times from the
#                        statistics -> $OUT/faceloop_device.csv (skipped: exit 77)
# and prints the tables. Usage: tools/bench/run_faceloop_bench.sh [--quick] [--large]
#   --quick   the smallest seed cases only, two steps (a functional check; runs anywhere)
#   --large   also the 10^5 / 10^6-face meshes on the CPU side
# Exit status: the first failing program's (77 alone counts as success).
set -u
OUT=${OUT:-/tmp/out}
S=${STAGE:-$PWD/.stage}
mkdir -p "$OUT"
ARGS=
[ "${1:-}" = "--quick" ] && ARGS=--quick
[ "${1:-}" = "--large" ] && ARGS=--large
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
echo "# machine: ${GPU:-no GPU}; $(nproc) cores; $(date -u +%F); $(uname -r)" > "$OUT/faceloop_cpu.csv"
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
rc=0
if [ ! -x "$S/hyb_bench_faceloop" ]; then
    echo "run_faceloop_bench.sh: $S/hyb_bench_faceloop not found (build first)" >&2
    exit 2
fi
"$S/hyb_bench_faceloop" $ARGS >> "$OUT/faceloop_cpu.csv" || rc=$?
echo "== CPU face loop ($OUT/faceloop_cpu.csv): case, equation, degree, faces, serial / OpenMP us per face loop, AUTO"
grep -v '^#' "$OUT/faceloop_cpu.csv" | cut -d, -f1-4,6,7,13,14,24 | column -t -s, 2>/dev/null || grep -v '^#' "$OUT/faceloop_cpu.csv"
for prog in gpu_check_faceloop gpu_bench_memmodel hyb_faceloop_devcheck; do
    case $prog in
        gpu_check_faceloop) out=$OUT/faceloop_gpu.txt ;;
        gpu_bench_memmodel) out=$OUT/memmodel.txt ;;
        *) out=$OUT/faceloop_device.csv ;;
    esac
    if [ ! -x "$S/$prog" ]; then
        echo "== $prog: not built (CUDA off)"
        continue
    fi
    if [ $prog = hyb_faceloop_devcheck ]; then
        "$S/$prog" $ARGS > "$out" 2>&1
    else
        "$S/$prog" $( [ "$ARGS" = --quick ] && echo --quick ) > "$out" 2>&1
    fi
    prc=$?
    echo "== $prog ($out), exit $prc"
    cat "$out"
    if [ $prc -ne 0 ] && [ $prc -ne 77 ] && [ $rc -eq 0 ]; then rc=$prc; fi
done
exit $rc
