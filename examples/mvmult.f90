! examples/mvmult.f90 - the distributed matrix-vector multiply of LAWN 73,
! Appendix A, in Fortran, with today's BLACS calling sequences.
!
!   mpirun -np 4 build/examples/mvmult_f [LM [LN]]
!
! A near-square grid; each process owns an LM x LN block of A; x lives on
! process row 0 and is broadcast down the columns; b = A x by a local DGEMV
! and a DGSUM2D across each row; the three infinity norms by DGAMX2D; the
! point-to-point check of the original; and a serial check on {0,0}.
!
! The BLACS take "a matrix" as its first element, Fortran 77 style: the same
! routine receives a scalar here and an array there.  gfortran (10 and later)
! rejects a scalar and an array passed to one external routine in one file
! unless the array is passed as its first element, x(1), which sequence
! association makes the whole array; ScaLAPACK itself is built with
! -fallow-argument-mismatch instead.
program mvmult
  implicit none
  integer, external :: idamax
  double precision, external :: dasum
  integer :: lm, ln, lda, iam, nnodes, ictxt, nprow, npcol, myrow, mycol
  integer :: i, j, r, itmp1, itmp2, failed, nargs
  double precision :: norma, normx, normb, normtst, sa, sx, sb, bi, rowsum, err, tol, e
  double precision, allocatable :: a(:, :), x(:), b(:), work(:), piece(:)
  character(len=32) :: arg

  lm = 50
  nargs = command_argument_count()
  if (nargs >= 1) then
     call get_command_argument(1, arg)
     read (arg, *) lm
  end if
  ln = lm
  if (nargs >= 2) then
     call get_command_argument(2, arg)
     read (arg, *) ln
  end if
  lda = max(lm, 1)

  call blacs_pinfo(iam, nnodes)
  nprow = int(sqrt(real(nnodes)))
  npcol = nnodes / nprow
  call blacs_get(0, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  if (myrow < 0 .or. myrow >= nprow) then   ! not in the grid
     call blacs_exit(0)
     stop
  end if

  allocate (a(lda, ln), x(max(ln, 1)), b(lda), work(lda), piece(lda))
  do j = 1, ln
     do i = 1, lm
        a(i, j) = a_entry(myrow * lm + i - 1, mycol * ln + j - 1)
     end do
  end do
  norma = dinfnrm(lm, ln, a, lda, work)

  ! x lives on process row 0; every process row needs a copy
  if (myrow == 0) then
     do j = 1, ln
        x(j) = x_entry(mycol * ln + j - 1)
     end do
     call dgebs2d(ictxt, 'Column', 'Hypercube', ln, 1, x(1), ln)
  else
     call dgebr2d(ictxt, 'Column', 'Hypercube', ln, 1, x(1), ln, 0, mycol)
  end if
  normx = abs(x(idamax(ln, x, 1)))
  call dgamx2d(ictxt, 'R', 'H', 1, 1, normx, 1, itmp1, itmp2, 1, -1, 0)

  ! b = A x: local product, then the pieces are added across the row
  call dgemv('N', lm, ln, 1.0d0, a, lda, x, 1, 0.0d0, b, 1)
  call dgsum2d(ictxt, 'Row', 'Hypercube', lm, 1, b, lm, -1, 0)
  normb = abs(b(idamax(lm, b, 1)))
  call dgamx2d(ictxt, 'C', 'H', 1, 1, normb, 1, itmp1, itmp2, 1, -1, 0)

  failed = 0
  if (myrow == 0 .and. mycol == 0) then
     write (*, '(a,i0,a,i0,a,i0,a,i0)') 'mvmult_f: ', nprow, ' x ', npcol, ' grid, A is ', &
          nprow * lm, ' x ', npcol * ln
     write (*, 1000) 'A', norma
     write (*, 1000) 'x', normx
     write (*, 1000) 'b', normb
  end if

  ! the point-to-point check of LAWN 73: the corners agree on ||b||
  if (nprow > 1 .or. npcol > 1) then
     if (myrow == nprow - 1 .and. mycol == npcol - 1) then
        call dgesd2d(ictxt, 1, 1, normb, 1, 0, 0)
     else if (myrow == 0 .and. mycol == 0) then
        call dgerv2d(ictxt, 1, 1, normtst, 1, nprow - 1, npcol - 1)
        if (normtst /= normb) then
           write (*, 2000) normb, normtst
           failed = 1
        end if
     end if
  end if

  ! the serial check, on {0,0}: pieces of b come from column 0
  if (mycol == 0 .and. myrow > 0) call dgesd2d(ictxt, lm, 1, b(1), lm, 0, 0)
  if (myrow == 0 .and. mycol == 0) then
     sa = 0; sx = 0; sb = 0; err = 0
     do r = 0, nprow - 1
        if (r == 0) then
           piece(1:lm) = b(1:lm)
        else
           call dgerv2d(ictxt, lm, 1, piece(1), lm, r, 0)
        end if
        do i = 0, lm - 1
           bi = 0; rowsum = 0
           do j = 0, npcol * ln - 1
              bi = bi + a_entry(r * lm + i, j) * x_entry(j)
              rowsum = rowsum + abs(a_entry(r * lm + i, j))
           end do
           sa = max(sa, rowsum)
           sb = max(sb, abs(bi))
           e = abs(bi - piece(i + 1)) / max(1.0d0, abs(bi))
           if (.not. (e <= huge(e))) e = huge(e) ! NaN, Inf: the largest error (max would drop a NaN)
           err = max(err, e)
        end do
     end do
     do j = 0, npcol * ln - 1
        sx = max(sx, abs(x_entry(j)))
     end do
     tol = 1.0d-12
     write (*, '(a,es22.15,a,es22.15,a,es22.15,a,es9.2)') 'serial: ||A|| =', sa, '  ||x|| =', sx, &
          '  ||b|| =', sb, '  max rel diff of b =', err
     ! negated comparisons, so that a NaN anywhere fails
     if (.not. (err <= tol .and. abs(sa - norma) <= tol * sa .and. abs(sx - normx) <= tol * sx .and. &
          abs(sb - normb) <= tol * sb)) failed = 1
     if (failed == 0) then
        write (*, '(a)') 'mvmult_f: PASSED (distributed result matches the serial one)'
     else
        write (*, '(a)') 'mvmult_f: FAILED'
     end if
  end if
  ! everybody learns the verdict
  call igsum2d(ictxt, 'All', ' ', 1, 1, failed, 1, -1, -1)

  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (failed /= 0) stop 1

1000 format('||', a, '|| = ', g22.15)
2000 format('ERROR: ||b||''s do not match. Values are: ', g22.15, g22.15)

contains

  ! deterministic entries (the same as the C version)
  double precision function a_entry(i, j)
    integer, intent(in) :: i, j
    a_entry = sin(0.37d0 * i + 1.3d0 * j)
    if (i == j) a_entry = a_entry + 2.0d0
  end function a_entry

  double precision function x_entry(j)
    integer, intent(in) :: j
    x_entry = cos(0.5d0 * j) - 0.25d0
  end function x_entry

  ! ||A||_inf of the distributed matrix (LAWN 73's DINFNRM)
  double precision function dinfnrm(lm, ln, a, lda, work)
    integer, intent(in) :: lm, ln, lda
    double precision, intent(in) :: a(lda, *)
    double precision, intent(inout) :: work(*)
    integer :: i, ri, ci
    double precision :: dmax
    do i = 1, lm
       work(i) = dasum(ln, a(i, 1), lda)
    end do
    call dgsum2d(ictxt, 'r', '1', lm, 1, work, lm, myrow, 0)
    dmax = 0
    if (mycol == 0) then
       if (lm > 0) dmax = abs(work(idamax(lm, work, 1)))
       call dgamx2d(ictxt, 'c', 'h', 1, 1, dmax, 1, ri, ci, 1, -1, 0)
       call dgebs2d(ictxt, 'r', 'h', 1, 1, dmax, 1)
    else
       call dgebr2d(ictxt, 'r', 'h', 1, 1, dmax, 1, myrow, 0)
    end if
    dinfnrm = dmax
  end function dinfnrm

end program mvmult
