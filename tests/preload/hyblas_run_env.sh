#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What hyblas-run changes in the CPU library's environment: OpenBLAS's thread
# timeout only where a device can be in use (a CUDA device, or the simulated one),
# never a value the user set.
#   hyblas_run_env.sh HYBLAS_RUN
set -u
run=$1
fail=0

# The timeout the program sees ("unset" when it has none), run under hyblas-run
# with the given environment changes and, after "--", hyblas-run's own options.
seen() {
    vars="" opts=""
    while [ $# -gt 0 ] && [ "$1" != -- ]; do vars="$vars $1"; shift; done
    [ $# -gt 0 ] && shift
    opts="$*"
    # shellcheck disable=SC2086 # the lists are meant to split into words
    env -u OPENBLAS_THREAD_TIMEOUT -u HYBLAS_MODE -u HYBLAS_ROUTINE_MODE -u HYBLAS_DEVICE \
        -u CUDA_VISIBLE_DEVICES $vars \
        "$run" --no-report $opts -- sh -c 'echo "${OPENBLAS_THREAD_TIMEOUT-unset}"'
}
expect() {
    want=$1 what=$2
    shift 2
    got=$(seen "$@")
    if [ "$got" = "$want" ]; then
        echo "ok: $what: $got"
    else
        echo "FAIL: $what: OPENBLAS_THREAD_TIMEOUT is '$got', expected '$want'" >&2
        fail=1
    fi
}

# Whether this machine has a CUDA device node (the script's own cheap test).
device=0
for node in /dev/nvidia[0-9]* /dev/dxg; do
    [ -c "$node" ] && device=1
done

if [ "$device" = 0 ]; then
    expect unset "no device, auto mode"
    expect unset "no device, gpu mode" HYBLAS_MODE=gpu
else
    expect 18 "a device, auto mode"
    expect 18 "a device, gpu mode" HYBLAS_MODE=gpu
    expect 18 "a device, cpu mode with a routine on the device" HYBLAS_MODE=cpu \
        HYBLAS_ROUTINE_MODE=dgemm=gpu
fi
# On any machine: the simulated device is a device in use (its work runs on the host's cores).
expect 18 "the simulated device" HYBLAS_MODE=gpu HYBLAS_DEVICE=sim
expect 18 "the simulated device, auto mode" HYBLAS_DEVICE=sim
# On any machine: no device in use, nothing changed.
expect unset "cpu mode" HYBLAS_MODE=cpu
expect unset "cpu mode (--mode)" -- --mode cpu
expect unset "cpu mode, routines on the CPU" HYBLAS_MODE=cpu HYBLAS_ROUTINE_MODE=dgemm=cpu
expect unset "the simulated device, cpu mode" HYBLAS_MODE=cpu HYBLAS_DEVICE=sim
expect unset "device none" HYBLAS_DEVICE=none
expect unset "every device hidden (empty list)" CUDA_VISIBLE_DEVICES=
expect unset "every device hidden (-1)" CUDA_VISIBLE_DEVICES=-1
# The user's own setting is kept, whatever the machine.
expect 0 "the user's setting" OPENBLAS_THREAD_TIMEOUT=0
expect 7 "the user's setting, gpu mode" OPENBLAS_THREAD_TIMEOUT=7 -- --mode gpu
# And LD_PRELOAD still names hyblas.
pre=$(env -u LD_PRELOAD "$run" --no-report -- sh -c 'echo "$LD_PRELOAD"')
case "$pre" in
    *libhyblas.so*) echo "ok: LD_PRELOAD=$pre" ;;
    *) echo "FAIL: LD_PRELOAD is '$pre'" >&2; fail=1 ;;
esac
[ "$fail" = 0 ] && echo "hyblas_run_env: PASSED"
exit $fail
