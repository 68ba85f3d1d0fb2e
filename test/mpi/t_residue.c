/*
 * test/mpi/t_residue.c - no BLACS routine leaves an address of this library
 * on the stack below its caller (base/stack.h).
 *
 * Debian's ScaLAPACK 2.2.1 reads an uninitialized local variable (EST in
 * P?GERFS, handed to P?LACON): it holds what the last call at that depth
 * left there.  The library once left the address of one of its functions
 * there, which address-space randomization makes different on every
 * process, and the processes of a grid took different branches (xslu: "On
 * entry to PSGETRS parameter number 1 had an illegal value", then a hang).
 *
 * Each probe fills the stack below this test's frame with a pattern, calls
 * one routine (directly, as a caller would), and looks at every aligned
 * word of the stack it used: none may point into the library's code or
 * data (its loaded segments, from dl_iterate_phdr).  The words of the
 * routine's own frame (the return address into this test, the test's
 * saved registers) point into the test, not the library.  Every
 * communication routine family is probed, in both interfaces, on every
 * scope, leaving results on one and on all, with the default TOP and
 * with lettered ones, and the support routines a ScaLAPACK routine calls
 * first (BLACS_GRIDINFO, BLACS_PNUM, ...).  A probe also checks that the
 * routine did its work, so that an empty call cannot pass.  Every probe
 * runs twice and only the second is judged, with other sizes (the default
 * TOP weighs its choice again).  The dynamic linker's lazy binding leaves
 * the addresses it resolves on the stack at the first call of a routine
 * (of the library, or of MPI from it): that is the loader's, once a
 * routine, and no library can clean it, so the test runs with
 * LD_BIND_NOW=1 (test/mpi-cases.sh).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>

#include "mpitest.h"

#define DEPTH (48 * 1024) /* bytes of stack looked at: a call uses 4 to 10 KiB */
#define PAINT 0x5a

/* The library's loaded segments. */
static struct {
    uintptr_t lo[16], hi[16];
    int n;
    uintptr_t base;
} lib;

static int segments(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    if (info->dlpi_addr != lib.base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && lib.n < 16; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            lib.lo[lib.n] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            lib.hi[lib.n] = lib.lo[lib.n] + info->dlpi_phdr[i].p_memsz;
            lib.n++;
        }
    return 1;
}

static void find_library(void)
{
    Dl_info d;
    if (dladdr((void *)&Cdgebs2d, &d) == 0) {
        fprintf(stderr, "t_residue: dladdr found no object for Cdgebs2d\n");
        exit(2);
    }
    lib.base = (uintptr_t)d.dli_fbase;
    dl_iterate_phdr(segments, NULL);
    CHECK(lib.n > 0, "the library's segments found (%d)", lib.n);
}

static int in_library(uintptr_t v)
{
    for (int i = 0; i < lib.n; i++)
        if (v >= lib.lo[i] && v < lib.hi[i])
            return 1;
    return 0;
}

/* The stack below the caller's frame, filled with the pattern. */
__attribute__((noinline)) static void paint(void)
{
    unsigned char below[DEPTH];
    memset(below, PAINT, sizeof below);
    __asm__ volatile("" : : "r"(below) : "memory");
}

/* The stack pointer (x86-64), or near it. */
__attribute__((noinline)) static const char *stack_here(void) { return __builtin_frame_address(0); }

/* Words of the DEPTH bytes below the caller's frame that point into the
 * library: how many, the first one's depth in *at.  Only reads, and calls
 * nothing while it reads. */
__attribute__((noinline)) static int scan(size_t *at, uintptr_t *first)
{
    const char *top = stack_here();
    const volatile uintptr_t *w = (const volatile uintptr_t *)(((uintptr_t)top - DEPTH) & ~(uintptr_t)7);
    size_t n = DEPTH / sizeof(uintptr_t);
    int found = 0;
    for (size_t i = 0; i < n; i++) /* w[n - 1] is the nearest the caller */
        if (in_library(w[i]) && found++ == 0) {
            *at = (n - i) * sizeof(uintptr_t);
            *first = w[i];
        }
    return found;
}

static int probes, clean, judging;

static void verdict(const char *what, int worked)
{
    size_t at = 0;
    uintptr_t first = 0;
    int found = scan(&at, &first);
    if (!judging) /* the first time: the dynamic linker binds the routines (lazy binding leaves addresses) */
        return;
    probes++;
    CHECK(worked, "%s: did its work", what);
    Dl_info d = {0};
    if (found)
        dladdr((void *)first, &d);
    CHECK(found == 0,
          "%s left %d address(es) of the library on the stack, the first %zu bytes below its caller (%s)",
          what, found, at, d.dli_sname ? d.dli_sname : "not a symbol");
    clean += found == 0;
}

/* ---- the probes: each paints, calls one routine, and judges ---- */

#define PROBE(what, call, worked) \
    do {                          \
        paint();                  \
        call;                     \
        verdict(what, worked);    \
    } while (0)

