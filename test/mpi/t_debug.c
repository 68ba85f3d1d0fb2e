/*
 * test/mpi/t_debug.c CASE [LEVEL] - the debug levels (BLACS_DEBUG) on the
 * mistakes users make most; run-mpi.sh checks what each prints.
 *
 *   allvsone L     a combine where half the processes leave the result on
 *                  all and the others on {0,0}, then a correct broadcast:
 *                  level 3 names the disagreement, level 2 reports the hang
 *   wrongsource L  a broadcast receiver naming the wrong source
 *   idrange        BLACS_SET 1 (message-ID range) on some processes only:
 *                  the next grid refuses to start (level 1)
 *   selfrecv       a receive from oneself with nothing sent (level 2)
 *   barrierscope   an unknown barrier scope (level 1)
 *   deadlock       every process receives first (level 2: a hang report)
 *   anyhang        receives from any process, one more than were sent
 *                  (level 2: the report says "from any process")
 *   p2psize        sender and receiver describe different matrices of the
 *                  same byte size (level 3: the description message)
 *   limit V        BLACS_BUFFER_LIMIT=V, then a 1 MiB send: K/M/G suffixes
 *                  accepted, garbage refused
 *   stats FILE     BLACS_STATS=FILE: the CSV of every process after BLACS_EXIT
 *   statsprint V   BLACS_STATS=V (yes, on, ...): BLACS_EXIT prints each
 *                  process's table, its number on every row; an unknown
 *                  value is an error naming the variable
 *   statsfinal V   the same in a program that ends with MPI_Finalize and
 *                  never calls BLACS_EXIT: the tables come at MPI_Finalize
 *   statscall on|off  Cblacs_stats mid-run, BLACS_STATS=1 or unset: {0,0}
 *                  prints the merged table (calls summed over the grid),
 *                  or one line saying statistics are off
 *
 * Levels 2 and 3 run with BLACS_HANG_TIMEOUT=2 so hangs end quickly.
 */
#include <stdlib.h>
#include <unistd.h>

#include "mpitest.h"

/* Five sums, then Cblacs_stats with {0,0}'s stdout caught in a file: the
 * merged table counts 5 calls per process, or says statistics are off. */
