/* SPDX-License-Identifier: GPL-2.0 */
/* A piece of a page a task or socket carves frames from. */
#ifndef _LINUX_MM_TYPES_TASK_H
#define _LINUX_MM_TYPES_TASK_H

#include <linux/types.h>

struct page;

struct page_frag {
	struct page *page;
	u32 offset;
	u32 size;
};

#endif /* _LINUX_MM_TYPES_TASK_H */
