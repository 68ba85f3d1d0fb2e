/*
 * blacs/getset.c - blacs_get and blacs_set (spec section 2.2).
 */
#include "../base/debug.h"
#include "blacs.h"
#include "internal.h"

/* WHAT, and ConTxt where the code reads one (the others take any value). */
static int what_arg(const char *routine, blacs_int what_in, blacs_int ctxt_in, int *ctxt)
{
    int what = blx_int_arg(what_in, routine, "WHAT");
    *ctxt =
        what < BLACS_SGET_BLACSCONTXT ? blx_int_or_none(ctxt_in) : blx_int_arg(ctxt_in, routine, "ConTxt");
    return what;
}

void blx_get(blx_iface iface, blacs_int ctxt_in, blacs_int what_in, blacs_int *val)
{
    const char *routine = "BLACS_GET";
    int ctxt, what = what_arg(routine, what_in, ctxt_in, &ctxt);
    blx_ctx *c = NULL;
    blx_init();
    if (what >= BLACS_SGET_BLACSCONTXT && what <= BLACS_SGET_TOPSCOHRNT)
        c = blx_ctx_get(ctxt, routine);
    if (val == NULL)
        blx_fatal(ctxt, routine, "VAL is a null pointer (WHAT = %d)", what);
    switch (what) {
    case BLACS_SGET_SYSCONTXT: *val = blx_sys_handle(iface, MPI_COMM_WORLD); break;
    case BLACS_SGET_MSGIDS:
        val[0] = blx_g.id_lo;
        val[1] = blx_g.id_hi;
        break;
    case BLACS_SGET_DEBUGLVL: *val = blx_debug_level(); break; /* BLACS_DEBUG */
    case BLACS_SGET_BLACSCONTXT: *val = blx_sys_handle(iface, c->comm); break;
    case BLACS_SGET_NR_BS: *val = c->nr_bs; break;
    case BLACS_SGET_NB_BS: *val = c->nb_bs; break;
    case BLACS_SGET_NR_CO: *val = c->nr_co; break;
    case BLACS_SGET_NB_CO: *val = c->nb_co; break;
    case BLACS_SGET_TOPSREPEAT: *val = c->topsrepeat; break;
    case BLACS_SGET_TOPSCOHRNT: *val = c->topscohrnt; break;
    default: blx_warn(ctxt, routine, "Unknown WHAT (%d)", what); break;
    }
}

static void set_rings(int ctxt, const char *routine, int *field, int v, const char *what)
{
    if (v == 0)
        blx_warn(ctxt, routine, "%s nrings cannot be set to zero", what);
    else
        *field = v;
}

static void set_branches(int ctxt, const char *routine, int *field, int v, const char *what)
{
    if (v < 1)
        blx_warn(ctxt, routine, "Illegal %s nbranches (%d); must be strictly positive", what, v);
    else
        *field = v;
}

/* The reference ignores code 1 (its MPI communicators isolate it); we
 * honour it, for grids created afterwards.  Every process must set the same
 * range. */
static void set_msgids(int ctxt, const char *routine, const blacs_int *val)
{
    long long lo = val[0], hi = val[1];
    if (lo >= 0 && hi <= blx_g.tag_ub && hi - lo + 1 >= BLX_MSGID_MIN_RANGE) {
        blx_g.id_lo = (int)lo;
        blx_g.id_hi = (int)hi;
        return;
    }
    /* A caller with 64-bit INTEGER passes VAL(1) as two 32-bit halves: the
     * second int read is then VAL(1)'s high half, 0 (or -1 if negative). */
    int wide = sizeof(blacs_int) == 4 && (hi == 0 || hi == -1);
    blx_warn(ctxt, routine,
             "illegal message-ID range [%lld, %lld]: need 0 <= min, max <= %d (MPI_TAG_UB) and "
             "at least %d IDs; range unchanged%s",
             lo, hi, blx_g.tag_ub, BLX_MSGID_MIN_RANGE,
             wide ? " (if the caller was compiled with 64-bit INTEGER, e.g. gfortran -fdefault-integer-8, "
                    "it must link the ILP64 library, libblacs64-<mpi>)"
                  : "");
}

void blx_set(blacs_int ctxt_in, blacs_int what_in, const blacs_int *val)
{
    const char *routine = "BLACS_SET";
    int ctxt, what = what_arg(routine, what_in, ctxt_in, &ctxt);
    blx_ctx *c = NULL;
    blx_init();
    if (what >= BLACS_SGET_NR_BS && what <= BLACS_SGET_TOPSCOHRNT)
        c = blx_ctx_get(ctxt, routine);
    if (val == NULL &&
        (what == BLACS_SGET_MSGIDS || (what >= BLACS_SGET_NR_BS && what <= BLACS_SGET_TOPSCOHRNT)))
        blx_fatal(ctxt, routine, "VAL is a null pointer (WHAT = %d)", what);
    switch (what) {
    case BLACS_SGET_SYSCONTXT:
        blx_warn(ctxt, routine, "Cannot set BLACS system context, can only BLACS_GET");
        break;
    case BLACS_SGET_MSGIDS: set_msgids(ctxt, routine, val); break;
    case BLACS_SGET_DEBUGLVL:
        blx_warn(ctxt, routine,
                 "Cannot set the BLACS debug level here: set BLACS_DEBUG (0-3) in the environment");
        break;
    case BLACS_SGET_BLACSCONTXT:
        blx_warn(ctxt, routine, "Cannot set BLACS context, can only BLACS_GET");
        break;
    case BLACS_SGET_NR_BS:
        set_rings(ctxt, routine, &c->nr_bs, blx_int_arg(*val, routine, "VAL"), "BSBR");
        break;
    case BLACS_SGET_NB_BS:
        set_branches(ctxt, routine, &c->nb_bs, blx_int_arg(*val, routine, "VAL"), "BSBR");
        break;
    case BLACS_SGET_NR_CO:
        set_rings(ctxt, routine, &c->nr_co, blx_int_arg(*val, routine, "VAL"), "COMB");
        break;
    case BLACS_SGET_NB_CO:
        set_branches(ctxt, routine, &c->nb_co, blx_int_arg(*val, routine, "VAL"), "COMB");
        break;
    case BLACS_SGET_TOPSREPEAT: c->topsrepeat = blx_int_arg(*val, routine, "VAL"); break;
    case BLACS_SGET_TOPSCOHRNT: c->topscohrnt = blx_int_arg(*val, routine, "VAL"); break;
    default: blx_warn(ctxt, routine, "Unknown WHAT (%d)", what); break;
    }
}
