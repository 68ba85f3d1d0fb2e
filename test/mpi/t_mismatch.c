/*
 * test/mpi/t_mismatch.c PATH DIR - a receiver that expects another size
 * than the sender sends, on the paths where messages travel in pieces.
 * run-mpi.sh expects the clear BLACS error of a size mismatch ("the message
 * from process {r,c} is longer / shorter than the N bytes this call
 * expects", N the receiver's whole size) and the job's end, never a silent
 * prefix nor a hang.
 *
 * PATH: p2p (point-to-point pieces: the receiver comes 200 ms late, so the
 * send goes buffered), p2pstraight (the sender comes 200 ms late and sends
 * straight from A to the waiting receiver, blacs/p2p.c), ring (pipelined broadcast along TOP
 * 'I', staggered: its first piece shorter, topologies/model.h), ringsum
 * (pipelined and staggered fan-in along 'I'), twotree and twotreesum (the
 * default's two-tree broadcast and sum to one, 8 processes, links of window
 * 2), scatter (the default's scatter +
 * allgather, 8 processes) and rsag (the default's reduce-scatter + allgather).  The
 * default's algorithms are chosen with the cost model of a network
 * (BLACS_MODEL as in `make sim`).  DIR: more (one process expects 8 KiB
 * more than the others) or less (8 KiB less).  Sizes are chosen so that
 * both sizes take the same algorithm; before the call, every process checks
 * that its size is cut into several pieces (or the algorithm chosen), so
 * the case tests what it says.
 */
#include <stdlib.h>
#include <time.h>

#include "../../blacs/internal.h"
#include "../../topologies/topology.h"
#include "mpitest.h"

#define NETWORK_MODEL "alpha=1e-6,beta=1e-10,gamma=0,window=1,overlap=1"

/* The default's choice: a broadcast (combine 0), a combine to all (1) or to one (2). */
static const blx_algorithm *chosen(int ctxt, int combine, size_t bytes)
{
    blx_ctx *c = blx_ctx_find(ctxt);
    blx_scope *s = &c->scope[BLX_SCOPE_ALL];
    blx_route r;
    blx_route_in in = {s->np, bytes,      combine == 1, 1, 1,    1, &c->model, &s->trees,
                       NULL,  &c->forced, NULL,         0, NULL, 0, NULL};
    if (combine)
        blx_route_combine(&r, ' ', &in);
    else
        blx_route_bcast(&r, ' ', &in);
    return r.alg;
}

static void pause_200ms(void)
{
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "", *dir = argc > 2 ? argv[2] : "";
    /* the rings without this machine's 0.2 us a message, as in `make sim`:
     * then a chain of 4 is staggered; the two trees on links that carry two
     * transfers at once (on a network link a chain of 8 beats them) */
    const char *model = strncmp(path, "ring", 4) == 0      ? NETWORK_MODEL ",overhead=0"
                        : strncmp(path, "twotree", 7) == 0 ? NETWORK_MODEL ",window=2"
                                                           : NETWORK_MODEL;
    setenv("BLACS_MODEL", model, 1);
    mpitest_start();
    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    size_t n = (size_t)(4 << 20) / sizeof(double); /* doubles: 4 MiB */
    int odd = mycol == 2;                          /* the process that disagrees */
    size_t mine = n + (odd ? (strcmp(dir, "more") == 0 ? 1024 : -1024) : 0);
    double *a = calloc(n + 1024, sizeof *a);
    int sum = 0, ok, to_one = 0;
    const blx_algorithm *want = NULL;
    if (strcmp(path, "p2p") == 0) {
        ok = blx_p2p_cut(blx_ctx_find(ctxt), mine * 8).k > 1;
    } else if (strcmp(path, "p2pstraight") == 0) {
        ok = mine * 8 >= BLX_P2P_DIRECT_MIN && mine * 8 <= BLX_MAX_MSG;
    } else if (strcmp(path, "ring") == 0 || strcmp(path, "ringsum") == 0) {
        sum = path[4] == 's';
        blx_tree *t = blx_tree_build(mt_size, sum ? blx_alg_ring.combine_tree : blx_alg_ring.tree, 'I', 0);
        blx_plan plan =
            t ? blx_model_tree_plan(&blx_ctx_find(ctxt)->model, t, mine * 8, 8) : (blx_plan){0, 0, 0};
        ok = t != NULL && plan.piece < mine * 8 && plan.lead > 0;
        blx_tree_free(t);
    } else if (strcmp(path, "twotree") == 0 || strcmp(path, "scatter") == 0) {
        want = path[0] == 't' ? &blx_alg_two_tree : &blx_alg_scatter_doubling;
        if (want == &blx_alg_scatter_doubling)
            mine = n / 32 + (mine - n); /* about 128 KiB, where scatter + allgather wins */
        ok = chosen(ctxt, 0, mine * 8) == want;
    } else if (strcmp(path, "twotreesum") == 0) {
        sum = to_one = 1;
        want = &blx_alg_two_tree;
        ok = chosen(ctxt, 2, mine * 8) == want;
    } else if (strcmp(path, "rsag") == 0) {
        sum = 1;
        want = &blx_alg_rabenseifner;
        ok = chosen(ctxt, 1, mine * 8) == want;
    } else {
        ok = 0;
    }
    /* every process must take the path the case tests, or there is no case */
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    CHECK(ok, "case '%s' '%s' does not take the path it tests on %d processes", path, dir, mt_size);
    if (!ok)
        return mpitest_finish("t_mismatch");

    if (strncmp(path, "p2p", 3) == 0) {
        int straight = path[3] != '\0';
        if (mycol == 1) {
            if (straight)
                pause_200ms();
            Cdgesd2d(ctxt, (int)n, 1, a, (int)n, 0, 2);
        }
        if (mycol == 2) {
            if (!straight)
                pause_200ms();
            Cdgerv2d(ctxt, (int)mine, 1, a, (int)mine, 0, 1);
        }
    } else if (sum) {
        int dest = want && !to_one ? -1 : 0;
        Cdgsum2d(ctxt, "All", want ? " " : "I", (int)mine, 1, a, (int)mine, dest, dest);
    } else if (mycol == 0) {
        Cdgebs2d(ctxt, "All", want ? " " : "I", (int)mine, 1, a, (int)mine);
    } else {
        Cdgebr2d(ctxt, "All", want ? " " : "I", (int)mine, 1, a, (int)mine, 0, 0);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* only the abort ends this if anyone noticed */
    CHECK(0, "the mismatch (%s, %s) went unnoticed", path, dir);
    free(a);
    return mpitest_finish("t_mismatch");
}
