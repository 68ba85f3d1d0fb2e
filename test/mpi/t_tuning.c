/*
 * test/mpi/t_tuning.c [FILE] - a tuning file (BLACS_MODEL_FILE, written by
 * blacs-tune) is the cost model of every new grid (blacs/machine.c).
 *
 * Without an argument, on a grid split into two "nodes" (BLACS_NODES),
 * process 0 writes the file and is the only one that may read it (the
 * others' BLACS_MODEL_FILE names no file):
 *   - every process's node and network models are the file's values (a
 *     node of more processes than processors keeps its waits:
 *     blx_model_crowd), so nothing was measured;
 *   - BLACS_MODEL overrides single values and keeps the file's others;
 *   - a file of node values only: the network is measured (two significant
 *     digits, not the defaults compiled in);
 *   - BLACS_MODEL_FILE empty: no file, the defaults.
 * With FILE (blacs-tune's output): the grid's models are the values FILE
 * states, read here with sscanf, not with the library's parser, and its
 * MPI costs are FILE's 9 lines of them (3 operations on 3 shapes).
 */
#include <math.h>
#include <unistd.h>

#include "../../blacs/internal.h"
#include "mpitest.h"

/* The processes the launcher started on this node and its processors. */
static int procs, cpus;

static int grid_on(const char *nodes)
{
    int ctxt;
    setenv("BLACS_NODES", nodes, 1);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, mt_size);
    unsetenv("BLACS_NODES");
    return ctxt;
}

static int grid(void) { return grid_on("2"); }

static const blx_model *node_model(int ctxt) { return &blx_ctx_find(ctxt)->model; }

static const blx_model *net_model(int ctxt) { return &blx_ctx_find(ctxt)->scope[BLX_SCOPE_ALL].nodes->off; }

static void same(const char *what, const blx_model *got, const blx_model *want)
{
    CHECK(got->alpha == want->alpha && got->beta == want->beta && got->gamma == want->gamma &&
              got->overhead == want->overhead && got->window == want->window && got->overlap == want->overlap,
          "%s: alpha %g beta %g gamma %g overhead %g window %d overlap %d, expected %g %g %g %g %d %d", what,
          got->alpha, got->beta, got->gamma, got->overhead, got->window, got->overlap, want->alpha,
          want->beta, want->gamma, want->overhead, want->window, want->overlap);
}

/* The models a grid should get from a file that sets *on and *off over the
 * defaults. */
static void expect_crowded(blx_model *on, blx_model *off)
{
    blx_model_crowd(on, procs, cpus);
    if (procs > cpus)
        off->gamma = fmax(off->gamma, on->gamma);
}

/* Process 0 writes text to a file of its own; every process points
 * BLACS_MODEL_FILE at it, or (the others) at a file that does not exist. */
static char *write_file(const char *text)
{
    static char path[64];
    if (mt_rank == 0) {
        snprintf(path, sizeof path, "%s/t_tuning.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        int fd = mkstemp(path);
        CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) && close(fd) == 0,
              "cannot write %s", path);
        setenv("BLACS_MODEL_FILE", path, 1);
    } else {
        setenv("BLACS_MODEL_FILE", "/nonexistent/t_tuning.model", 1);
    }
    return path;
}

