/* SPDX-License-Identifier: GPL-2.0 */
/* No KMSAN in userspace: its hooks do nothing (static, so -O0 links). */
#ifndef _LINUX_KMSAN_H
#define _LINUX_KMSAN_H

#include <linux/types.h>
#include <linux/dma-mapping.h>

struct page;

static inline void kmsan_handle_dma(struct page *page __always_unused,
				    size_t offset __always_unused,
				    size_t size __always_unused,
				    enum dma_data_direction dir __always_unused)
{
}

#endif /* _LINUX_KMSAN_H */
