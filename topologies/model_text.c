/*
 * topologies/model_text.c - the cost model's text forms: BLACS_MODEL's
 * name=value pairs, with node. and net. before a name for one level, and
 * the tuning file blacs-tune writes (those pairs a line, and MPI's
 * measured collectives); see model.h.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int blx_model_parse(const char *text, blx_model *m)
{
    blx_model v = *m;
    const char *p = text;
    while (*p) {
        char name[16];
        size_t len = strcspn(p, "=");
        if (len == 0 || len >= sizeof name || p[len] != '=')
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        char *end;
        double x = strtod(p + len + 1, &end);
        if (end == p + len + 1 || (*end != ',' && *end != '\0') || !(x >= 0) || !isfinite(x))
            return -1;
        if (strcmp(name, "alpha") == 0)
            v.alpha = x;
        else if (strcmp(name, "beta") == 0)
            v.beta = x;
        else if (strcmp(name, "gamma") == 0)
            v.gamma = x;
        else if (strcmp(name, "overhead") == 0)
            v.overhead = x;
        else if (strcmp(name, "window") == 0 && x >= 1 && x <= 64 && x == floor(x))
            v.window = (int)x;
        else if (strcmp(name, "overlap") == 0 && (x == 0 || x == 1))
            v.overlap = (int)x;
        else
            return -1;
        p = *end == ',' ? end + 1 : end;
    }
    *m = v;
    return 0;
}

int blx_model_parse_levels(const char *text, blx_model *on, blx_model *off)
{
    blx_model v[2] = {*on, *off};
    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, ",");
        char item[64];
        if (n >= sizeof item)
            return -1;
        memcpy(item, p, n);
        item[n] = '\0';
        int node = strncmp(item, "node.", 5) == 0, net = strncmp(item, "net.", 4) == 0;
        const char *name = item + (node ? 5 : net ? 4 : 0);
        if ((!net && blx_model_parse(name, &v[0]) != 0) || (!node && blx_model_parse(name, &v[1]) != 0))
            return -1;
        p += n + (p[n] == ',');
    }
    *on = v[0];
    *off = v[1];
    return 0;
}

static int isblank_or_cr(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* "mpi.OP.NPxNN=BYTES:RATIO,..." into a new shape of *t; 0, or -1. */
static int parse_mpi_line(const char *item, blx_mpi_costs *t)
{
    static const char *const ops[] = {"bcast", "reduce", "allreduce"};
    char op[16];
    int np, nn, at = 0;
    if (sscanf(item, "mpi.%15[a-z].%dx%d=%n", op, &np, &nn, &at) != 3 || at == 0 || np < 2 || nn < 1 ||
        nn > np || t->n == BLX_MPI_SHAPES)
        return -1;
    blx_mpi_shape sh = {-1, np, nn, 0, {0}, {0}};
    for (int i = 0; i < 3; i++)
        if (strcmp(op, ops[i]) == 0)
            sh.op = i;
    for (const char *p = item + at; sh.op >= 0; sh.k++) {
        double b, r;
        int used = 0;
        if (sh.k == BLX_MPI_SIZES || sscanf(p, "%lf:%lf%n", &b, &r, &used) != 2 || !(b >= 1) || !(r > 0) ||
            (sh.k > 0 && !(b > sh.bytes[sh.k - 1])))
            return -1;
        sh.bytes[sh.k] = b;
        sh.ratio[sh.k] = r;
        p += used;
        if (*p == '\0') {
            t->shape[t->n++] = (sh.k++, sh);
            return 0;
        }
        if (*p++ != ',')
            return -1;
    }
    return -1;
}

int blx_model_parse_file(const char *text, blx_model *on, blx_model *off, int *net, blx_mpi_costs *mpi)
{
    blx_mpi_costs scratch = {0}, t = mpi != NULL ? *mpi : scratch;
    blx_model v[2] = {*on, *off};
    int sets_net = 0, line = 1;
    for (const char *p = text; *p != '\0'; line++) {
        size_t n = strcspn(p, "\n");
        char item[256]; /* the line without its comment, and blanks only beside '=' and ',' */
        size_t len = 0, end = 0;
        while (end < n && p[end] != '#')
            end++;
        for (size_t i = 0; i < end; i++) {
            if (isblank_or_cr(p[i])) {
                size_t j = i;
                while (j + 1 < end && isblank_or_cr(p[j + 1]))
                    j++;
                if (len > 0 && j + 1 < end && !strchr("=,", item[len - 1]) && !strchr("=,", p[j + 1]))
                    return line; /* "beta=1 0" */
                i = j;
                continue;
            }
            if (len + 1 == sizeof item)
                return line;
            item[len++] = p[i];
        }
        item[len] = '\0';
        p += n + (p[n] == '\n');
        if (len > 4 && memcmp(item, "mpi.", 4) == 0) {
            if (parse_mpi_line(item, &t) != 0)
                return line;
            continue;
        }
        if (len > 0 && blx_model_parse_levels(item, &v[0], &v[1]) != 0)
            return line;
        for (const char *q = item; len > 0 && *q != '\0'; q += strcspn(q, ","), q += *q == ',')
            sets_net |= strncmp(q, "node.", 5) != 0;
    }
    *on = v[0];
    *off = v[1];
    *net = sets_net;
    if (mpi != NULL)
        *mpi = t;
    return 0;
}