static void from_file(void)
{
    char *path = write_file("# t_tuning\n"
                            "gamma=1.5e-10\n"
                            "node.alpha=3.1e-6, node.beta=4.2e-10  # the node\n"
                            "node.window=3\n"
                            "node.overhead=1.5e-7\n"
                            "net.alpha=7.7e-6\n"
                            "net.beta=6.6e-10\n"
                            "net.overhead=0\n");
    blx_model on = {3.1e-6, 4.2e-10, 1.5e-10, 1.5e-7, 3, 1}, off = {7.7e-6, 6.6e-10, 1.5e-10, 0, 1, 1};
    expect_crowded(&on, &off);
    int ctxt = grid();
    same("the node's model from the file", node_model(ctxt), &on);
    same("the network's model from the file (not measured)", net_model(ctxt), &off);
    Cblacs_gridexit(ctxt);

    setenv("BLACS_MODEL", "node.beta=9e-10,net.alpha=1e-5", 1);
    on.beta = 9e-10;
    off.alpha = 1e-5;
    ctxt = grid();
    same("BLACS_MODEL over the file, node", node_model(ctxt), &on);
    same("BLACS_MODEL over the file, network", net_model(ctxt), &off);
    Cblacs_gridexit(ctxt);
    unsetenv("BLACS_MODEL");
    if (mt_rank == 0)
        unlink(path);

    /* node values only: the network is measured, once a job */
    path = write_file("node.alpha=3.1e-6\n");
    ctxt = grid();
    const blx_model *net = net_model(ctxt);
    double q[2] = {net->alpha, net->beta}, q0[2] = {q[0], q[1]};
    MPI_Bcast(q0, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 2; i++) {
        double digits = q[i] > 0 ? q[i] / pow(10, floor(log10(q[i])) - 1) : 0.5;
        CHECK(fabs(digits - round(digits)) < 1e-6, "the network measured: %s = %g", i ? "beta" : "alpha",
              q[i]);
    }
    CHECK((q[0] != BLX_MODEL_NET_ALPHA || q[1] != BLX_MODEL_NET_BETA) && q[0] == q0[0] && q[1] == q0[1],
          "a file of node values only: the network's model is %g, %g (process 0's %g, %g), not measured",
          q[0], q[1], q0[0], q0[1]);
    CHECK(node_model(ctxt)->alpha == fmax(3.1e-6, procs > cpus ? BLX_MODEL_OVERSUBSCRIBED_ALPHA : 0),
          "a file of node values only: node alpha %g", node_model(ctxt)->alpha);
    Cblacs_gridexit(ctxt);
    if (mt_rank == 0)
        unlink(path);

    /* empty: no file at all, not even the default place's (one node:
     * nothing measured) */
    setenv("BLACS_MODEL_FILE", "", 1);
    blx_model def = blx_model_for_node(procs, cpus);
    ctxt = grid_on("1");
    same("BLACS_MODEL_FILE empty: the default", node_model(ctxt), &def);
    Cblacs_gridexit(ctxt);
}

/* FILE's values, read as blacs-tune writes them: name=value a line. */
static void from_tuner(const char *path)
{
    blx_model on = blx_model_default(), off = blx_model_network(&on);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot read %s", path);
    char line[256], name[32];
    int values = 0, net_values = 0;
    int mpi_lines = 0, np0 = 0, nn0 = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        double x;
        if (strncmp(line, "mpi.", 4) == 0 && mpi_lines++ == 0)
            sscanf(line, "mpi.%*[a-z].%dx%d=", &np0, &nn0);
        if (line[0] == '#' || sscanf(line, "%31[a-z.]=%lf", name, &x) != 2)
            continue;
        const char *dot = strchr(name, '.');
        const char *key = dot ? dot + 1 : name;
        int node = strncmp(name, "node.", 5) == 0, netv = strncmp(name, "net.", 4) == 0;
        blx_model *m[2] = {netv ? NULL : &on, node ? NULL : &off};
        for (int i = 0; i < 2; i++) {
            if (m[i] == NULL)
                continue;
            if (!strcmp(key, "alpha"))
                m[i]->alpha = x;
            else if (!strcmp(key, "beta"))
                m[i]->beta = x;
            else if (!strcmp(key, "gamma"))
                m[i]->gamma = x;
            else if (!strcmp(key, "overhead"))
                m[i]->overhead = x;
            else if (!strcmp(key, "window"))
                m[i]->window = (int)x;
            else
                CHECK(0, "%s: unknown name %s", path, name);
        }
        values++;
        net_values += netv;
    }
    if (f != NULL)
        fclose(f);
    /* blacs-tune on two "nodes": gamma, and alpha, beta, overhead of both */
    CHECK(values >= 7 && net_values >= 3, "%s: %d values, %d of the network", path, values, net_values);
    CHECK(on.alpha > 0 && on.beta > 0 && off.alpha > 0 && off.beta > 0, "%s: a time of 0", path);
    expect_crowded(&on, &off);
    setenv("BLACS_MODEL_FILE", path, 1);
    int ctxt = grid();
    same("blacs-tune's node model", node_model(ctxt), &on);
    same("blacs-tune's network model", net_model(ctxt), &off);
    /* and MPI's collectives: three operations on each of three shapes (the
     * whole job, process 0's node, one process per node) */
    const blx_mpi_costs *mc = blx_ctx_find(ctxt)->mpi_costs;
    CHECK(mpi_lines == 9 && np0 == mt_size && nn0 == 2 && mc != NULL && mc->n == mpi_lines &&
              mc->shape[0].np == np0 && mc->shape[0].nn == nn0 && mc->shape[0].k == 5,
          "%s: %d lines of MPI's costs (the first for %d x %d), the grid's %d", path, mpi_lines, np0, nn0,
          mc != NULL ? mc->n : 0);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    mpitest_start();
    procs = blx_machine_node_processes();
    cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    unsetenv("BLACS_MODEL");
    if (argc > 1)
        from_tuner(argv[1]);
    else
        from_file();
    return mpitest_finish("t_tuning");
}