static void probe_support(int ctxt, int me)
{
    blacs_int nr = 0, nc = 0, r = -1, c = -1, f_ctxt = ctxt, pr = 0, pc = 0, pn;
    PROBE("Cblacs_gridinfo", Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c), nr > 0 && r >= 0);
    PROBE("blacs_gridinfo_", blacs_gridinfo_(&f_ctxt, &nr, &nc, &r, &c), nr > 0 && c >= 0);
    PROBE("Cblacs_pnum", pn = Cblacs_pnum(ctxt, r, c), pn == me);
    PROBE("Cblacs_pcoord", Cblacs_pcoord(ctxt, me, &pr, &pc), pr == r && pc == c);
    blacs_int np = 0, mine = -1;
    PROBE("Cblacs_pinfo", Cblacs_pinfo(&mine, &np), mine == me && np > 0);
    blacs_int v = -1, what = 11;
    PROBE("Cblacs_get", Cblacs_get(ctxt, 10, &v), v >= 0);
    PROBE("blacs_get_", blacs_get_(&f_ctxt, &what, &v), v >= 1);
    PROBE("Cblacs_barrier", Cblacs_barrier(ctxt, "All"), 1);
    double t0 = Cdwalltime00(), t = t0 - 1;
    PROBE("dwalltime00_", t = dwalltime00_(), t >= t0);
}

/* The judged pass uses other sizes than the first, so that the default
 * TOP weighs its choice again (recalled, it would not). */
static void probe_comm(int ctxt, int me, int np)
{
    blacs_int nr, nc, r, c, f_ctxt = ctxt, one = 1, mone = -1, zero = 0;
    blacs_int n = judging ? 40 : 4, ldia = n;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const char *tops[] = {" ", "1", "H", "I", "S", "T"};
    const char *scopes[] = {"Row", "Column", "All"};
    char what[96];
    for (size_t s = 0; s < 3; s++)
        for (size_t t = 0; t < sizeof tops / sizeof tops[0]; t++) {
            const char *sc = scopes[s], *tp = tops[t];
            int root = (s == 0 && c == 0) || (s == 1 && r == 0) || (s == 2 && me == 0);
            int members = s == 0 ? nc : s == 1 ? nr : np;
            double d[40];
            for (int i = 0; i < n; i++)
                d[i] = root ? i + 1 : 0;
            snprintf(what, sizeof what, "Cdgebs2d/br2d scope %s TOP '%s'", sc, tp);
            if (root)
                PROBE(what, Cdgebs2d(ctxt, sc, tp, n, 1, d, n), 1);
            else
                PROBE(what, Cdgebr2d(ctxt, sc, tp, n, 1, d, n, s == 0 ? r : 0, s == 1 ? c : 0),
                      d[n - 1] == n);
            int iv[40];
            for (int i = 0; i < n; i++)
                iv[i] = 1;
            snprintf(what, sizeof what, "Cigsum2d to all, scope %s TOP '%s'", sc, tp);
            PROBE(what, Cigsum2d(ctxt, sc, tp, n, 1, iv, n, -1, -1), iv[n - 1] == members);
            float f[40];
            blacs_int ra[40], ca[40];
            for (int i = 0; i < n; i++)
                f[i] = (float)(i == 0 ? me : i);
            snprintf(what, sizeof what, "Csgamx2d with locations, scope %s TOP '%s'", sc, tp);
            PROBE(what, Csgamx2d(ctxt, sc, tp, n, 1, f, n, ra, ca, ldia, -1, -1), f[1] == 1 && ra[0] >= 0);
            for (int i = 0; i < n; i++)
                d[i] = 1;
            snprintf(what, sizeof what, "DGSUM2D to {0,0}, scope %s TOP '%s'", sc, tp);
            PROBE(what, dgsum2d_(&f_ctxt, sc, tp, &n, &one, d, &n, &zero, &zero), d[0] >= 1);
            for (int i = 0; i < n; i++)
                iv[i] = i % 2 ? me : 1;
            snprintf(what, sizeof what, "IGAMN2D to all, scope %s TOP '%s'", sc, tp);
            PROBE(what, igamn2d_(&f_ctxt, sc, tp, &n, &one, iv, &n, ra, ca, &ldia, &mone, &mone), iv[0] == 1);
        }
    /* point-to-point, a ring over the grid, both interfaces */
    int next = (me + 1) % np, prev = (me + np - 1) % np;
    blacs_int nrow = next / nc, ncol = next % nc, prow = prev / nc, pcol = prev % nc;
    double out[6] = {me, 1, 2, 3, 4, 5}, in[6] = {0};
    PROBE("Cdgesd2d", Cdgesd2d(ctxt, 6, 1, out, 6, nrow, ncol), 1);
    PROBE("Cdgerv2d", Cdgerv2d(ctxt, 6, 1, in, 6, prow, pcol), in[0] == prev);
    blacs_int six = 6;
    PROBE("DTRSD2D", dtrsd2d_(&f_ctxt, "Upper", "Non-unit", &six, &one, out, &six, &nrow, &ncol), 1);
    in[0] = -1;
    PROBE("DTRRV2D", dtrrv2d_(&f_ctxt, "Upper", "Non-unit", &six, &one, in, &six, &prow, &pcol),
          in[0] == prev);
    PROBE("Cdgesd2d (again)", Cdgesd2d(ctxt, 6, 1, out, 6, nrow, ncol), 1);
    blacs_int any_r = -1, any_c = -1;
    in[0] = -1;
    PROBE("Cdgerva2d", Cdgerva2d(ctxt, 6, 1, in, 6, &any_r, &any_c), in[0] == prev && any_r == prow);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    mpitest_start();
    find_library();
    int np = mt_size, ctxt;
    int rows = np % 2 == 0 && np > 2 ? 2 : 1;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", rows, np / rows);
    for (judging = 0; judging <= 1; judging++) {
        probe_support(ctxt, mt_rank);
        probe_comm(ctxt, mt_rank, np);
    }
    Cblacs_gridexit(ctxt);
    if (mt_rank == 0)
        printf("t_residue: %d of %d calls left nothing of the library on the stack\n", clean, probes);
    return mpitest_finish("t_residue");
}
