/* SPDX-License-Identifier: GPL-2.0 */
/* tap devices (macvtap, ipvtap), as a kernel without them offers them. */
#ifndef _LINUX_IF_TAP_H_
#define _LINUX_IF_TAP_H_

#include <linux/err.h>
#include <linux/file.h>

struct socket;
struct ptr_ring;

static inline struct socket *tap_get_socket(struct file *f)
{
	(void)f;
	return ERR_PTR(-EINVAL);
}

static inline struct ptr_ring *tap_get_ptr_ring(struct file *f)
{
	(void)f;
	return ERR_PTR(-EINVAL);
}

#endif /* _LINUX_IF_TAP_H_ */
