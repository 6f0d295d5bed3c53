// SPDX-License-Identifier: GPL-2.0
/* The iov_iter copy of linux/uio.h: a list of iovecs or of page pieces. */
#include <string.h>
#include <linux/uio.h>

size_t rig_iov_iter_copy(void *buf, size_t bytes, struct iov_iter *i,
			 bool to_iter)
{
	size_t done = 0;

	if (bytes > i->count)
		bytes = i->count;
	while (done < bytes && i->nr_segs) {
		char *p;
		size_t len;

		if (i->bvec_kind) {
			p = (char *)page_address(i->bvec->bv_page) + i->bvec->bv_offset;
			len = i->bvec->bv_len;
		} else {
			p = i->iov->iov_base;
			len = i->iov->iov_len;
		}
		if (len > bytes - done)
			len = bytes - done;
		if (to_iter)
			memcpy(p, (char *)buf + done, len);
		else
			memcpy((char *)buf + done, p, len);
		done += len;
		/* Whole pieces only: vringh copies what it translated, no less. */
		if (i->bvec_kind)
			i->bvec++;
		else
			i->iov++;
		i->nr_segs--;
	}
	i->count -= done;
	return done;
}
