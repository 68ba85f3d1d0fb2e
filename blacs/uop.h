/*
 * blacs/uop.h - the user's functions of vTUOP2D (LAWN 73 section 7.1.3):
 * an initialisation, the operation and a post-operation, as the C or the
 * Fortran interface hands them over, and the calls the combine makes.
 *
 * Every function sees packed elements of the routine's type: the matrix's
 * elements (a trapezoid's only) column after column, a complex element as
 * (re, im).  INIT and POST get (n, v) with v[0..n); OP gets (n, a, b) and
 * sets a[i] := a[i] (op) b[i] for i < n.  From C, n comes by value; from
 * Fortran, every argument by address (SUBROUTINE OP(N, A, B)).  A call may
 * cover part of the vector only: whole columns of a general matrix, whole
 * elements of a trapezoid (combine.c says why).
 */
#ifndef BLX_UOP_H
#define BLX_UOP_H

#include <stddef.h>

#include "blacs.h"
#include "internal.h"

typedef struct blx_uop {
    blx_iface iface;
    union {
        struct {
            Cblacs_uop_fn *init;
            Cblacs_uop_op *op;
            Cblacs_uop_fn *post;
        } c; /* NULL init or post: nothing to do */
        struct {
            Fblacs_uop_fn *init;
            Fblacs_uop_op *op;
            Fblacs_uop_fn *post;
        } f;
    } fn;
} blx_uop;

/* One vTUOP2D in progress: the functions, the element size, and the
 * elements of the unit that calls never cut (a column, or 1). */
typedef struct blx_uop_run {
    const blx_uop *u;
    size_t esz, unit;
} blx_uop_run;

/* INIT (post = 0) or POST (post = 1) on the n elements at v. */
BLX_INTERNAL void blx_uop_apply(const blx_uop_run *r, int post, void *v, size_t n);
/* The merge a topology calls (blx_merge_fn): acc := acc (op) in over 'bytes'
 * bytes.  in_first is not needed: OP is commutative (blacs.h). */
BLX_INTERNAL void blx_uop_merge(const void *run, void *acc, const void *in, size_t bytes, int in_first);

#endif
