! test/mangling/mangling.F90 - one Fortran program that calls the BLACS by
! whichever names its compiler's mangling gives; test/mangling.sh builds it
! four ways and runs each:
!   (default)            blacs_gridinit_  dgsum2d_   gfortran's own, the reference's
!   -fno-underscoring    blacs_gridinit   dgsum2d    IBM XL, HP
!   -fsecond-underscore  blacs_gridinit__ dgsum2d_   f2c, g77
!   -DUPPER              BLACS_GRIDINIT   DGSUM2D    Cray, old Intel: through
!                        BIND(C) interfaces, as gfortran cannot emit upper case
! On a 2 x (NP/2) grid (NP even): the support routines, a point-to-point ring,
! an integer broadcast, a double sum, an absolute max with its location, a
! barrier, the wall clock and a system handle, every result checked.  Rank 0
! prints "mangling VARIANT: passed on NP processes" (VARIANT: the first
! argument) when every process passed.
program mangling
#ifdef UPPER
  use iso_c_binding, only: c_int, c_double, c_char
#endif
  implicit none
#ifdef UPPER
  interface
     subroutine blacs_pinfo(iam, np) bind(c, name='BLACS_PINFO')
       import :: c_int
       integer(c_int) :: iam, np
     end subroutine blacs_pinfo
     subroutine blacs_get(ctxt, what, val) bind(c, name='BLACS_GET')
       import :: c_int
       integer(c_int) :: ctxt, what, val
     end subroutine blacs_get
     subroutine blacs_gridinit(ctxt, order, nprow, npcol) bind(c, name='BLACS_GRIDINIT')
       import :: c_int, c_char
       integer(c_int) :: ctxt, nprow, npcol
       character(kind=c_char) :: order(*)
     end subroutine blacs_gridinit
     subroutine blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol) bind(c, name='BLACS_GRIDINFO')
       import :: c_int
       integer(c_int) :: ctxt, nprow, npcol, myrow, mycol
     end subroutine blacs_gridinfo
     function blacs_pnum(ctxt, prow, pcol) bind(c, name='BLACS_PNUM')
       import :: c_int
       integer(c_int) :: ctxt, prow, pcol, blacs_pnum
     end function blacs_pnum
     subroutine blacs_pcoord(ctxt, pnum, prow, pcol) bind(c, name='BLACS_PCOORD')
       import :: c_int
       integer(c_int) :: ctxt, pnum, prow, pcol
     end subroutine blacs_pcoord
     subroutine dgesd2d(ctxt, m, n, a, lda, rdest, cdest) bind(c, name='DGESD2D')
       import :: c_int, c_double
       integer(c_int) :: ctxt, m, n, lda, rdest, cdest
       real(c_double) :: a(*)
     end subroutine dgesd2d
     subroutine dgerv2d(ctxt, m, n, a, lda, rsrc, csrc) bind(c, name='DGERV2D')
       import :: c_int, c_double
       integer(c_int) :: ctxt, m, n, lda, rsrc, csrc
       real(c_double) :: a(*)
     end subroutine dgerv2d
     subroutine igebs2d(ctxt, scope, top, m, n, a, lda) bind(c, name='IGEBS2D')
       import :: c_int, c_char
       integer(c_int) :: ctxt, m, n, lda, a(*)
       character(kind=c_char) :: scope(*), top(*)
     end subroutine igebs2d
     subroutine igebr2d(ctxt, scope, top, m, n, a, lda, rsrc, csrc) bind(c, name='IGEBR2D')
       import :: c_int, c_char
       integer(c_int) :: ctxt, m, n, lda, a(*), rsrc, csrc
       character(kind=c_char) :: scope(*), top(*)
     end subroutine igebr2d
     subroutine dgsum2d(ctxt, scope, top, m, n, a, lda, rdest, cdest) bind(c, name='DGSUM2D')
       import :: c_int, c_double, c_char
       integer(c_int) :: ctxt, m, n, lda, rdest, cdest
       real(c_double) :: a(*)
       character(kind=c_char) :: scope(*), top(*)
     end subroutine dgsum2d
     subroutine igsum2d(ctxt, scope, top, m, n, a, lda, rdest, cdest) bind(c, name='IGSUM2D')
       import :: c_int, c_char
       integer(c_int) :: ctxt, m, n, lda, rdest, cdest, a(*)
       character(kind=c_char) :: scope(*), top(*)
     end subroutine igsum2d
     subroutine dgamx2d(ctxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest) bind(c, name='DGAMX2D')
       import :: c_int, c_double, c_char
       integer(c_int) :: ctxt, m, n, lda, ra(*), ca(*), ldia, rdest, cdest
       real(c_double) :: a(*)
       character(kind=c_char) :: scope(*), top(*)
     end subroutine dgamx2d
     subroutine blacs_barrier(ctxt, scope) bind(c, name='BLACS_BARRIER')
       import :: c_int, c_char
       integer(c_int) :: ctxt
       character(kind=c_char) :: scope(*)
     end subroutine blacs_barrier
     function dwalltime00() bind(c, name='DWALLTIME00')
       import :: c_double
       real(c_double) :: dwalltime00
     end function dwalltime00
     function sys2blacs_handle(sys) bind(c, name='SYS2BLACS_HANDLE')
       import :: c_int
       integer(c_int) :: sys, sys2blacs_handle
     end function sys2blacs_handle
     subroutine blacs_gridexit(ctxt) bind(c, name='BLACS_GRIDEXIT')
       import :: c_int
       integer(c_int) :: ctxt
     end subroutine blacs_gridexit
     subroutine blacs_exit(notdone) bind(c, name='BLACS_EXIT')
       import :: c_int
       integer(c_int) :: notdone
     end subroutine blacs_exit
  end interface
