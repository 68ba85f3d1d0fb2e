#!/bin/sh
# tools/install-deps.sh - installs, from Debian 12's archive, everything the
# build, the tests, the examples and the benchmarks need (libsimgrid-dev and
# time: the simulated runs of make sim).  Run as root.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    make gcc gfortran libc6-dev \
    openmpi-bin libopenmpi-dev \
    libscalapack-openmpi-dev scalapack-mpi-test scalapack-test-common \
    libblas-dev liblapack-dev \
    gnuplot-nox python3 valgrind clang-format \
    libsimgrid-dev time
