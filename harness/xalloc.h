/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory a stand-alone tool cannot go on without, libc only: the
 * allocation succeeds, or the program says "PROG: out of memory" on
 * stderr and exits 1.  Linked by the tools (stats, ab/srcfuncs: TOOL_OBJS
 * in the Makefile).
 */
#ifndef RIG_XALLOC_H
#define RIG_XALLOC_H

#include <stddef.h>

/* "PROG: out of memory" on stderr, exit 1. */
void __attribute__((noreturn)) rig_oom(void);

/* realloc(@p, @n), never NULL; @n of 0 is 1 byte. */
void *rig_xrealloc(void *p, size_t n);

/* calloc(@n, @size), never NULL; 0 of either is 1. */
void *rig_xcalloc(size_t n, size_t size);

#endif /* RIG_XALLOC_H */
