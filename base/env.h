/*
 * base/env.h - reading the library's environment variables.
 *
 * Every variable is read the same way: unset means the default; a value
 * that is not what the variable takes is a clear error naming the variable,
 * the value and what it takes, never a silent default.
 */
#ifndef BLX_ENV_H
#define BLX_ENV_H

#include <stddef.h>

#include "visibility.h"

/* A size in bytes: digits with an optional K, M, G or T (powers of 1024,
 * "KiB" and "KB" spellings too).  0 is allowed. */
BLX_INTERNAL size_t blx_env_bytes(const char *name, size_t dflt);
/* Seconds: a non-negative number. */
BLX_INTERNAL double blx_env_seconds(const char *name, double dflt);
/* A whole number in [lo, hi]. */
BLX_INTERNAL int blx_env_int(const char *name, int dflt, int lo, int hi);
/* One of the words in 'words' (NULL-terminated); returns its index. */
BLX_INTERNAL int blx_env_word(const char *name, int dflt, const char *const *words);

/* The parsers themselves (no environment, no errors): 0, or -1 if the text
 * is not a value of that kind. */
BLX_INTERNAL int blx_parse_bytes(const char *text, size_t *out);
BLX_INTERNAL int blx_parse_seconds(const char *text, double *out);
/* A switch, case-insensitive: 1, yes, true, on give 1; 0, no, false, off
 * and the empty text give 0; anything else -1. */
BLX_INTERNAL int blx_parse_switch(const char *text);

#endif
