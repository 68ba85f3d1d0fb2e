# test/ilp64-cases.sh - the ILP64 test cases, sourced by run-mpi.sh
# (MPI_CASES=test/ilp64-cases.sh; make ilp64-tests), in the same syntax as
# test/mpi-cases.sh.  The programs (Makefile, "ILP64 tests"):
#   t_fortran  test/mpi/t_fortran.f90 compiled with -fdefault-integer-8,
#              linked with the ILP64 library
#   t_big      test/ilp64/t_big.c with -DBLACS_ILP64: LDA, LDIA and integer
#              elements beyond 2^31, and a grid size MPI cannot hold
#   t_wide     test/ilp64/t_wide.f90 with -fdefault-integer-8 linked with
#              the LP64 library: the misuse it detects

for np in 1 2 4 5; do pass $np t_fortran; done
pass 2 t_big
fail 2 "BLACS ERROR 'BLACS_GRIDINIT: NPROW = 4294967297 does not fit in 32 bits" t_big nprow
fail 2 "BLACS ERROR 'Cdgsum2d: CDEST = 4294967297 does not fit in 32 bits" t_big cdest
fail 2 "BLACS_GRIDMAP: USERMAP\(1,2\) = 0: rank 0 is placed twice \(every other entry read is 0: if the caller was compiled with 64-bit INTEGER.*ILP64 library" t_wide gridmap
warn 2 "BLACS WARNING 'BLACS_SET: illegal message-ID range \[100, 0\].*64-bit INTEGER.*ILP64 library" t_wide msgids
