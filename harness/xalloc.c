// SPDX-License-Identifier: GPL-2.0
/* Allocations a stand-alone tool cannot go on without (xalloc.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/xalloc.h"

void rig_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
	exit(1);
}

void *rig_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		rig_oom();
	return p;
}

void *rig_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		rig_oom();
	return p;
}
