/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page fragment caches: vhost-net carves the frames of an XDP batch out
 * of one.  Only a tun device takes such batches (a socket whose sk_sndbuf
 * is INT_MAX); the rig has none, so nothing is ever carved: taking a
 * fragment stops the program, draining an untouched cache does nothing.
 */
#ifndef _LINUX_PAGE_FRAG_CACHE_H
#define _LINUX_PAGE_FRAG_CACHE_H

#include <linux/types.h>
#include <linux/bug.h>

struct page_frag_cache {
	void *va;
	unsigned int offset;
};

static inline void page_frag_cache_init(struct page_frag_cache *nc)
{
	nc->va = NULL;
	nc->offset = 0;
}

static inline void *page_frag_alloc_align(struct page_frag_cache *nc,
					  unsigned int fragsz, gfp_t gfp,
					  unsigned int align)
{
	(void)nc, (void)fragsz, (void)gfp, (void)align;
	BUG();			/* no XDP batches without a tun device */
	return NULL;
}

static inline void page_frag_free(void *addr)
{
	(void)addr;
	BUG();
}

static inline void page_frag_cache_drain(struct page_frag_cache *nc)
{
	BUG_ON(nc->va);
}

/* Before 6.12 vhost-net filled a struct page_frag of its own: never here. */
struct page;
static inline void __page_frag_cache_drain(struct page *page, unsigned int count)
{
	(void)page, (void)count;
	BUG();
}

#endif /* _LINUX_PAGE_FRAG_CACHE_H */
