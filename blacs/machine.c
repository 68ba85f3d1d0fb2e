/*
 * blacs/machine.c - what a new grid knows of the machine it runs on: the
 * cost models (on a node, and between nodes), which processes share a node,
 * and from these each scope's nodes (topologies/nodes.h) and the model its
 * one-level algorithms plan with.  Every member of the grid gets the same
 * values: routes and plans depend on them, and every member must choose
 * what the others choose.
 *
 * Nodes: the processes MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) puts
 * together (under SimGrid's SMPI: the processes of one simulated host), or
 * BLACS_NODES, a testing aid that splits the grid into that many "nodes"
 * on any machine: "N" puts consecutive grid processes together (blocks of
 * ceil(P/N)), "N:cyclic" deals them out round robin.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Processes the launcher started on this node (Open MPI, MPICH's Hydra),
 * or 0 if it does not say. */
static int node_processes(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v != NULL && atoi(v) > 0)
            return atoi(v);
    }
    return 0;
}

/* ---- the network, measured ---- */

/* Process 0 of a grid that spans nodes times messages to the first grid
 * process of another node (the peer), once a job (process 0 keeps what it
 * found for later grids): the fastest of PROBE_TRIES round trips of 8
 * bytes is 2 alpha; of PROBE_BYTES answered by 8 bytes, 2 alpha + n beta.
 * Both are rounded to two significant digits, so that the usual jitter of
 * a network seldom changes a choice between runs (BLACS_MODEL pins them).
 * Under SimGrid's SMPI it finds the simulated platform's values. */
#define PROBE_TRIES 4
#define PROBE_BYTES ((size_t)1 << 20)
#define PROBE_TAG 0 /* nobody else sends on the grid before process 0 has measured */

static double two_digits(double x)
{
    double unit = x > 0 ? pow(10, floor(log10(x)) - 1) : 0;
    return x > 0 ? round(x / unit) * unit : 0;
}

/* Seconds per byte of adding vectors of doubles, the fastest of
 * PROBE_TRIES, rounded as the rest (none where computing takes no time, as
 * in a simulation that does not simulate it). */
static double fold_time(char *buf)
{
    double *a = (double *)(void *)buf, best = 1e30;
    size_t n = PROBE_BYTES / 2 / sizeof *a;
    memset(buf, 0, PROBE_BYTES);
    for (int t = 0; t < PROBE_TRIES; t++) {
        double t0 = MPI_Wtime();
        for (size_t i = 0; i < n; i++)
            a[i] += a[n + i];
        double dt = MPI_Wtime() - t0;
        best = dt < best ? dt : best;
    }
    return two_digits(best / (double)(n * sizeof *a));
}

