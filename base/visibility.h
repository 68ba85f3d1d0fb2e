/*
 * blacs/visibility.h - which names leave the shared library.
 *
 * The library is compiled with -fvisibility=hidden; only the public BLACS
 * routines carry BLX_API.  Internal names all start with blx_ and are hidden,
 * so a program that also links a reference BLACS (whose internals are BI_*)
 * sees no clash.
 */
#ifndef BLX_VISIBILITY_H
#define BLX_VISIBILITY_H

#if defined(__GNUC__)
#define BLX_API __attribute__((visibility("default")))
#define BLX_INTERNAL __attribute__((visibility("hidden")))
#else
#define BLX_API
#define BLX_INTERNAL
#endif

#endif
