/*
 * blacs/agree.h - debug level 3: processes check that they agree (agree.c).
 */
#ifndef BLX_AGREE_H
#define BLX_AGREE_H

#include "record.h"

/* Before a broadcast or combine: the members of the scope compare what the
 * record says they were given (collective over the scope). */
BLX_INTERNAL void blx_agree_collective(const blx_call *k);
/* After a combine to all: the members check that they hold the same bits
 * of the result (its 'bytes' bytes at buf), which every algorithm promises
 * (collective over the scope; 'alg' is named if they do not). */
BLX_INTERNAL void blx_agree_result(const blx_call *k, const void *buf, size_t bytes, const char *alg);
/* Point-to-point: the description sent with a message (from the end of its
 * send buffer, at offset at) and checked by the receiver. */
BLX_INTERNAL size_t blx_agree_header_bytes(void);
BLX_INTERNAL void blx_agree_send(const blx_call *k, blx_buf *b, size_t at);
BLX_INTERNAL void blx_agree_recv(const blx_call *k);

#endif
