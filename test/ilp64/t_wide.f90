! test/ilp64/t_wide.f90 - a program compiled with -fdefault-integer-8 but
! linked with the LP64 library (the misuse the LP64 library detects where it
! can; see doc/guide.md, "Integers").  Every INTEGER is 64-bit here, and the
! library reads 32-bit halves of them.
!   t_wide gridmap   a 1 x 2 USERMAP read as (0, 0): a duplicate-rank
!                    error that names the likely cause
!   t_wide msgids    BLACS_SET(.., 1, [100, 200000]) read as [100, 0]: a
!                    warning that names the likely cause
program t_wide
  implicit none
  integer :: iam, np, ictxt, umap(1, 2), val(2)
  character(len=16) :: what
  call get_command_argument(1, what)
  call blacs_pinfo(iam, np)
  call blacs_get(0, 0, ictxt)
  if (what == 'msgids') then
     val = [100, 200000]
     call blacs_set(0, 1, val)
  else
     umap(1, 1) = 0
     umap(1, 2) = 1
     call blacs_gridmap(ictxt, umap, 1, 1, 2)
  end if
  call blacs_exit(0)
end program t_wide
