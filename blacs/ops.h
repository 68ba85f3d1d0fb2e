/*
 * blacs/ops.h - the element operations of the combines: sum, absolute
 * maximum and absolute minimum (spec section 5.1), for every type.
 *
 * A combine buffer holds n values, followed (for AMX/AMN with location) by n
 * ints: each value's "distance", which breaks ties and tells where the value
 * came from.  blx_merge(acc, in) folds in into acc element by element:
 *
 *   SUM     acc += in (complex: both components; integers wrap around on overflow)
 *   AMX     the entry of larger |x| wins; AMN the smaller.  |x| is x < 0 ? -x : x
 *           for integers (as unsigned, so INT_MIN is the largest) and reals, and
 *           |re| + |im| for complex (spec 5.1).  On equal |x|: with locations,
 *           the smaller distance wins; without, the algebraically larger value
 *           (complex: larger real part, then larger imaginary part).
 *
 * Both tie rules make AMX/AMN associative and commutative, so every
 * topology gives the same answer; SUM of floating types depends on the order
 * of the additions, which the combine topologies control.
 *
 * Generated from the type list (types.h); plain C, no MPI.
 */
#ifndef BLX_OPS_H
#define BLX_OPS_H

#include <stddef.h>

#include "../base/visibility.h"
#include "types.h"

/* BLX_OP_USER: vTUOP2D, whose operation is the user's (uop.h), not blx_merge's. */
typedef enum blx_opkind { BLX_OP_SUM, BLX_OP_AMX, BLX_OP_AMN, BLX_OP_USER } blx_opkind;

typedef struct blx_reduce {
    blx_opkind kind;
    blx_type type;
    size_t n;    /* elements */
    int located; /* AMX/AMN carrying distances */
} blx_reduce;

/* Bytes of a combine buffer: values, then the distances if located. */
BLX_INTERNAL size_t blx_reduce_bytes(const blx_reduce *r);
/* The distances of a buffer (NULL if not located). */
BLX_INTERNAL int *blx_reduce_locs(const blx_reduce *r, void *buf);

/* acc := acc (op) in, over the first 'bytes' bytes of both buffers: a whole
 * buffer, or (not located) any whole number of elements of it.  With
 * in_first, acc := in (op) acc instead: the operands in the other order, so
 * that both members of an exchange can compute "lower member's (op) upper
 * member's" bit for bit without copying.  (The one thing left to chance: the
 * payload of a sum of two different NaNs, as C compilers treat + as
 * commutative.)  'op' is a
 * const blx_reduce *: the signature lets a topology call it without knowing
 * what it combines. */
BLX_INTERNAL void blx_merge(const void *op, void *acc, const void *in, size_t bytes, int in_first);

#endif