/* The fastest of PROBE_TRIES round trips: n bytes there, 8 back (process 0). */
static double round_trip(const char *routine, MPI_Comm comm, int peer, char *buf, size_t n)
{
    double best = 1e30;
    for (int t = 0; t < PROBE_TRIES; t++) {
        double t0 = MPI_Wtime();
        blx_check_mpi(-1, routine, MPI_Send(buf, (int)n, MPI_BYTE, peer, PROBE_TAG, comm), "MPI_Send");
        blx_check_mpi(-1, routine, MPI_Recv(buf, 8, MPI_BYTE, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
        double dt = MPI_Wtime() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

/* Process 0 (learning: measure; else tell the peer there is nothing to
 * answer) and the peer. */
static void probe(const char *routine, MPI_Comm comm, int vpid, int peer, int learning, blx_model *off)
{
    int go = learning;
    if (vpid == 0)
        blx_check_mpi(-1, routine, MPI_Send(&go, 1, MPI_INT, peer, PROBE_TAG, comm), "MPI_Send");
    else
        blx_check_mpi(-1, routine, MPI_Recv(&go, 1, MPI_INT, 0, PROBE_TAG, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
    char *buf = go ? malloc(PROBE_BYTES) : NULL;
    if (go && buf == NULL)
        blx_fatal(-1, routine, "out of memory");
    for (int t = 0; go && vpid != 0 && t < 2 * PROBE_TRIES; t++) { /* the peer answers */
        MPI_Status st;
        blx_check_mpi(-1, routine, MPI_Recv(buf, (int)PROBE_BYTES, MPI_BYTE, 0, PROBE_TAG, comm, &st),
                      "MPI_Recv");
        blx_check_mpi(-1, routine, MPI_Send(buf, 8, MPI_BYTE, 0, PROBE_TAG, comm), "MPI_Send");
    }
    if (go && vpid == 0) {
        off->gamma = fold_time(buf);
        double small = round_trip(routine, comm, peer, buf, 8),
               large = round_trip(routine, comm, peer, buf, PROBE_BYTES);
        off->alpha = two_digits(small / 2);
        off->beta = two_digits(large > small ? (large - small) / (double)PROBE_BYTES : 0);
    }
    free(buf);
}

/* The cost models of a new grid, on a node (m[0]) and between nodes (m[1]):
 * the defaults for process 0's node (more processes than processors there:
 * blx_model_for_node) and for a network, the network's measured where the
 * grid spans nodes, or BLACS_MODEL over both, as process 0 of the grid
 * reads them. */
static void grid_models(const char *routine, MPI_Comm comm, int vpid, const int *id, int np, blx_model m[2])
{
    static blx_model learned; /* process 0's measurement, once a job */
    static int have;
    m[0] = blx_model_for_node(node_processes(), (int)sysconf(_SC_NPROCESSORS_ONLN));
    m[1] = blx_model_network(&m[0]);
    const char *text = getenv("BLACS_MODEL");
    if (vpid == 0 && text != NULL && blx_model_parse_levels(text, &m[0], &m[1]) != 0)
        blx_fatal(-1, routine,
                  "BLACS_MODEL='%s' is not a cost model: expected name=value pairs separated by commas, "
                  "names alpha, beta, gamma, overhead (seconds, seconds per byte), window (1 to 64) "
                  "and overlap (0 or 1), each alone (both levels) or after node. or net. (one level)",
                  text);
    int peer = 1;
    while (peer < np && id[peer] == id[0])
        peer++;
    if (peer < np && (vpid == 0 || vpid == peer)) {
        if (vpid == 0 && have && text == NULL)
            m[1] = learned;
        probe(routine, comm, vpid, peer, text == NULL && !have, &m[1]);
        if (vpid == 0 && text == NULL) {
            learned = m[1], have = 1;
            m[0].gamma = m[1].gamma; /* folding is the same anywhere */
        }
    }
    blx_check_mpi(-1, routine, MPI_Bcast(m, 2 * sizeof *m, MPI_BYTE, 0, comm), "MPI_Bcast");
}

/* BLACS_NODES as process 0 reads it: *count nodes, *cyclic placement;
 * 0 nodes: not set. */
static void fake_nodes(const char *routine, int np, int *count, int *cyclic)
{
    const char *text = getenv("BLACS_NODES");
    char rest[16] = "";
    *count = *cyclic = 0;
    if (text == NULL || *text == '\0')
        return;
    int n = sscanf(text, "%9d%15s", count, rest);
    *cyclic = strcmp(rest, ":cyclic") == 0;
    if (n < 1 || *count < 1 || *count > np || (rest[0] != '\0' && !*cyclic))
        blx_fatal(
            -1, routine,
            "BLACS_NODES='%s' is not a split of the %d processes into nodes: expected a count from 1 to "
            "%d, with :cyclic to deal the processes out round robin",
            text, np, np);
}

/* The node of every grid process: a name shared by the processes of one
 * node (the lowest grid rank among them). */
static int *grid_nodes(const char *routine, MPI_Comm comm, int np, int vpid)
{
    int *id = malloc((size_t)np * sizeof *id), fake[2] = {0, 0};
    if (id == NULL)
        blx_fatal(-1, routine, "out of memory");
    if (vpid == 0)
        fake_nodes(routine, np, &fake[0], &fake[1]);
    blx_check_mpi(-1, routine, MPI_Bcast(fake, 2, MPI_INT, 0, comm), "MPI_Bcast");
    if (fake[0] > 0) {
        int block = (np + fake[0] - 1) / fake[0];
        for (int r = 0; r < np; r++)
            id[r] = fake[1] ? r % fake[0] : r / block;
        return id;
    }
    MPI_Comm node;
    int mine;
    blx_check_mpi(-1, routine, MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, vpid, MPI_INFO_NULL, &node),
                  "MPI_Comm_split_type");
    blx_check_mpi(-1, routine, MPI_Allreduce(&vpid, &mine, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
    MPI_Comm_free(&node);
    blx_check_mpi(-1, routine, MPI_Allgather(&mine, 1, MPI_INT, id, 1, MPI_INT, comm), "MPI_Allgather");
    return id;
}

/* Scope s's nodes and the model of its one-level algorithms: on one node,
 * the node's; across nodes, the network's with each card shared by the
 * scope's members on its node. */
static void scope_nodes(const char *routine, blx_scope *s, const int *id, const blx_model m[2])
{
    int *nid = malloc((size_t)s->np * 2 * sizeof *nid);
    if (nid == NULL)
        blx_fatal(-1, routine, "out of memory");
    int *rank = nid + s->np;
    for (int k = 0; k < s->np; k++) {
        rank[k] = s->first + k * s->stride;
        nid[k] = id[rank[k]];
    }
    s->nodes = blx_nodes_build(s->np, nid, rank, &m[0], &m[1]);
    free(nid);
    if (s->nodes == NULL)
        blx_fatal(-1, routine, "out of memory");
    s->model = s->nodes->nn == 1 ? m[0] : blx_model_across(&m[1], s->nodes->most);
}

void blx_machine_init(blx_ctx *c, const char *routine)
{
    int np = c->nprow * c->npcol, *id = grid_nodes(routine, c->comm, np, c->vpid);
    blx_model m[2];
    grid_models(routine, c->comm, c->vpid, id, np, m);
    c->model = m[0];
    for (int s = 0; s < BLX_NSCOPE; s++)
        scope_nodes(routine, &c->scope[s], id, m);
    free(id);
}

void blx_machine_free(blx_ctx *c)
{
    for (int s = 0; s < BLX_NSCOPE; s++) {
        blx_nodes_free(c->scope[s].nodes);
        c->scope[s].nodes = NULL;
    }
}
