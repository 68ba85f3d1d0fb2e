# test/mpi-cases.sh - the MPI test cases, sourced by run-mpi.sh.
# pass NP PROG [ARGS] / fail NP REGEX PROG [ARGS]; see run-mpi.sh.
# SANITIZED=1 (the ASan/UBSan build) runs the cases marked "both".

if [ "${SANITIZED:-0}" = 0 ]; then
    for np in 1 2 3 4 5 6 7 8; do pass $np t_support; done
else
    pass 4 t_support
fi
