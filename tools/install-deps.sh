#!/bin/sh
# tools/install-deps.sh - installs, from Debian 12's archive, everything the
# build, the tests, the examples and the benchmarks need, for both MPIs: Open
# MPI (the default) and MPICH (make MPI=mpich), each with its ScaLAPACK (the
# reference BLACS the tests compare with) and the official BLACS testers
# (scalapack-mpi-test ships them built for both); libsimgrid-dev and time
# for the simulated runs of make sim; cmake and g++ for the checks of
# the CMake package and the C++ header, groff for the manual pages, git
# for make dist.  Run as root.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    make gcc gfortran libc6-dev pkg-config \
    openmpi-bin libopenmpi-dev libscalapack-openmpi-dev \
    mpich libmpich-dev libscalapack-mpich-dev \
    scalapack-mpi-test scalapack-test-common \
    libblas-dev libblas64-dev liblapack-dev \
    gnuplot-nox python3 valgrind clang-format \
    libsimgrid-dev time \
    cmake g++ groff-base git
