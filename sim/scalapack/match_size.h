/*
 * sim/scalapack/match_size.h - MPI_Type_match_size for the reference BLACS
 * under SMPI, which does not implement it (SimGrid 3.32 aborts with "Not yet
 * implemented: PMPI_Type_match_size").  The reference BLACS asks it for the
 * MPI type of its Fortran INTEGER (igesd2d_.c, igamx2d_.c, ...).
 * sim/scalapack/build.sh includes this header ahead of every file of
 * BLACS/SRC (-include), so that their calls come here; a function in a
 * library would not do, since SMPI declares the MPI functions weak and a weak
 * reference does not pull a member out of an archive.
 */
#ifndef SIM_MATCH_SIZE_H
#define SIM_MATCH_SIZE_H
#include <mpi.h>

static inline int sim_type_match_size(int typeclass, int size, MPI_Datatype *type)
{
    if (typeclass != MPI_TYPECLASS_INTEGER || (size != 4 && size != 8))
        return MPI_ERR_ARG;
    *type = size == 4 ? MPI_INT : MPI_LONG_LONG;
    return MPI_SUCCESS;
}
#undef MPI_Type_match_size
#define MPI_Type_match_size sim_type_match_size
#endif
