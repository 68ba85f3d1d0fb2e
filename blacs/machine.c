/*
 * blacs/machine.c - what a new grid knows of the machine it runs on: the
 * cost models (on a node, and between nodes), which processes share a node,
 * and from these each scope's nodes (topologies/nodes.h) and the model its
 * one-level algorithms plan with.  Every member of the grid gets the same
 * values: routes and plans depend on them, and every member must choose
 * what the others choose.
 *
 * The models: see grid_models; a tuning file's syntax: model.h
 * (blx_model_parse_file).
 *
 * Nodes: the processes MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) puts
 * together (under SimGrid's SMPI: the processes of one simulated host), or
 * BLACS_NODES, a testing aid that splits the grid into that many "nodes"
 * on any machine: "N" puts consecutive grid processes together (blocks of
 * ceil(P/N)), "N:cyclic" deals them out round robin.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "probe.h"

int blx_machine_node_processes(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v != NULL && atoi(v) > 0)
            return atoi(v);
    }
    return 0;
}

/* ---- the network and the node's latency, measured ---- */

/* Process 0 of a grid that spans nodes times messages to the first grid
 * process of another node (the peer), once a job (process 0 keeps what it
 * found for later grids): round trips of 8 bytes and of BLX_PROBE_BYTES,
 * and a sum (probe.h).  Under SimGrid's SMPI it finds the simulated
 * platform's values.
 *
 * Then, where it has a neighbour on its own node, round trips of 8 bytes
 * and of BLX_PROBE_BYTES to it: the node's alpha is one whole round trip.
 * On a node a broadcast of more than 256 bytes waits for ready notes from
 * its source's receivers (bcast.c), a latency each way, and the choices
 * made with the whole round trip ran faster in simulation than with half
 * of it (doc/performance-history.md); between nodes a message sent whole has no note,
 * and alpha is half a round trip.  Whether one level or two is faster
 * turns on the two links' latencies (two levels take more steps, the
 * node's cheaper), so the node's alpha is measured where the grid spans
 * nodes, and its beta with it (round trips of BLX_PROBE_BYTES: one pair's
 * copy rate).  The beta compiled in is this development machine's, five
 * times the simulated nodes' and as far from most: with it the default
 * priced two levels far above their time, and sums of 4 KiB on nodes of 3
 * and 5 processes ran 1.1-1.45 x slower than MPI's (doc/performance.md,
 * "The node's beta measured"). */
#define PROBE_TAG 0 /* nobody else sends on the grid before process 0 has measured */

/* What probe measures: the network's alpha (half a round trip), beta and
 * the speed of folding; or a node's alpha (one whole round trip) and beta. */
enum { PROBE_NET, PROBE_NODE };

/* Process 0 (learning: measure; else tell the peer there is nothing to
 * answer) and the peer: the link's model as 'what' says, and in *found (if
 * not NULL) the beta measured (0: 1 MiB came back no slower than 8 bytes,
 * a busy node; the default's stays).  Returns 1 where this process
 * measured. */
