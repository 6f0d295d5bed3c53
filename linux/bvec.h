/* SPDX-License-Identifier: GPL-2.0 */
/* A piece of a page, as an iov_iter of ITER_BVEC kind walks them. */
#ifndef _LINUX_BVEC_H
#define _LINUX_BVEC_H

#include <linux/mm.h>

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

static inline void bvec_set_page(struct bio_vec *bv, struct page *page,
				 unsigned int len, unsigned int offset)
{
	bv->bv_page = page;
	bv->bv_len = len;
	bv->bv_offset = offset;
}

/* The piece's bytes, mapped (every page is): undone by kunmap_local(). */
static inline void *bvec_kmap_local(struct bio_vec *bv)
{
	return (char *)kmap_local_page(bv->bv_page) + bv->bv_offset;
}

#endif /* _LINUX_BVEC_H */
