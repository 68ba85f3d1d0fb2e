/*
 * buffers/collective.c - MPI's own broadcast and reductions on an endpoint's
 * communicator, cut into pieces MPI's int counts can carry; see bytes.h.
 */
#include "bytes.h"

#include "../base/perturb.h"
#include "../base/report.h"

static void check(const blx_ep *e, int rc, const char *call) { blx_check_mpi(e->ctxt, e->routine, rc, call); }

void blx_mpi_bcast(const blx_ep *e, void *buf, size_t bytes, int root)
{
    for (size_t off = 0; off < bytes; off += BLX_MAX_MSG) {
        size_t len = bytes - off < BLX_MAX_MSG ? bytes - off : BLX_MAX_MSG;
        blx_perturb();
        check(e, MPI_Bcast((char *)buf + off, (int)len, MPI_BYTE, root, e->own), "MPI_Bcast");
    }
}

void blx_mpi_reduce(const blx_ep *e, const void *in, void *out, size_t bytes, MPI_Datatype t, MPI_Op op,
                    int root)
{
    int size;
    check(e, MPI_Type_size(t, &size), "MPI_Type_size");
    size_t count = bytes / (size_t)size, most = BLX_MAX_MSG / (size_t)size;
    for (size_t at = 0; at < count; at += most) {
        int n = (int)(count - at < most ? count - at : most);
        size_t off = at * (size_t)size;
        blx_perturb();
        if (root < 0)
            check(e, MPI_Allreduce((const char *)in + off, (char *)out + off, n, t, op, e->own),
                  "MPI_Allreduce");
        else
            check(e,
                  MPI_Reduce((const char *)in + off, e->me == root ? (char *)out + off : NULL, n, t, op, root,
                             e->own),
                  "MPI_Reduce");
    }
}
