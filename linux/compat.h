/* SPDX-License-Identifier: GPL-2.0 */
/* 32-bit compat ioctls: the rig is one ABI, so they pass straight on. */
#ifndef _LINUX_COMPAT_H
#define _LINUX_COMPAT_H

#include <linux/file.h>

long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _LINUX_COMPAT_H */
