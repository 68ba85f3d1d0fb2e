/*
 * base/stack.c - the stack's low-water mark; see stack.h.
 */
#include "stack.h"

_Thread_local char *blx_stack_low;