static int probe(const char *routine, MPI_Comm comm, int vpid, int peer, int learning, int what, blx_model *m,
                 double *found)
{
    int go = learning;
    if (vpid == 0)
        blx_check_mpi(-1, routine, MPI_Send(&go, 1, MPI_INT, peer, PROBE_TAG, comm), "MPI_Send");
    else
        blx_check_mpi(-1, routine, MPI_Recv(&go, 1, MPI_INT, 0, PROBE_TAG, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
    char *buf = go ? malloc(BLX_PROBE_BYTES) : NULL;
    if (go && buf == NULL)
        blx_fatal(-1, routine, "out of memory");
    if (go && vpid != 0)
        blx_probe_answer(routine, comm, 0, PROBE_TAG, buf, 2 * BLX_PROBE_TRIES);
    if (go && vpid == 0) {
        double small = blx_probe_round_trip(routine, comm, peer, PROBE_TAG, buf, 8), alpha, beta;
        if (what == PROBE_NET)
            m->gamma = blx_probe_fold(buf);
        blx_probe_link(small, blx_probe_round_trip(routine, comm, peer, PROBE_TAG, buf, BLX_PROBE_BYTES),
                       &alpha, &beta);
        m->alpha = what == PROBE_NET ? alpha : (small > 0 ? blx_probe_digits(small) : m->alpha);
        if (beta > 0)
            m->beta = beta;
        if (found != NULL)
            *found = beta > 0 ? beta : 0;
    }
    free(buf);
    return go && vpid == 0;
}

/* ---- a tuning file ---- */

#define MODEL_FILE_MAX (64 << 10)

/* Process 0: the tuning file over m (BLACS_MODEL_FILE; unset: the default
 * place, if there is a file there; empty: none).  Returns 1 if a file was
 * read; *net: it sets the network's model. */
static int read_model_file(const char *routine, blx_model m[2], int *net, blx_mpi_costs *mpi)
{
    const char *env = getenv("BLACS_MODEL_FILE"), *path = env != NULL ? env : BLX_MODEL_FILE_DEFAULT;
    const char *what = env != NULL ? "BLACS_MODEL_FILE=" : "the tuning file ";
    *net = 0;
    if (*path == '\0')
        return 0;
    FILE *f = fopen(path, "r");
    if (f == NULL && env == NULL && errno == ENOENT)
        return 0;
    if (f == NULL)
        blx_fatal(-1, routine, "%s'%s' cannot be read: %s", what, path, strerror(errno));
    char *text = malloc(MODEL_FILE_MAX + 1);
    if (text == NULL)
        blx_fatal(-1, routine, "out of memory");
    size_t n = fread(text, 1, MODEL_FILE_MAX + 1, f);
    int failed = ferror(f);
    fclose(f);
    if (failed || n > MODEL_FILE_MAX)
        blx_fatal(-1, routine, "%s'%s' cannot be read: %s", what, path,
                  failed ? "read error" : "longer than 64 KiB: not a tuning file");
    text[n] = '\0';
    int line = blx_model_parse_file(text, &m[0], &m[1], net, mpi);
    if (line > 0) {
        const char *p = text;
        for (int l = 1; l < line; l++)
            p = strchr(p, '\n') + 1;
        blx_fatal(-1, routine,
                  "%s'%s', line %d: '%.*s' is not a cost model: expected name=value pairs separated by "
                  "commas (names alpha, beta, gamma, overhead, window, overlap, each alone or after node. or "
                  "net.), or mpi.OP.NPxNN=BYTES:RATIO,... (OP bcast, reduce or allreduce; sizes increasing; "
                  "at most %d such lines), '#' comments and blank lines, as blacs-tune writes them",
                  what, path, line, (int)strcspn(p, "\n"), p, BLX_MPI_SHAPES);
    }
    free(text);
    return 1;
}

static double node_alpha, node_beta; /* process 0's measurement of the node, once a job */

double blx_machine_node_alpha(void) { return node_alpha; }

double blx_machine_node_beta(void) { return node_beta; }

/* The cost models of a new grid, on a node (m[0]) and between nodes (m[1]),
 * as process 0 of the grid finds them, weakest first: the defaults; a
 * tuning file; the network measured, where the grid spans nodes and
 * neither BLACS_MODEL nor the file gives it, and the node's alpha and beta
 * with it where neither gives any model; more processes than processors
 * on process 0's node (blx_model_crowd); BLACS_MODEL.  And m[2], m[3]: the
 * same but for the measurement, which repeatable combines (BLACS_SET 15)
 * plan with, so that a run's measurement never changes their order. */
static void grid_models(const char *routine, MPI_Comm comm, int vpid, const int *id, int np, blx_model m[4],
                        blx_mpi_costs *mpi)
{
    static blx_model learned; /* process 0's measurement of the network, once a job */
    static int have;
    const char *text = getenv("BLACS_MODEL");
    int file = 0, file_net = 0, procs = blx_machine_node_processes(),
        cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    m[0] = blx_model_default();
    m[1] = blx_model_network(&m[0]);
    if (vpid == 0)
        file = read_model_file(routine, m, &file_net, mpi);
    m[2] = m[0], m[3] = m[1];
    int peer = 1, near = 1, measure = text == NULL && !file_net, measure_node = text == NULL && !file;
    while (peer < np && id[peer] == id[0])
        peer++;
    while (near < np && id[near] != id[0])
        near++;
    if (peer < np && (vpid == 0 || vpid == peer)) {
        if (vpid == 0 && have && measure)
            m[1] = learned;
        probe(routine, comm, vpid, peer, measure && !have, PROBE_NET, &m[1], NULL);
        if (vpid == 0 && measure) {
            learned = m[1], have = 1;
            if (!file)
                m[0].gamma = m[1].gamma; /* folding is the same anywhere */
        }
    }
    if (peer < np && near < np && (vpid == 0 || vpid == near)) {
        if (vpid == 0 && node_alpha > 0 && measure_node)
            m[0].alpha = node_alpha, m[0].beta = node_beta > 0 ? node_beta : m[0].beta;
        if (probe(routine, comm, vpid, near, measure_node && node_alpha == 0, PROBE_NODE, &m[0], &node_beta))
            node_alpha = m[0].alpha;
    }
    for (int l = 0; l < 4; l += 2) {
        blx_model_crowd(&m[l], procs, cpus);
        if (procs > cpus && cpus > 0) /* folding shares the processors wherever the other end is */
            m[l + 1].gamma = fmax(m[l + 1].gamma, m[l].gamma);
    }
    if (vpid == 0 && text != NULL && blx_model_parse_levels(text, &m[0], &m[1]) != 0)
        blx_fatal(-1, routine,
                  "BLACS_MODEL='%s' is not a cost model: expected name=value pairs separated by commas, "
                  "names alpha, beta, gamma, overhead (seconds, seconds per byte), window (1 to 64) "
                  "and overlap (0 or 1), each alone (both levels) or after node. or net. (one level)",
                  text);
    if (text != NULL) /* (nothing was measured: m[2..3] are m[0..1]) */
        m[2] = m[0], m[3] = m[1];
    struct {
        blx_model m[4];
        int nmpi;
    } all = {{m[0], m[1], m[2], m[3]}, mpi->n};
    blx_check_mpi(-1, routine, MPI_Bcast(&all, sizeof all, MPI_BYTE, 0, comm), "MPI_Bcast");
    memcpy(m, all.m, sizeof all.m), mpi->n = all.nmpi;
    if (mpi->n > 0)
        blx_check_mpi(-1, routine,
                      MPI_Bcast(mpi->shape, mpi->n * (int)sizeof mpi->shape[0], MPI_BYTE, 0, comm),
                      "MPI_Bcast");
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
int *blx_machine_nodes(const char *routine, MPI_Comm comm, int np, int vpid)
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
static void scope_nodes(const char *routine, blx_scope *s, const int *id, const blx_model m[4])
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
    int measured = memcmp(m, m + 2, 2 * sizeof *m) != 0;
    s->fixed_nodes = measured ? blx_nodes_build(s->np, nid, rank, &m[2], &m[3]) : NULL;
    free(nid);
    if (s->nodes == NULL || (measured && s->fixed_nodes == NULL))
        blx_fatal(-1, routine, "out of memory");
    s->model = s->nodes->nn == 1 ? m[0] : blx_model_across(&m[1], s->nodes->most);
    s->fixed_model = s->nodes->nn == 1 ? m[2] : blx_model_across(&m[3], s->nodes->most);
}

void blx_machine_init(blx_ctx *c, const char *routine)
{
    int np = c->nprow * c->npcol, *id = blx_machine_nodes(routine, c->comm, np, c->vpid);
    blx_model m[4];
    blx_mpi_costs *mpi = calloc(1, sizeof *mpi);
    if (mpi == NULL)
        blx_fatal(-1, routine, "out of memory");
    grid_models(routine, c->comm, c->vpid, id, np, m, mpi);
    c->model = m[0];
    if (mpi->n > 0)
        c->mpi_costs = mpi;
    else
        free(mpi);
    for (int s = 0; s < BLX_NSCOPE; s++)
        scope_nodes(routine, &c->scope[s], id, m);
    free(id);
}

void blx_machine_free(blx_ctx *c)
{
    free(c->mpi_costs);
    c->mpi_costs = NULL;
    for (int s = 0; s < BLX_NSCOPE; s++) {
        blx_nodes_free(c->scope[s].nodes);
        blx_nodes_free(c->scope[s].fixed_nodes);
        c->scope[s].nodes = c->scope[s].fixed_nodes = NULL;
    }
}