#else
  integer, external :: blacs_pnum, sys2blacs_handle
  double precision, external :: dwalltime00
#endif
  integer :: iam, np, sys, ictxt, nprow, npcol, myrow, mycol, r, c, prev, next
  integer :: fails, iv(4), ra(1), ca(1), want(4), k
  double precision :: dv(3), dr(3), x(2), a(1), t0, t1
  character(len=32) :: variant

  call get_command_argument(1, variant)
  fails = 0
  call blacs_pinfo(iam, np)
  call blacs_get(0, 0, sys)
  if (sys2blacs_handle(sys) /= sys) call fail('SYS2BLACS_HANDLE')
  ictxt = sys
  call blacs_gridinit(ictxt, 'Row', 2, np / 2)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  if (nprow /= 2 .or. npcol /= np / 2 .or. myrow /= iam / npcol .or. mycol /= mod(iam, npcol)) &
       call fail('BLACS_GRIDINFO')
  if (blacs_pnum(ictxt, myrow, mycol) /= iam) call fail('BLACS_PNUM')
  call blacs_pcoord(ictxt, iam, r, c)
  if (r /= myrow .or. c /= mycol) call fail('BLACS_PCOORD')

  ! a ring by process number: send to the next, receive from the previous
  next = mod(iam + 1, np)
  prev = mod(iam + np - 1, np)
  dv = [dble(iam), 10d0 * iam, 100d0 * iam]
  call blacs_pcoord(ictxt, next, r, c)
  call dgesd2d(ictxt, 3, 1, dv, 3, r, c)
  call blacs_pcoord(ictxt, prev, r, c)
  call dgerv2d(ictxt, 3, 1, dr, 3, r, c)
  if (any(dr /= [dble(prev), 10d0 * prev, 100d0 * prev])) call fail('DGESD2D/DGERV2D')

  ! an integer broadcast from {1,0} to the grid
  want = [7, -8, 9, 100 + np]
  iv = 0
  if (myrow == 1 .and. mycol == 0) then
     iv = want
     call igebs2d(ictxt, 'All', ' ', 2, 2, iv, 2)
  else
     call igebr2d(ictxt, 'All', ' ', 2, 2, iv, 2, 1, 0)
  end if
  if (any(iv /= want)) call fail('IGEBS2D/IGEBR2D')

  ! a sum over the grid, left on every process
  x = [dble(iam + 1), 2d0 * (iam + 1)]
  call dgsum2d(ictxt, 'All', ' ', 2, 1, x, 2, -1, -1)
  k = np * (np + 1) / 2
  if (x(1) /= k .or. x(2) /= 2 * k) call fail('DGSUM2D')

  ! the absolute max along each row, and where it is: the last column
  a(1) = -dble((mycol + 1) * (myrow + 1))
  call dgamx2d(ictxt, 'Row', ' ', 1, 1, a, 1, ra, ca, 1, -1, -1)
  if (a(1) /= -dble(npcol * (myrow + 1)) .or. ra(1) /= myrow .or. ca(1) /= npcol - 1) call fail('DGAMX2D')

  ! the wall clock (MPI_Wtime: any origin) across a barrier: moves forward,
  ! and by less than a minute
  t0 = dwalltime00()
  call blacs_barrier(ictxt, 'All')
  t1 = dwalltime00()
  if (.not. (t1 >= t0 .and. t1 - t0 < 60d0)) call fail('DWALLTIME00')

  iv(1) = fails
  call igsum2d(ictxt, 'All', ' ', 1, 1, iv, 1, -1, -1)
  if (iam == 0 .and. iv(1) == 0) print '(a, a, a, i0, a)', 'mangling ', trim(variant), ': passed on ', np, ' processes'
  call blacs_gridexit(ictxt)
  call blacs_exit(0)

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a, i0, a, a)', 'process ', iam, ': FAILED ', what
    fails = fails + 1
  end subroutine fail

end program mangling
