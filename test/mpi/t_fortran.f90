! test/mpi/t_fortran.f90 - the Fortran interface, from Fortran (gfortran
! passes hidden CHARACTER lengths; every argument by address).
!
! System contexts are Fortran communicator handles: BLACS_GET(0,0) is
! MPI_COMM_WORLD's, a grid can be built on a communicator from MPI_COMM_SPLIT,
! BLACS_GET(ctxt,10) gives a handle BLACS_GRIDMAP accepts.  A context made
! here works in the C interface (one table).  Point-to-point of every type,
! general and trapezoidal, the support routines, the wall clock, BLACS_EXIT(0).
!
! The same source tests the ILP64 library, compiled with -fdefault-integer-8:
! the BLACS take default INTEGERs (kind(0), blacs_int in C), while what goes
! to MPI itself is integer(c_int), the kind of the mpi module's INTEGER.
program t_fortran
  use mpi
  use iso_c_binding
  implicit none
  ! the BLACS' integer (C's blacs_int): the default INTEGER's size
  integer, parameter :: bk = merge(c_int64_t, c_int, bit_size(0) == 64)
  interface
     subroutine cgridinfo(ctxt, nprow, npcol, myrow, mycol) bind(c, name='Cblacs_gridinfo')
       import :: bk, c_int64_t, c_int
       integer(bk), value :: ctxt
       integer(bk) :: nprow, npcol, myrow, mycol
     end subroutine cgridinfo
     subroutine cdgesd2d(ctxt, m, n, a, lda, r, c) bind(c, name='Cdgesd2d')
       import :: bk, c_double, c_int64_t, c_int
       integer(bk), value :: ctxt, m, n, lda, r, c
       real(c_double) :: a(*)
     end subroutine cdgesd2d
     function usleep(us) bind(c, name='usleep')
       import :: c_int
       integer(c_int), value :: us
       integer(c_int) :: usleep
     end function usleep
  end interface
  integer :: iam, np, ictxt, sys, nprow, npcol, myrow, mycol, fails, i, j, k
  integer :: half, hctxt, sys10, mctxt, umap(2, 8), val(2), total, nr, nc
  integer :: ibuf(20), ibuf2(20)
  integer :: level, level_status
  integer(c_int) :: mhalf, mcolor, mkey, msize, mierr, mfails, mtotal ! MPI's INTEGER
  character(len=8) :: level_text
  real :: sbuf(6, 3), sbuf2(6, 3)
  double precision :: dbuf(4, 4), dbuf2(4, 4), t0, t1
  complex :: cbuf(3), cbuf2(3)
  complex*16 :: zbuf(2, 2), zbuf2(2, 2)
  integer, external :: blacs_pnum, sys2blacs_handle, blacs2sys_handle
  double precision, external :: dwalltime00

  fails = 0
  call blacs_pinfo(iam, np)
  call blacs_setup(i, j)
  if (i /= iam .or. j /= np) call fail('setup differs from pinfo')

  call blacs_get(0, 0, sys)
  if (sys /= MPI_COMM_WORLD) call fail('BLACS_GET(0,0) is not MPI_COMM_WORLD')
  call blacs_get(-1, 2, i)
  call get_environment_variable('BLACS_DEBUG', level_text, status=level_status)
  if (level_status == 0) then
     read (level_text, *) level
  else
     level = 1
  end if
  if (i /= level) call fail('debug level')
  call blacs_get(-1, 1, val(1))     ! two integers, by sequence association
  if (val(1) /= 0 .or. val(2) < 32767) call fail('message id range')
  if (sys2blacs_handle(sys) /= sys .or. blacs2sys_handle(sys) /= sys) call fail('handles')
  call free_blacs_system_handle(sys)

  ! column-major 2 x (np/2) grid (1 x 1 on one process)
  nr = min(2, np)
  nc = max(1, np / 2)
  ictxt = sys
  call blacs_gridinit(ictxt, 'Col-major', nr, nc)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  if (iam < nr * nc) then
     if (myrow /= mod(iam, nr) .or. mycol /= iam / nr) call fail('column-major placement')
     if (blacs_pnum(ictxt, myrow, mycol) /= myrow * npcol + mycol) call fail('pnum')
     call blacs_pcoord(ictxt, blacs_pnum(ictxt, myrow, mycol), i, j)
     if (i /= myrow .or. j /= mycol) call fail('pcoord')
     ! the same context seen from C
     call cgridinfo(ictxt, i, j, k, total)
     if (i /= nprow .or. j /= npcol .or. k /= myrow .or. total /= mycol) call fail('C view of context')

     call blacs_set(ictxt, 11, 3)
     call blacs_get(ictxt, 11, i)
     if (i /= 3) call fail('set/get 11')

     ! every type, to the next process in the column-major ring and back
     call exchange()
     call scoped()
     call blacs_barrier(ictxt, 'All')
     call blacs_barrier(ictxt, 'Row')
     call blacs_barrier(ictxt, 'column')

     ! a grid on this grid's communicator, with a user map
     call blacs_get(ictxt, 10, sys10)
     do j = 1, npcol
        do i = 1, nprow
           umap(i, j) = (nprow - i) * npcol + (npcol - j)
        end do
     end do
     mctxt = sys10
     call blacs_gridmap(mctxt, umap, 2, nprow, npcol)
     call blacs_gridinfo(mctxt, i, j, k, total)
     if (i /= nprow .or. j /= npcol .or. k /= nprow - 1 - myrow .or. total /= npcol - 1 - mycol) &
          call fail('gridmap on BLACS_GET(ctxt,10)')
     call blacs_gridexit(mctxt)
     call blacs_freebuff(ictxt, 1)
     call blacs_gridexit(ictxt)
  else
     if (ictxt /= -1 .or. myrow /= -1) call fail('outside process')
  end if

  ! a grid on a Fortran sub-communicator
  mcolor = int(mod(iam, 2), c_int)
  mkey = int(iam, c_int)
  call mpi_comm_split(MPI_COMM_WORLD, mcolor, mkey, mhalf, mierr)
  half = mhalf
  hctxt = half
  call mpi_comm_size(mhalf, msize, mierr)
  j = msize
  call blacs_gridinit(hctxt, 'R', 1, j)
  call mpi_comm_free(mhalf, mierr)
  call blacs_gridinfo(hctxt, nprow, npcol, myrow, mycol)
  if (nprow /= 1 .or. npcol /= j .or. mycol /= iam / 2) call fail('grid on split communicator')
  ibuf(1) = iam
  call igesd2d(hctxt, 1, 1, ibuf, 1, 0, mod(mycol + 1, npcol))
  call igerv2d(hctxt, 1, 1, ibuf2, 1, 0, mod(mycol + npcol - 1, npcol))
  if (ibuf2(1) /= 2 * mod(mycol + npcol - 1, npcol) + mod(iam, 2)) call fail('message on split grid')
  call blacs_gridexit(hctxt)

  ! the wall clock advances over a 100 ms sleep
  t0 = dwalltime00()
  i = usleep(100000_c_int)
  t1 = dwalltime00()
  if (i /= 0 .or. t1 - t0 < 0.09d0 .or. t1 - t0 > 60) call fail('walltime over a 100 ms sleep')

  mfails = int(fails, c_int)
  call mpi_allreduce(mfails, mtotal, 1_c_int, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, mierr)
  total = mtotal
  if (iam == 0) then
     if (total == 0) then
        write (*, '(a,i0,a)') 't_fortran: passed on ', np, ' processes'
     else
        write (*, '(a,i0,a)') 't_fortran: FAILED (', total, ' failures)'
     end if
  end if
  call blacs_exit(0)
  if (total /= 0) stop 1

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    fails = fails + 1
    write (0, '(a,i0,2a)') '[rank ', iam, '] FAIL ', what
  end subroutine fail

  subroutine exchange()
    integer :: me, nxt, prv, rn, cn, rp, cp
    me = myrow + mycol * nprow              ! column-major position
    nxt = mod(me + 1, nprow * npcol)
    prv = mod(me + nprow * npcol - 1, nprow * npcol)
    rn = mod(nxt, nprow); cn = nxt / nprow
    rp = mod(prv, nprow); cp = prv / nprow
    do k = 1, 20
       ibuf(k) = 100 * me + k
    end do
    do j = 1, 3
       do i = 1, 6
          sbuf(i, j) = real(me * 1000 + 10 * i + j)
       end do
    end do
    do j = 1, 4
       do i = 1, 4
          dbuf(i, j) = me + 0.25d0 * i + 4 * j
       end do
    end do
    cbuf = [(cmplx(me, k), k = 1, 3)]
    zbuf = reshape([(dcmplx(k, -me), k = 1, 4)], [2, 2])
    ibuf2 = -1; sbuf2 = -1; dbuf2 = -1; cbuf2 = (-1, -1); zbuf2 = (-1d0, -1d0)
    ! all sends first: they are locally blocking
    call igesd2d(ictxt, 20, 1, ibuf, 20, rn, cn)
    call sgesd2d(ictxt, 4, 3, sbuf, 6, rn, cn)              ! LDA 6 > M 4
    call dtrsd2d(ictxt, 'Upper', 'Unit', 4, 4, dbuf, 4, rn, cn)
    call ctrsd2d(ictxt, 'L', 'N', 3, 1, cbuf, 3, rn, cn)
    call zgesd2d(ictxt, 2, 2, zbuf, 2, rn, cn)
    call igerv2d(ictxt, 20, 1, ibuf2, 20, rp, cp)
    call sgerv2d(ictxt, 4, 3, sbuf2, 6, rp, cp)
    call dtrrv2d(ictxt, 'u', 'u', 4, 4, dbuf2, 4, rp, cp)
    call ctrrv2d(ictxt, 'lower', 'non-unit', 3, 1, cbuf2, 3, rp, cp)
    call zgerv2d(ictxt, 2, 2, zbuf2, 2, rp, cp)
    do k = 1, 20
       if (ibuf2(k) /= 100 * prv + k) call fail('igerv2d data')
    end do
    do j = 1, 3
       do i = 1, 6
          if (i <= 4 .and. sbuf2(i, j) /= real(prv * 1000 + 10 * i + j)) call fail('sgerv2d data')
          if (i > 4 .and. sbuf2(i, j) /= -1) call fail('sgerv2d wrote the LDA gap')
       end do
    end do
    do j = 1, 4
       do i = 1, 4
          if (i < j .and. dbuf2(i, j) /= prv + 0.25d0 * i + 4 * j) call fail('dtrrv2d data')
          if (i >= j .and. dbuf2(i, j) /= -1) call fail('dtrrv2d wrote outside the strict upper part')
       end do
    end do
    if (any(cbuf2 /= [(cmplx(prv, k), k = 1, 3)])) call fail('ctrrv2d data')
    if (any(zbuf2 /= reshape([(dcmplx(k, -prv), k = 1, 4)], [2, 2]))) call fail('zgerv2d data')
  end subroutine exchange

  ! broadcasts and combines through the Fortran interface
  subroutine scoped()
    integer :: ra(2, 2), ca(2, 2), iv(2, 2)
    double precision :: v(3)
    if (myrow == 0 .and. mycol == 0) then
       v = [1d0, 2d0, 3d0]
       call dgebs2d(ictxt, 'All', ' ', 3, 1, v, 3)
    else
       v = 0
       call dgebr2d(ictxt, 'All', ' ', 3, 1, v, 3, 0, 0)
    end if
    if (any(v /= [1d0, 2d0, 3d0])) call fail('dgebr2d from Fortran')
    v = [dble(myrow), dble(mycol), 1d0]
    call dgsum2d(ictxt, 'All', 'T', 3, 1, v, 3, -1, -1)
    if (any(v /= [dble(npcol * nprow * (nprow - 1) / 2), dble(nprow * npcol * (npcol - 1) / 2), &
                  dble(nprow * npcol)])) call fail('dgsum2d from Fortran')
    iv = myrow * npcol + mycol
    ra = -9; ca = -9
    call igamx2d(ictxt, 'Column', 'I', 2, 2, iv, 2, ra, ca, 2, 0, mycol)
    if (myrow == 0) then
       if (any(iv /= (nprow - 1) * npcol + mycol) .or. any(ra /= nprow - 1) .or. any(ca /= mycol)) &
            call fail('igamx2d from Fortran')
    end if
  end subroutine scoped

end program t_fortran
