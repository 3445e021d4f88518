#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Source this on the GPU machine (no package registry there): unpacks the
# Debian packages carried in .deb/ (fetched with tools/gpu/fetch-debs.sh)
# into /tmp/deb and points the loader, Open MPI and the tests at them.
#   . tools/gpu/setup-env.sh
D=/tmp/deb
if [ ! -d $D/usr ]; then
    mkdir -p $D
    for f in .deb/*.deb; do dpkg -x "$f" $D; done
    L=$D/usr/lib/x86_64-linux-gnu
    # What Debian's alternatives would have made: BLAS/LAPACK = OpenBLAS.
    ln -sf openblas-pthread/libblas.so.3 $L/libblas.so.3
    ln -sf openblas-pthread/liblapack.so.3 $L/liblapack.so.3
    ln -sf libblas.so.3 $L/libblas.so
fi
export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu:$D/usr/lib/x86_64-linux-gnu/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$D/usr/bin:$PATH
export OPAL_PREFIX=$D/usr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export BLAS_TESTS=$D/usr/lib/x86_64-linux-gnu/blas
export HYB_REF_BLAS_DIR=$D/usr/lib/x86_64-linux-gnu/blas
