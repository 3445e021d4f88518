#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run app_mkl_sparse with the MKL of MKL_DIR (tools/deps.sh --mkl puts one there) under
# hyblas, and check hyblas's trace: in cpu mode every product ran MKL's own code (and equals
# MKL's bit for bit); on the device every product matches MKL's and the device was used.
#   mkl_check.sh MKL_DIR APP TRACE cpu|device
# Exit 77 when there is no MKL with the legacy sparse names.
set -u
dir=$1 app=$2 trace=$3 mode=$4
lib=
for cand in "$dir"/libmkl_rt.so.2 "$dir"/libmkl_rt.so.*; do
    [ -e "$cand" ] && { lib=$cand; break; }
done
if [ -z "$lib" ]; then
    echo "mkl_check: no libmkl_rt in $dir (tools/deps.sh --mkl installs MKL from PyPI): skipped"
    exit 77
fi
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# One MKL thread: the same inputs give the same sums on every call.
export MKL_THREADING_LAYER=SEQUENTIAL MKL_INTERFACE_LAYER=LP64
rm -f "$trace"
if [ "$mode" = cpu ]; then
    HYBLAS_TRACE=$trace "$app" "$lib" --same
else
    HYBLAS_TRACE=$trace "$app" "$lib"
fi
rc=$?
[ $rc -eq 0 ] || exit $rc
fail=0
if [ ! -s "$trace" ]; then
    echo "mkl_check: FAIL: hyblas wrote no trace line (the calls did not reach its dispatch)" >&2
    exit 1
fi
names="mkl_cspblas_dcoogemv mkl_dcoogemv mkl_cspblas_dcsrgemv mkl_dcsrgemv
       mkl_cspblas_scoogemv mkl_scoogemv mkl_cspblas_scsrgemv mkl_scsrgemv"
for n in $names; do
    total=$(grep -c "^$n " "$trace")
    total=${total:-0}
    if [ "$total" -eq 0 ]; then
        echo "mkl_check: FAIL: no trace line of $n" >&2; fail=1; continue
    fi
    if [ "$mode" = cpu ]; then
        other=$(grep "^$n " "$trace" | grep -vc " cpu=mkl")
        other=${other:-0}
        if [ "$other" -ne 0 ]; then
            echo "mkl_check: FAIL: $other of $total calls of $n did not run MKL's routine" >&2
            grep "^$n " "$trace" | grep -v " cpu=mkl" | head -3 >&2
            fail=1
        else
            echo "mkl_check: ok   $n: $total calls, every one on MKL's own routine"
        fi
    else
        dev=$(grep "^$n " "$trace" | grep -vc " path=cpu ")
        dev=${dev:-0}
        if [ "$dev" -eq 0 ]; then
            echo "mkl_check: FAIL: no call of $n used the device" >&2; fail=1
        else
            echo "mkl_check: ok   $n: $dev of $total calls on the device"
        fi
    fi
done
[ $fail -eq 0 ] && echo "mkl_check: PASSED ($mode)"
exit $fail
