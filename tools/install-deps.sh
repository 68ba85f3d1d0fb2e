#!/bin/sh
# tools/install-deps.sh - installs, from Debian 12's archive, everything the
# build, the tests, the examples and the benchmarks need, for both MPIs: Open
# MPI (the default) and MPICH (make MPI=mpich), each with its ScaLAPACK (the
# reference BLACS the tests compare with) and the official BLACS testers
# (scalapack-mpi-test ships them built for both); libsimgrid-dev and time
# for the simulated runs of make sim; cmake and g++ for the checks of
# the CMake package and the C++ header, groff for the manual pages, git
# for make dist; libopenblas0-serial, the BLAS of make app-compare
# (ScaLAPACK's own drivers on both BLACS).  Run as root.
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
    cmake g++ groff-base git \
    libopenblas0-serial

# libopenblas0-serial makes itself the system's BLAS and LAPACK (Debian's
# alternatives, in auto mode); make app-compare picks it per run through
# LD_LIBRARY_PATH instead, and everything else here is built and tested on
# the reference BLAS: put that back (a choice made by hand is left alone).
arch=$(gcc -print-multiarch)
for lib in blas lapack; do
    alt=lib$lib.so.3-$arch
    if update-alternatives --query "$alt" 2>/dev/null | grep -q '^Status: auto'; then
        update-alternatives --set "$alt" "/usr/lib/$arch/$lib/lib$lib.so.3"
    fi
done
