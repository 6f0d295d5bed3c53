/* SPDX-License-Identifier: GPL-2.0 */
/* sort(): the C library's qsort(); a custom swap is not supported. */
#ifndef _LINUX_SORT_H
#define _LINUX_SORT_H

#include <stdlib.h>
#include <linux/bug.h>

typedef void (*swap_func_t)(void *a, void *b, int size);
typedef int (*cmp_func_t)(const void *a, const void *b);

static inline void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
			swap_func_t swap)
{
	BUG_ON(swap);
	qsort(base, num, size, cmp);
}

#endif /* _LINUX_SORT_H */
