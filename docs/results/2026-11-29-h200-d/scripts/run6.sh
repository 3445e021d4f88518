#!/bin/bash
# experiment: which host-memory registrations and pinned allocations the library makes during runs
# (libhyblas_cuda built with churn-log.diff, staged in .stage/ch with both benchmarks)
O=${1:-/tmp/r6}; mkdir -p $O
S=$(pwd)/.stage
[ -f $S/ch/libhyblas_cuda.so ] || gunzip -c $S/ch/libhyblas_cuda.so.x.gz > $S/ch/libhyblas_cuda.so
export HYBLAS_PROFILE=$O/hyb.profile HYB_X_CHURN_LOG=1
date > $O/date.txt
$S/hyblas-calibrate > $O/calibrate.txt 2>&1
read -r H2D D2H BIDIR < <(awk '$1 == "h2d" && $2 == "pinned" { print $3, $7, $10; exit }' $O/calibrate.txt)
LD_LIBRARY_PATH=$S/ch:$LD_LIBRARY_PATH $S/ch/hyb_bench_stencil_ooc --set acoustic --budgets 17179869184 --schemes shared --plans 10:4 --no-cpu --h2d $H2D --d2h $D2H --bidir $BIDIR > $O/stencil.txt 2>&1
echo "stencil exit $?"; grep -v '^busscan' $O/stencil.txt | grep -n 'churn\|^row\|^sweep\|warm-up' | awk '{print substr($0,1,160)}' | head -60
LD_LIBRARY_PATH=$S/ch:$LD_LIBRARY_PATH timeout 200 $S/ch/hyb_bench_spmv_calls --matrix stencil27 --max-calls 10 --per-call > $O/spmv.txt 2>&1
echo "spmv exit $?"; grep -c churn $O/spmv.txt; grep 'churn\|^call gpu\|^call auto\|resident device call' $O/spmv.txt | awk '{print substr($0,1,140)}' | head -150