static void check_stats_call(int ctxt, int mycol, int on)
{
    double a[8] = {0};
    for (int k = 0; k < 5; k++)
        Cdgsum2d(ctxt, "All", "I", 8, 1, a, 8, -1, -1);
    char path[] = "/tmp/t_debug_statsXXXXXX";
    int fd = -1, keep = -1;
    if (mycol == 0) {
        fd = mkstemp(path);
        fflush(stdout);
        keep = dup(1);
        dup2(fd, 1);
    }
    Cblacs_stats(ctxt);
    if (mycol != 0)
        return;
    fflush(stdout);
    dup2(keep, 1);
    close(keep);
    char text[4096] = "", want[96];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    if (on) {
        snprintf(want, sizeof want, "| combine sum | 'I' | ring | %d | 64 | 64 | 64 |", 5 * mt_size);
        CHECK(strstr(text, "BLACS statistics of the ") != NULL && strstr(text, want) != NULL,
              "Cblacs_stats printed no row '%s':\n%s", want, text);
    } else {
        CHECK(strstr(text, ": off (set BLACS_STATS=1") != NULL && strstr(text, "| combine") == NULL,
              "Cblacs_stats with statistics off printed:\n%s", text);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "", *arg = argc > 2 ? argv[2] : "1";
    if (!strcmp(what, "allvsone") || !strcmp(what, "wrongsource"))
        setenv("BLACS_DEBUG", arg, 1);
    if (!strcmp(what, "selfrecv") || !strcmp(what, "deadlock") || !strcmp(what, "anyhang")) /* unless set */
        setenv("BLACS_DEBUG", "2", 0);
    if (!strcmp(what, "p2psize"))
        setenv("BLACS_DEBUG", "3", 0);
    if (!strcmp(what, "limit"))
        setenv("BLACS_BUFFER_LIMIT", arg, 1);
    if (!strcmp(what, "stats") || !strcmp(what, "statsprint") || !strcmp(what, "statsfinal"))
        setenv("BLACS_STATS", arg, 1);
    if (!strcmp(what, "statscall") && !strcmp(arg, "on"))
        setenv("BLACS_STATS", "1", 1);
    setenv("BLACS_HANG_TIMEOUT", "2", 1);
    mpitest_start();
    int ctxt, nprow, npcol, myrow, mycol;
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (!strcmp(what, "idrange") && mt_rank % 2 == 1) {
        int range[2] = {100, 10000};
        Cblacs_set(-1, 1, range);
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

    if (!strcmp(what, "allvsone")) {
        Cdgsum2d(ctxt, "All", " ", 8, 1, a, 8, mycol % 2 ? 0 : -1, 0);
        if (mycol == 0)
            Cdgebs2d(ctxt, "All", " ", 8, 1, a, 8);
        else
            Cdgebr2d(ctxt, "All", " ", 8, 1, a, 8, 0, 0);
    }
    if (!strcmp(what, "wrongsource")) {
        if (mycol == 0)
            Cdgebs2d(ctxt, "All", " ", 8, 1, a, 8);
        else
            Cdgebr2d(ctxt, "All", " ", 8, 1, a, 8, 0, mycol == 1 ? npcol - 1 : 0);
    }
    if (!strcmp(what, "selfrecv") && mycol == 1)
        Cdgerv2d(ctxt, 8, 1, a, 8, 0, 1);
    if (!strcmp(what, "barrierscope"))
        Cblacs_barrier(ctxt, "Diagonal");
    if (!strcmp(what, "deadlock")) {
        Cdgerv2d(ctxt, 8, 1, a, 8, 0, (mycol + 1) % npcol);
        Cdgesd2d(ctxt, 8, 1, a, 8, 0, (mycol + npcol - 1) % npcol);
    }
    if (!strcmp(what, "anyhang") && mycol == 1) { /* a fan-in one message short */
        int r = -1, c = -1;
        Cdgerva2d(ctxt, 8, 1, a, 8, &r, &c);
        r = c = -1; /* the first call returned the sender there */
        Cdgerva2d(ctxt, 8, 1, a, 8, &r, &c);
    }
    if (!strcmp(what, "anyhang") && mycol == 0)
        Cdgesd2d(ctxt, 8, 1, a, 8, 0, 1);
    if (!strcmp(what, "p2psize")) {
        if (mycol == 0)
            Cdgesd2d(ctxt, 8, 1, a, 8, 0, 1);
        if (mycol == 1)
            Cdgerv2d(ctxt, 2, 4, a, 2, 0, 0); /* legal: the same size */
        if (mycol == 0)
            Cdgesd2d(ctxt, 8, 1, a, 8, 0, 1);
        if (mycol == 1)
            Csgerv2d(ctxt, 4, 4, (float *)a, 4, 0, 0); /* the same bytes, another type */
    }
    if (!strcmp(what, "limit")) {
        double *big = calloc(1 << 17, sizeof *big); /* 1 MiB */
        Cdgesd2d(ctxt, 1 << 17, 1, big, 1 << 17, 0, (mycol + 1) % npcol);
        Cdgerv2d(ctxt, 1 << 17, 1, big, 1 << 17, 0, (mycol + npcol - 1) % npcol);
        free(big);
    }
    if (!strncmp(what, "stats", 5) && strcmp(what, "statscall") != 0) {
        for (int k = 0; k < 3; k++)
            Cdgsum2d(ctxt, "All", "I", 8, 1, a, 8, -1, -1);
        if (mycol == 0)
            Cdgebs2d(ctxt, "Row", " ", 8, 1, a, 8);
        else
            Cdgebr2d(ctxt, "Row", " ", 8, 1, a, 8, 0, 0);
        Cblacs_barrier(ctxt, "All");
    }
    if (!strcmp(what, "statscall"))
        check_stats_call(ctxt, mycol, !strcmp(arg, "on"));
    Cblacs_gridexit(ctxt);
    if (strcmp(what, "stats") == 0) { /* the table is written at BLACS_EXIT: look after it */
        const char *file = getenv("BLACS_STATS");
        Cblacs_exit(1);
        MPI_Barrier(MPI_COMM_WORLD);
        FILE *f = file ? fopen(file, "r") : NULL;
        char line[512];
        int rows = 0, header = 0, sums = 0, bcasts = 0, barriers = 0, counted = 0;
        while (f != NULL && fgets(line, sizeof line, f) != NULL) {
            header += strncmp(line, "pnum,family,top,algorithm,calls", 31) == 0 &&
                      strstr(line, ",waiting_s,mpi_calls") != NULL;
            rows++;
            const char *sum = strstr(line, ",combine sum,I,ring,3,64,64,64,192,"), *mpi = strrchr(line, ',');
            sums += sum != NULL;
            /* each of the 3 sums to all over 4 processes sends or receives at least once */
            counted += sum != NULL && mpi != NULL && atoi(mpi + 1) >= 3;
            bcasts += strstr(line, ",broadcast ") != NULL;
            barriers += strstr(line, ",barrier,-,-,1,0,") != NULL;
        }
        if (f != NULL)
            fclose(f);
        CHECK(file != NULL && header == 1, "BLACS_STATS file %s: %d header lines", file ? file : "(unset)",
              header);
        CHECK(sums == mt_size && barriers == mt_size && bcasts == mt_size && counted == mt_size,
              "%d rows: %d sums (%d with their MPI calls), %d broadcasts, %d barriers for %d processes", rows,
              sums, counted, bcasts, barriers, mt_size);
    }
    if (strcmp(what, "statsfinal") == 0) { /* no BLACS_EXIT: MPI_Finalize reports */
        int mine = check_failures(), total = 0;
        MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Finalize();
        return total != 0;
    }
    return mpitest_finish("t_debug");
}
