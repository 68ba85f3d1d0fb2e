/*
 * blacs/getset.c - blacs_get and blacs_set (spec section 2.2).
 */
#include "../base/debug.h"
#include "blacs.h"
#include "internal.h"

void blx_get(blx_iface iface, int ctxt, int what, int *val)
{
    const char *routine = "BLACS_GET";
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

void blx_set(int ctxt, int what, const int *val)
{
    const char *routine = "BLACS_SET";
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
    case BLACS_SGET_MSGIDS:
        /* The reference ignores this (its MPI communicators isolate it); we
         * honour it, for grids created afterwards.  Every process must set the
         * same range. */
        if (val[0] < 0 || val[1] > blx_g.tag_ub || (long long)val[1] - val[0] + 1 < BLX_MSGID_MIN_RANGE) {
            blx_warn(ctxt, routine,
                     "illegal message-ID range [%d, %d]: need 0 <= min, max <= %d (MPI_TAG_UB) and "
                     "at least %d IDs; range unchanged",
                     val[0], val[1], blx_g.tag_ub, BLX_MSGID_MIN_RANGE);
        } else {
            blx_g.id_lo = val[0];
            blx_g.id_hi = val[1];
        }
        break;
    case BLACS_SGET_DEBUGLVL:
        blx_warn(ctxt, routine,
                 "Cannot set the BLACS debug level here: set BLACS_DEBUG (0-3) in the environment");
        break;
    case BLACS_SGET_BLACSCONTXT:
        blx_warn(ctxt, routine, "Cannot set BLACS context, can only BLACS_GET");
        break;
    case BLACS_SGET_NR_BS: set_rings(ctxt, routine, &c->nr_bs, *val, "BSBR"); break;
    case BLACS_SGET_NB_BS: set_branches(ctxt, routine, &c->nb_bs, *val, "BSBR"); break;
    case BLACS_SGET_NR_CO: set_rings(ctxt, routine, &c->nr_co, *val, "COMB"); break;
    case BLACS_SGET_NB_CO: set_branches(ctxt, routine, &c->nb_co, *val, "COMB"); break;
    case BLACS_SGET_TOPSREPEAT: c->topsrepeat = *val; break;
    case BLACS_SGET_TOPSCOHRNT: c->topscohrnt = *val; break;
    default: blx_warn(ctxt, routine, "Unknown WHAT (%d)", what); break;
    }
}
