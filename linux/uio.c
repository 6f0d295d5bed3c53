// SPDX-License-Identifier: GPL-2.0
/* The iov_iter copy of linux/uio.h: a list of iovecs or of page pieces. */
#include <string.h>
#include <linux/uio.h>

/* The first piece's memory and length, less what is done of it. */
static char *piece(const struct iov_iter *i, size_t *len)
{
	char *p;

	if (i->bvec_kind) {
		p = (char *)page_address(i->bvec->bv_page) + i->bvec->bv_offset;
		*len = i->bvec->bv_len;
	} else {
		p = i->iov->iov_base;
		*len = i->iov->iov_len;
	}
	*len -= i->iov_offset;
	return p + i->iov_offset;
}

/* Move on @bytes within the pieces, at most to the end of the first. */
static void step(struct iov_iter *i, size_t bytes, size_t len)
{
	i->iov_offset += bytes;
	i->count -= bytes;
	if (bytes < len)
		return;
	if (i->bvec_kind)
		i->bvec++;
	else
		i->iov++;
	i->nr_segs--;
	i->iov_offset = 0;
}

size_t rig_iov_iter_copy(void *buf, size_t bytes, struct iov_iter *i,
			 bool to_iter)
{
	size_t done = 0;

	if (bytes > i->count)
		bytes = i->count;
	while (done < bytes && i->nr_segs) {
		size_t len;
		char *p = piece(i, &len);
		size_t n = len < bytes - done ? len : bytes - done;

		if (to_iter)
			memcpy(p, (char *)buf + done, n);
		else
			memcpy((char *)buf + done, p, n);
		done += n;
		step(i, n, len);
	}
	return done;
}

void iov_iter_advance(struct iov_iter *i, size_t bytes)
{
	if (bytes > i->count)
		bytes = i->count;
	while (bytes && i->nr_segs) {
		size_t len;
		size_t n;

		piece(i, &len);
		n = len < bytes ? len : bytes;
		step(i, n, len);
		bytes -= n;
	}
}
