/*
 * topologies/forced.c - BLACS_ALGORITHM: the algorithm the default TOP runs
 * for each operation, by its name in the table (topology.h), with the
 * number it takes (branches, rings, a radix).
 */
#include <stdio.h>
#include <string.h>

#include "topology.h"

blx_forced blx_forced_none(void)
{
    blx_forced f;
    for (int op = 0; op < BLX_NCOLL; op++)
        f.alg[op] = -1, f.param[op] = 0;
    return f;
}

/* One "op=name[:number]" into *f; 0, or -1 with the reason in why. */
static int parse_one(const char *item, blx_forced *f, char *why, size_t wlen)
{
    static const char *const ops[BLX_NCOLL] = {"bcast", "reduce", "allreduce"};
    char opname[16] = "", name[48] = "";
    int at = 0, op = 0, alg = -1, num = 0, end = 0;
    sscanf(item, "%15[a-z]=%47[a-z_]%n", opname, name, &at);
    while (op < BLX_NCOLL && strcmp(opname, ops[op]) != 0)
        op++;
    for (int i = 0; i < BLX_NALGORITHMS && op < BLX_NCOLL; i++)
        if (strcmp(name, blx_algorithms[i]->name) == 0 &&
            blx_algorithm_provides(blx_algorithms[i], (blx_coll)op))
            alg = i;
    unsigned flags = alg >= 0 ? blx_algorithms[alg]->flags : 0;
    int numbered = flags & (BLX_ALG_USES_BRANCHES | BLX_ALG_USES_RINGS | BLX_ALG_RADIX);
    if (numbered && item[at] == ':' && sscanf(item + at + 1, "%7d%n", &num, &end) == 1 && num >= 1 &&
        (!(flags & BLX_ALG_RADIX) || num == 2 || num == 4 || num == 8))
        at += 1 + end;
    const char *err =
        at == 0 || op == BLX_NCOLL                ? "it does not start with bcast=, reduce= or allreduce="
        : alg < 0 && strcmp(name, "default") != 0 ? "no algorithm of that operation has that name"
        : item[at] == '\0'                        ? NULL
        : flags & BLX_ALG_RADIX                   ? "the number after ':' must be a radix: 2, 4 or 8"
        : numbered                                ? "the number after ':' must be a count from 1"
                   : "more after the name (only general_tree, multiring and rabenseifner take a number)";
    if (err != NULL) {
        snprintf(why, wlen, "'%s': %s", item, err);
        return -1;
    }
    f->alg[op] = alg;
    f->param[op] = num;
    return 0;
}

int blx_forced_parse(const char *text, blx_forced *f, char *why, size_t len)
{
    blx_forced v = *f;
    for (const char *p = text; *p != '\0';) {
        char item[64];
        size_t n = strcspn(p, ",");
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        if (n >= sizeof item)
            snprintf(why, len, "'%s...': too long", item);
        if (n >= sizeof item || parse_one(item, &v, why, len) != 0)
            return -1;
        p += n + (p[n] == ',');
    }
    *f = v;
    return 0;
}
