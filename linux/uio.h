/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_UIO_H
#define _LINUX_UIO_H

#include <sys/uio.h>
#include <linux/types.h>

struct kvec {
	void *iov_base;
	size_t iov_len;
};

#endif /* _LINUX_UIO_H */
