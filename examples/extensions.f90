! examples/extensions.f90 - LAWN 73's two proposed extensions, from Fortran.
!
!   mpirun -np 4 build/examples/extensions_f [K]
!
! The same three parts as examples/extensions.c: a fan-in with DGERVA2D
! (receive from any process, the sender's coordinates returned in RSRC,
! CSRC), the scaled 2-norm of K columns with DTUOP2D ((scale, sumsq) pairs
! down the columns of a 2 x K matrix), and the exclusive or of integers with
! ITUOP2D.  The user's functions are EXTERNAL subroutines, called with
! every argument by address: INIT(N, V), OP(N, A, B), POST(N, V).
module norm_ops
  implicit none
contains
  subroutine norm_init(n, v)
    integer :: n, k
    double precision :: v(*)
    do k = 1, n - 1, 2
       if (v(k) /= 0d0) then
          v(k + 1) = 1d0
       else
          v(k + 1) = 0d0
       end if
       v(k) = abs(v(k))
    end do
  end subroutine norm_init

  ! a := a (+) b for (scale, sumsq) pairs, symmetric in a and b
  subroutine norm_merge(n, a, b)
    integer :: n, k
    double precision :: a(*), b(*), s1, q1, s2, q2, t
    do k = 1, n - 1, 2
       s1 = a(k); q1 = a(k + 1); s2 = b(k); q2 = b(k + 1)
       if (s1 < s2 .or. (s1 == s2 .and. q1 < q2)) then
          t = s1; s1 = s2; s2 = t
          t = q1; q1 = q2; q2 = t
       end if
       a(k) = s1
       if (s1 > 0d0) then
          a(k + 1) = q1 + q2 * (s2 / s1) * (s2 / s1)
       else
          a(k + 1) = 0d0
       end if
    end do
  end subroutine norm_merge

  subroutine norm_finish(n, v)
    integer :: n, k
    double precision :: v(*)
    do k = 1, n - 1, 2
       v(k) = v(k) * sqrt(v(k + 1))
    end do
  end subroutine norm_finish

  subroutine xor_ints(n, a, b)
    integer :: n, k
    integer :: a(*), b(*)
    do k = 1, n
       a(k) = ieor(a(k), b(k))
    end do
  end subroutine xor_ints

  subroutine nothing(n, v)
    integer :: n
    integer :: v(*)
    if (n < 0) v(1) = 0
  end subroutine nothing

  double precision function entry(pnum, j)
    integer :: pnum, j
    entry = 1d300 * dble(mod(pnum * 5 + j, 9) + 1)
    if (mod(pnum, 2) == 1) entry = -entry
  end function entry

  integer function bits(pnum, j)
    integer :: pnum, j
    bits = ieor(pnum * 40503 + 12345, j * 2654435)
  end function bits
end module norm_ops

program extensions
  use norm_ops
  implicit none
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, me, np, k, j, p, r, c, failed, want, nk
  integer :: fl(1)
  double precision :: part(2), got(2), s(2), ss, err, wnorm
  double precision, allocatable :: pairs(:, :)
  integer, allocatable :: x(:)
  character(len=16) :: arg

  nk = 5
  if (command_argument_count() >= 1) then
     call get_command_argument(1, arg)
     read (arg, *) nk
  end if
  failed = 0
  call blacs_pinfo(iam, nprocs)
  nprow = int(sqrt(dble(nprocs)))
  do while (mod(nprocs, nprow) /= 0)
     nprow = nprow - 1
  end do
  call blacs_get(0, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row', nprow, nprocs / nprow)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  me = myrow * npcol + mycol
  np = nprow * npcol

  ! 1. the fan-in
  part(1) = dble(me + 1)
  part(2) = dble(me * me)
  if (me /= 0) then
     call dgesd2d(ictxt, 2, 1, part, 2, 0, 0)
  else
     s = part
     do k = 1, np - 1
        r = -1
        c = -1
        call dgerva2d(ictxt, 2, 1, got, 2, r, c)
        write (*, '(a,i0,a,i0,a)') 'fan-in: a message from {', r, ',', c, '}'
        if (got(1) /= dble(r * npcol + c + 1)) failed = failed + 1
        s = s + got
     end do
     if (s(1) /= dble(np * (np + 1) / 2) .or. s(2) /= dble((np - 1) * np * (2 * np - 1) / 6)) failed = failed + 1
     write (*, '(a,2f12.1)') 'fan-in: sums', s
  end if

  ! 2. the scaled 2-norm of nk columns, left everywhere
  allocate (pairs(2, nk))
  do j = 1, nk
     pairs(1, j) = entry(me, j)
     pairs(2, j) = 0d0
  end do
  call dtuop2d(ictxt, 'All', ' ', 'G', 'N', 2, nk, pairs, 2, -1, -1, norm_init, norm_merge, norm_finish)
  do j = 1, nk
     ss = 0d0
     do p = 0, np - 1
        ss = ss + (entry(p, j) / 1d300)**2
     end do
     wnorm = 1d300 * sqrt(ss)
     err = abs(pairs(1, j) - wnorm) / wnorm
     if (.not. (err < 1d-14)) failed = failed + 1
     if (me == 0 .and. j <= 3) write (*, '(a,i0,a,es24.15e3,a,es8.1,a)') 'norm of column ', j, ': ', pairs(1, j), &
          ' (relative error ', err, ')'
  end do
  deallocate (pairs)

  ! 3. exclusive or of nk integers, left on {0,0}
  allocate (x(nk))
  do j = 1, nk
     x(j) = bits(me, j)
  end do
  call ituop2d(ictxt, 'All', ' ', 'G', 'N', nk, 1, x, nk, 0, 0, nothing, xor_ints, nothing)
  if (me == 0) then
     do j = 1, nk
        want = 0
        do p = 0, np - 1
           want = ieor(want, bits(p, j))
        end do
        if (x(j) /= want) failed = failed + 1
     end do
     write (*, '(a,i0,a,i0,a,z8.8)') 'xor of ', nk, ' integers over ', np, ' processes: first ', x(1)
  end if
  deallocate (x)

  fl(1) = failed
  call igsum2d(ictxt, 'All', ' ', 1, 1, fl, 1, 0, 0)
  if (me == 0) then
     if (fl(1) == 0) then
        write (*, '(a)') 'PASSED'
     else
        write (*, '(a)') 'FAILED'
     end if
  end if
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
end program extensions
