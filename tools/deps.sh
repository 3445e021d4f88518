#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian 12 packages hyblas needs to build, test and run its
# main job, if any is missing (nothing is downloaded from anywhere else).
#   tools/deps.sh                 the Debian packages
#   tools/deps.sh --mkl [VENV]    also Intel MKL from PyPI into the virtual environment VENV
#                                 (default build/mkl-venv, where the tests look for it): the
#                                 MKL sparse tests compare hyblas with it. Kept once there;
#                                 offline, the tests that need it are skipped.
set -eu
mkl_venv=
if [ "${1:-}" = "--mkl" ]; then
    mkl_venv=${2:-build/mkl-venv}
fi
# Intel MKL from PyPI (about 200 MB), once. oneMKL 2025 removed the legacy sparse names
# (mkl_cspblas_?coogemv and friends) that hyblas intercepts: the 2024 releases have them.
install_mkl() {
    if ls "$mkl_venv"/lib/libmkl_rt.so.2 >/dev/null 2>&1; then return 0; fi
    echo "hyblas: installing Intel MKL 2024 from PyPI into $mkl_venv"
    if python3 -m venv "$mkl_venv" && "$mkl_venv/bin/pip" install -q --disable-pip-version-check "mkl<2025"; then
        return 0
    fi
    echo "hyblas: MKL could not be installed (offline?): the MKL sparse tests will be skipped" >&2
    rm -rf "$mkl_venv"
}
PKGS="build-essential cmake pkg-config python3 libopenblas-dev libopenblas0-pthread liblapacke-dev
      liblapack-dev libcunit1-dev libblas-test liblapack-test hpcc python3-numpy python3-venv valgrind libzfp-dev
      clang libomp-dev"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -z "$missing" ]; then
    [ -n "$mkl_venv" ] && install_mkl
    exit 0
fi
echo "hyblas: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
[ -n "$mkl_venv" ] && install_mkl
exit 0
