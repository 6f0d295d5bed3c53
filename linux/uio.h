/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iovec pieces, and the iov_iter that walks a list of them (user iovecs,
 * or pieces of pages: struct bio_vec) to copy data in or out, as far as
 * ring code uses it (vringh's IOTLB accessors, the vhost core's indirect
 * tables).  Memory is all one address space: a user iovec's base is an
 * ordinary pointer.  A copy may end inside a piece; the next one goes on
 * from there (the vhost core reads a table 16 bytes at a time).
 */
#ifndef _LINUX_UIO_H
#define _LINUX_UIO_H

#include <sys/uio.h>
#include <linux/types.h>
#include <linux/bvec.h>

struct kvec {
	void *iov_base;
	size_t iov_len;
};

#ifndef UIO_MAXIOV
#define UIO_MAXIOV	1024
#endif

static inline size_t iov_length(const struct iovec *iov, unsigned long nr_segs)
{
	size_t ret = 0;
	unsigned long seg;

	for (seg = 0; seg < nr_segs; seg++)
		ret += iov[seg].iov_len;
	return ret;
}

/* The direction: data goes out of the iter's memory, or into it. */
#define ITER_SOURCE	1
#define ITER_DEST	0

struct iov_iter {
	bool bvec_kind;
	const struct iovec *iov;
	const struct bio_vec *bvec;
	unsigned long nr_segs;
	size_t count;		/* bytes left */
	size_t iov_offset;	/* bytes of the first piece already done */
};

static inline void iov_iter_init(struct iov_iter *i, unsigned int direction,
				 const struct iovec *iov, unsigned long nr_segs,
				 size_t count)
{
	(void)direction;
	*i = (struct iov_iter){ false, iov, NULL, nr_segs, count, 0 };
}

static inline void iov_iter_bvec(struct iov_iter *i, unsigned int direction,
				 const struct bio_vec *bvec,
				 unsigned long nr_segs, size_t count)
{
	(void)direction;
	*i = (struct iov_iter){ true, NULL, bvec, nr_segs, count, 0 };
}

/* Copy @bytes between @buf and the iter's pieces (@to_iter: into them). */
size_t rig_iov_iter_copy(void *buf, size_t bytes, struct iov_iter *i,
			 bool to_iter);

static inline size_t copy_from_iter(void *addr, size_t bytes,
				    struct iov_iter *i)
{
	return rig_iov_iter_copy(addr, bytes, i, false);
}

static inline size_t copy_to_iter(const void *addr, size_t bytes,
				  struct iov_iter *i)
{
	return rig_iov_iter_copy((void *)addr, bytes, i, true);
}

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

/* Skip @bytes (at most what is left). */
void iov_iter_advance(struct iov_iter *i, size_t bytes);

/* Copy into the page @page at @offset. */
static inline size_t copy_page_from_iter(struct page *page, size_t offset,
					 size_t bytes, struct iov_iter *i)
{
	return copy_from_iter((char *)page_address(page) + offset, bytes, i);
}

/* All @bytes or nothing: on a short copy @i is left where it was. */
static inline bool copy_from_iter_full(void *addr, size_t bytes, struct iov_iter *i)
{
	struct iov_iter start = *i;

	if (copy_from_iter(addr, bytes, i) == bytes)
		return true;
	*i = start;
	return false;
}

#endif /* _LINUX_UIO_H */
