/*
 * blacs/probe.c - timing the machine; see probe.h.
 */
#include "probe.h"

#include <math.h>
#include <string.h>

#include "../base/report.h"

double blx_probe_digits(double x)
{
    double unit = x > 0 ? pow(10, floor(log10(x)) - 1) : 0;
    return x > 0 ? round(x / unit) * unit : 0;
}

double blx_probe_round_trip(const char *routine, MPI_Comm comm, int peer, int tag, char *buf, size_t n)
{
    double best = 1e30;
    for (int t = 0; t < BLX_PROBE_TRIES; t++) {
        double t0 = MPI_Wtime();
        blx_check_mpi(-1, routine, MPI_Send(buf, (int)n, MPI_BYTE, peer, tag, comm), "MPI_Send");
        blx_check_mpi(-1, routine, MPI_Recv(buf, 8, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
        double dt = MPI_Wtime() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

void blx_probe_answer(const char *routine, MPI_Comm comm, int from, int tag, char *buf, int count)
{
    for (int t = 0; t < count; t++) {
        blx_check_mpi(-1, routine,
                      MPI_Recv(buf, (int)BLX_PROBE_BYTES, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE),
                      "MPI_Recv");
        blx_check_mpi(-1, routine, MPI_Send(buf, 8, MPI_BYTE, from, tag, comm), "MPI_Send");
    }
}

double blx_probe_fold(char *buf)
{
    double *a = (double *)(void *)buf, best = 1e30;
    size_t n = BLX_PROBE_BYTES / 2 / sizeof *a;
    memset(buf, 0, BLX_PROBE_BYTES);
    for (int t = 0; t < BLX_PROBE_TRIES; t++) {
        double t0 = MPI_Wtime();
        for (size_t i = 0; i < n; i++)
            a[i] += a[n + i];
        double dt = MPI_Wtime() - t0;
        best = dt < best ? dt : best;
    }
    return blx_probe_digits(best / (double)(n * sizeof *a));
}

void blx_probe_link(double small, double large, double *alpha, double *beta)
{
    *alpha = blx_probe_digits(small / 2);
    *beta = blx_probe_digits(large > small ? (large - small) / (double)BLX_PROBE_BYTES : 0);
}
