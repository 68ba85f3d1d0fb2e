/*
 * blacs/bind.c - no silent fallback to another BLACS.
 *
 * ScaLAPACK's libraries carry a BLACS of their own (Debian's libscalapack
 * holds the reference).  When both are in a program, the dynamic linker
 * sends every call to the copy loaded first: where ScaLAPACK comes first
 * on the link line, this library is loaded and never called, and the
 * program runs on the other BLACS without a word.  So when this library is
 * loaded (an ELF constructor, before main), it asks the dynamic linker
 * where a few BLACS names used by C and Fortran callers resolve; where one
 * resolves to another object, it says which, and what to do, on the first
 * process, and every process stops (exit status 1): a user who linked this
 * library meant to run on it.  BLACS_QUIET=1 lets the program go on, on
 * the other BLACS.  The same check catches a static archive linked in
 * part: the objects the program took answer its own calls, ScaLAPACK's
 * BLACS the others, and grids made by one are unknown to the other (every
 * entry point reaches blx_init, which takes this object in).  The
 * library's link name keeps the shared library needed (link/keep.c).
 *
 * Two more mistakes that would otherwise run on, wrongly:
 * - The library built for one MPI loaded into a program of the other (the
 *   MPICH build preloaded into an Open MPI program, or the reverse): both
 *   MPIs end up in the process, and the program's calls and this library's
 *   reach different ones.  Found when the library is loaded, by a name only
 *   the other family's library defines.
 * - A program started by another MPI's launcher: each process starts as a
 *   1-process job.  Found in the first BLACS call: MPI_COMM_WORLD has one
 *   process where the launcher's variables say it started more.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "../base/env.h"
#include "../base/report.h"
#include "internal.h"

/* Names the callers of every family use, C and Fortran. */
static const char *const probes[] = {
    "Cblacs_pinfo",    "blacs_pinfo_",    "Cblacs_gridinit", "blacs_gridinit_",
    "Cblacs_gridinfo", "blacs_gridinfo_", "Cdgesd2d",        "dgesd2d_",
    "Cdgebs2d",        "dgebs2d_",        "Cdgebr2d",        "dgebr2d_",
    "Cdgsum2d",        "dgsum2d_",        "Cigamx2d",        "igamx2d_"};

/* This process's rank as the launcher says (-1: it does not). */
static int launcher_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (getenv(names[i]) != NULL)
            return atoi(getenv(names[i]));
    return -1;
}

/* Stops this process after an error that every process finds at start-up
 * and the launcher's rank 0 reports: the others give it 3 s to print
 * first.  Had they stopped at once, the launcher could tear the job down
 * while a loaded rank 0 was writing its report: MPICH's closed its
 * standard error, and rank 0 died of SIGPIPE with nothing printed (3 of 30
 * runs of a 2-process job beside a ScaLAPACK test program and `yes`). */
static BLX_NORETURN void stop_after_report(void)
{
    if (launcher_rank() > 0) {
        struct timespec pause = {0, 100000000};
        for (int i = 0; i < 30; i++)
            nanosleep(&pause, NULL);
    }
    exit(1);
}

/* BLACS_QUIET as a switch; a value that is not one stops every process. */
static int quiet(void)
{
    const char *q = getenv("BLACS_QUIET");
    int on = q == NULL ? 0 : blx_parse_switch(q);
    if (on < 0)
        blx_fatal(-1, "BLACS_QUIET", "'%s' is not a switch: 1, yes, true, on; or 0, no, false, off, empty",
                  q);
    return on;
}

/* The MPI this library was built for, and a name only the other family's
 * library defines (Open MPI's communicator object; MPICH's, and its
 * derivatives', error-code constructor).  SMPI and others: no check. */
#if defined(OMPI_MAJOR_VERSION)
static const char *const mpi_mine = "Open MPI", *const mpi_other = "MPICH",
                         *const other_mark = "MPIR_Err_create_code", *const other_lib = "libblacs-mpich";
#elif defined(MPICH_VERSION)
static const char *const mpi_mine = "MPICH", *const mpi_other = "Open MPI",
                         *const other_mark = "ompi_mpi_comm_world", *const other_lib = "libblacs-openmpi";
#else
static const char *const mpi_mine = "", *const mpi_other = "", *const other_mark = "", *const other_lib = "";
#endif

static void check_flavour(void)
{
    Dl_info where;
    void *p = *other_mark != '\0' ? dlsym(RTLD_DEFAULT, other_mark) : NULL;
    if (p == NULL)
        return;
    if (launcher_rank() <= 0) {
        fprintf(stderr,
                "BLACS ERROR: this BLACS library is built for %s, but %s is in this program too (%s is "
                "defined by %s): the program's MPI calls and the library's would reach different MPIs.  "
                "Use the library built for the program's MPI (%s).\n",
                mpi_mine, mpi_other, other_mark,
                dladdr(p, &where) != 0 && where.dli_fname ? where.dli_fname : "another object", other_lib);
        fflush(stderr);
    }
    stop_after_report();
}

void blx_bind_check_launcher(int world_size)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; world_size == 1 && i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v == NULL || atoi(v) <= 1)
            continue;
        if (launcher_rank() <= 0)
            blx_fatal(-1, "BLACS_PINFO",
                      "MPI_COMM_WORLD has 1 process, but the launcher started %s (%s=%s): the program was "
                      "started by another MPI's launcher, and each process would run as a job of its own.  "
                      "Start it with the launcher of the MPI it runs on (%s)",
                      v, names[i], v, *mpi_mine != '\0' ? mpi_mine : "the one it was built with");
        stop_after_report();
    }
}

/* The first probe that resolves to another shared object than this
 * library's, or NULL; that object's file in *where.  The program itself
 * may define BLACS names of its own (ScaLAPACK's C tester defines Fortran
 * wrappers of the C routines, which call them): those are not another
 * BLACS. */
static const char *stranger(const char **where)
{
    Dl_info mine, other, program;
    if (dladdr((void *)&launcher_rank, &mine) == 0 || dladdr((void *)getauxval(AT_PHDR), &program) == 0)
        return NULL;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        void *p = dlsym(RTLD_DEFAULT, probes[i]);
        if (p != NULL && dladdr(p, &other) != 0 && other.dli_fbase != mine.dli_fbase &&
            other.dli_fbase != program.dli_fbase) {
            *where = other.dli_fname && *other.dli_fname ? other.dli_fname : "another object";
            return probes[i];
        }
    }
    return NULL;
}

__attribute__((constructor)) static void check_binding(void)
{
    check_flavour();
    const char *where = NULL, *name = stranger(&where);
    if (quiet() || name == NULL)
        return;
    if (launcher_rank() <= 0) {
        Dl_info mine;
        dladdr((void *)&launcher_rank, &mine);
        fprintf(stderr,
                "BLACS ERROR: this program's BLACS calls would go to another BLACS: %s resolves to %s, "
                "not to %s.  Link the BLACS library before ScaLAPACK (pkg-config --libs blacs-<mpi>, or "
                "CMake's blacs::blacs-<mpi> first), and its static archive whole (-Wl,--whole-archive "
                "libblacs-<mpi>.a -Wl,--no-whole-archive): README, \"Using it\".  BLACS_QUIET=1 runs on "
                "the other BLACS instead.\n",
                name, where, mine.dli_fname ? mine.dli_fname : "this library");
        fflush(stderr);
    }
    stop_after_report();
}

int blx_bind_checked(void) { return 1; }
