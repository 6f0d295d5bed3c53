/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

#include <stdlib.h>
#include <linux/types.h>
#include <linux/kernel.h>

#define __GFP_ZERO	((__force gfp_t)0x100u)
#define __GFP_NOWARN	((__force gfp_t)0x200u)
#define __GFP_HIGHMEM	((__force gfp_t)0x02u)
#define __GFP_RETRY_MAYFAIL ((__force gfp_t)0x4000u)
#define __GFP_DIRECT_RECLAIM ((__force gfp_t)0x400u)
#define __GFP_COMP	((__force gfp_t)0x40000u)
#define __GFP_NORETRY	((__force gfp_t)0x10000u)
#define GFP_ATOMIC	((__force gfp_t)0x20u)
#define GFP_KERNEL	((__force gfp_t)0xccu)
#define GFP_KERNEL_ACCOUNT GFP_KERNEL
#define GFP_NOWAIT	((__force gfp_t)0x800u)

/*
 * Whole pages, 2^@order of them: a page is its address (linux/mm.h), not
 * reference counted; __free_pages() frees them.
 */
struct page;
static inline struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	(void)gfp;
	return aligned_alloc(PAGE_SIZE, PAGE_SIZE << order);
}
#define alloc_page(gfp)		alloc_pages(gfp, 0)

static inline void __free_pages(struct page *page, unsigned int order)
{
	(void)order;
	free(page);
}

#endif /* _LINUX_GFP_H */
