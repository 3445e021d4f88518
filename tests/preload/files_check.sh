#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The files around a program under hyblas (app_files).
#
# files_check.sh preload LIBHYBLAS APP_FILES: the program with libhyblas preloaded
#   fifo      a FIFO named as configuration, profile, nvblas.conf, trace or log
#             file: the program runs to its end (no wait for a writer or a
#             reader) and one warning names it
#   links     trace and log paths that are symbolic links to other files:
#             those files are untouched
#   fd-reuse  the program closes its inherited descriptors and opens its own
#             data file as descriptor 3: the file keeps exactly what the
#             program wrote, and the trace and the log still get their lines
#   gtsv-cpu  a dgtsv_ call on the CPU alone (mode cpu; auto without a device)
#             writes nothing beside the profile
#
# files_check.sh setuid APP_FILES_LINKED MARKER_LIB: the program linked with
#   -lhyblas, made setuid to nobody and run by root (secure execution), with
#   every hyblas setting pointing somewhere: no library named by HYBLAS_CPU_LIB
#   or HYBLAS_PLUGIN is loaded, no log, trace or profile file is written, no
#   line of a named configuration file is echoed, and the results are right.
#   Exits 77 (skip) when not run as root or where setuid does not take effect
#   (nosuid).
set -u
case=$1
dir=$(mktemp -d /tmp/hyb_files_check.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fails=0

fail() {
    echo "files_check: FAIL: $*" >&2
    fails=$((fails + 1))
}

# run NAME VAR=VALUE... -- PROGRAM ARGS: at most 60 s; stdout and stderr in
# $dir/NAME.out and $dir/NAME.err, shown afterwards.
run() {
    name=$1
    shift
    vars=""
    while [ "$1" != "--" ]; do
        vars="$vars $1"
        shift
    done
    shift
    rc=0
    # shellcheck disable=SC2086
    timeout 60 env $vars "$@" >"$dir/$name.out" 2>"$dir/$name.err" || rc=$?
    cat "$dir/$name.out" "$dir/$name.err" >&2
    if [ "$rc" -eq 124 ]; then
        fail "$name: the program hung (killed after 60 s)"
    elif [ "$rc" -ne 0 ]; then
        fail "$name: exit status $rc"
    fi
}

preload_cases() {
    lib=$2
    app=$3
    # ---------------------------------------------------------------- fifo
    mkfifo "$dir/fifo"
    for var in HYBLAS_CONFIG_FILE HYBLAS_PROFILE NVBLAS_CONFIG_FILE HYBLAS_TRACE HYBLAS_LOG_FILE; do
        run "fifo.$var" "$var=$dir/fifo" HYBLAS_MODE=cpu HYBLAS_LOG_LEVEL=3 -- LD_PRELOAD="$lib" "$app"
        n=$(grep -c "$var=.*FIFO" "$dir/fifo.$var.err")
        [ "$n" -eq 1 ] || fail "fifo: $n warnings naming $var and the FIFO, expected 1"
    done

    # ---------------------------------------------------------------- links
    printf 'precious trace\n' >"$dir/victim.trace"
    printf 'precious log\n' >"$dir/victim.log"
    ln -s "$dir/victim.trace" "$dir/trace.link"
    ln -s "$dir/victim.log" "$dir/log.link"
    run links HYBLAS_MODE=cpu HYBLAS_LOG_LEVEL=3 "HYBLAS_TRACE=$dir/trace.link" "HYBLAS_LOG_FILE=$dir/log.link" -- LD_PRELOAD="$lib" "$app"
    [ "$(cat "$dir/victim.trace")" = "precious trace" ] || fail "links: the file behind the trace link was written"
    [ "$(cat "$dir/victim.log")" = "precious log" ] || fail "links: the file behind the log link was written"
    grep -q "HYBLAS_TRACE=.*symbolic link" "$dir/links.err" || fail "links: no warning about the trace link"
    grep -q "HYBLAS_LOG_FILE=.*symbolic link" "$dir/links.err" || fail "links: no warning about the log link"

    # ---------------------------------------------------------------- fd-reuse
    run fd-reuse HYBLAS_MODE=cpu HYBLAS_LOG_LEVEL=3 "HYBLAS_TRACE=$dir/trace" "HYBLAS_LOG_FILE=$dir/log" \
        -- LD_PRELOAD="$lib" "$app" --fd-reuse "$dir/data"
    n=$(cat "$dir/trace" 2>/dev/null | grep -c '^dgemm_ ')
    [ "$n" -eq 3 ] || fail "fd-reuse: $n dgemm_ lines in the trace, expected 3"
    n=$(cat "$dir/log" 2>/dev/null | grep -c '^\[hyblas ')
    [ "$n" -ge 1 ] || fail "fd-reuse: no line in the log file"
    n=$(grep -c '^\[hyblas ' "$dir/fd-reuse.err")
    [ "$n" -eq 0 ] || fail "fd-reuse: $n log lines on stderr instead of the log file"

    # ---------------------------------------------------------------- gtsv-cpu
    mkdir "$dir/cache"
    run gtsv-cpu HYBLAS_MODE=cpu "HYBLAS_PROFILE=$dir/cache/profile" -- LD_PRELOAD="$lib" "$app" --gtsv 300000
    run gtsv-nodev HYBLAS_MODE=auto HYBLAS_DEVICE=none HYBLAS_GTSV_MIN_N=1000 "HYBLAS_PROFILE=$dir/cache/profile" \
        -- LD_PRELOAD="$lib" "$app" --gtsv 300000
    left=$(ls -A "$dir/cache")
    [ -z "$left" ] || fail "gtsv-cpu: a call on the CPU alone wrote $left"
}

setuid_case() {
    app=$2
    marker_lib=$3
    [ "$(id -u)" -eq 0 ] || { echo "files_check: skipped: needs root"; exit 77; }
    nobody=65534
    # The program's directory and its output directory: reachable and writable by
    # the effective user, so that anything hyblas wrongly wrote would appear.
    chmod 0755 "$dir"
    mkdir "$dir/out"
    chmod 0777 "$dir/out"
    cp "$app" "$dir/app"
    chown "$nobody" "$dir/app"
    chmod 4755 "$dir/app"
    secure=$("$dir/app" --secure)
    case "$secure" in
        "AT_SECURE=1 euid=$nobody") ;;
        AT_SECURE=0*) echo "files_check: skipped: setuid did not take effect ($secure)"; exit 77 ;;
        *) echo "files_check: FAIL: the setuid program does not run ($secure)" >&2; exit 1 ;;
    esac

    printf 'HYBLAS_MODE=gpu\nroot:SECRET-SHADOW-LINE:19000:0:99999:7:::\n' >"$dir/out/secret.conf"
    printf 'NVBLAS_TILE_DIM 64\nNVBLAS_SECRET_LINE\n' >"$dir/out/secret.nv"
    printf 'HYBLAS_CPU_LIB=%s\nSECRET-PROFILE-LINE = 1\n' "$marker_lib" >"$dir/out/profile"
    chmod 0644 "$dir/out/secret.conf" "$dir/out/secret.nv" "$dir/out/profile"
    before=$(ls -A "$dir/out" | sort | tr '\n' ' ')

    # The setuid program with every setting pointing into out/.
    common="HYB_TEST_MARKER=$dir/out/marker HYBLAS_CPU_LIB=$marker_lib HYBLAS_PLUGIN=$marker_lib
            HYBLAS_MODE=gpu HYBLAS_DEVICE=cuda HYBLAS_LOG_LEVEL=3 HYBLAS_GTSV_MIN_N=1000
            HYBLAS_TRACE=$dir/out/trace HYBLAS_PROFILE=$dir/out/profile
            HYBLAS_CONFIG_FILE=$dir/out/secret.conf NVBLAS_CONFIG_FILE=$dir/out/secret.nv"
    # With a log file, and with the log on stderr (where echoed lines would show).
    # shellcheck disable=SC2086
    run logfile $common "HYBLAS_LOG_FILE=$dir/out/log" -- "$dir/app" --gtsv 300000
    # shellcheck disable=SC2086
    run stderr $common -- "$dir/app" --gtsv 300000
    [ ! -e "$dir/out/marker" ] || fail "a library named by HYBLAS_CPU_LIB or HYBLAS_PLUGIN was loaded"
    after=$(ls -A "$dir/out" | sort | tr '\n' ' ')
    [ "$after" = "$before" ] || fail "files were created: before [$before] after [$after]"
    if grep -q SECRET "$dir"/*.err "$dir"/*.out; then fail "a line of a named file was echoed"; fi
    grep -q 'setuid' "$dir/stderr.err" || fail "no warning that the settings are ignored"
}

case "$case" in
    preload) preload_cases "$@" ;;
    setuid) setuid_case "$@" ;;
    *) echo "usage: files_check.sh preload LIBHYBLAS APP_FILES | setuid APP_FILES_LINKED MARKER_LIB" >&2; exit 2 ;;
esac
if [ "$fails" -ne 0 ]; then
    echo "files_check: $fails check(s) failed" >&2
    exit 1
fi
echo "files_check: all checks passed"
