/*
 * base/env.c - reading the library's environment variables; see env.h.
 */
#include "env.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"

int blx_parse_bytes(const char *text, size_t *out)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p))
        return -1; /* no sign, no empty value */
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno != 0)
        return -1;
    static const char units[] = "KMGT";
    unsigned shift = 0;
    if (*end != '\0') {
        const char *u = strchr(units, toupper((unsigned char)*end));
        if (u == NULL)
            return -1;
        shift = 10 * (unsigned)(u - units + 1);
        end++;
        if (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") == 0)
            end += strlen(end);
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || (shift && v > (SIZE_MAX >> shift)))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

int blx_parse_seconds(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

int blx_parse_switch(const char *text)
{
    static const char *const words[] = {"0", "no", "false", "off", "1", "yes", "true", "on"};
    if (*text == '\0')
        return 0;
    for (int i = 0; i < 8; i++)
        if (strcasecmp(text, words[i]) == 0)
            return i / 4;
    return -1;
}

size_t blx_env_bytes(const char *name, size_t dflt)
{
    const char *s = getenv(name);
    if (s != NULL && blx_parse_bytes(s, &dflt) != 0)
        blx_fatal(-1, name,
                  "'%s' is not a size: give bytes as digits with an optional K, M, G or T (powers of 1024), "
                  "e.g. 64M",
                  s);
    return dflt;
}

double blx_env_seconds(const char *name, double dflt)
{
    const char *s = getenv(name);
    if (s != NULL && blx_parse_seconds(s, &dflt) != 0)
        blx_fatal(-1, name, "'%s' is not a number of seconds (0 or more)", s);
    return dflt;
}

int blx_env_int(const char *name, int dflt, int lo, int hi)
{
    const char *s = getenv(name);
    if (s == NULL)
        return dflt;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
        blx_fatal(-1, name, "'%s' is not a whole number from %d to %d", s, lo, hi);
    return (int)v;
}

int blx_env_word(const char *name, int dflt, const char *const *words)
{
    const char *s = getenv(name);
    if (s == NULL)
        return dflt;
    char list[256] = "";
    for (int i = 0; words[i] != NULL; i++) {
        if (strcasecmp(s, words[i]) == 0)
            return i;
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, words[i], sizeof list - strlen(list) - 1);
    }
    blx_fatal(-1, name, "'%s' is not one of: %s", s, list);
}
