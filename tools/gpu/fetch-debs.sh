#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run here (Debian 12, with a registry): download the packages the GPU
# machine lacks into .deb/ (git-ignored), to be carried with the run.
set -e
mkdir -p .deb && cd .deb
apt-get download hpcc libopenmpi3 openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 \
    libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 \
    libnuma1 libpsm2-2 libpsm-infinipath1 libmunge2 libopenblas0-pthread libblas3 liblapack3 \
    libblas-test liblapack-test libtmglib3 liblapacke libgfortran5 libquadmath0 libpciaccess0 \
    libxnvctrl0 libudev1 openmpi-bin
