#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian 12 packages hyblas needs to build, test and run its
# main job, if any is missing (nothing is downloaded from anywhere else).
set -eu
PKGS="build-essential cmake pkg-config python3 libopenblas-dev libopenblas0-pthread liblapacke-dev
      liblapack-dev libcunit1-dev libblas-test liblapack-test hpcc python3-numpy valgrind libzfp-dev"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "hyblas: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
