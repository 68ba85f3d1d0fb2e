/*
 * blacs/types.c - the type table, generated from the type list.
 */
#include "types.h"

const blx_typeinfo blx_types[BLX_NTYPES] = {
#define BLX_TYPE_INFO(v, V, R, cplx) {#v[0], cplx, (cplx ? 2 : 1) * sizeof(R)},
    BLX_FOR_EACH_TYPE(BLX_TYPE_INFO)
#undef BLX_TYPE_INFO
};
