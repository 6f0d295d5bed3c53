/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Misc character devices: a module's module_misc_device(dev) registers
 * nothing here; it names the device as rig_misc_<dev>, so the program that
 * stands in for userspace (kernel/vhost_core.c) can call its file
 * operations.
 */
#ifndef _LINUX_MISCDEVICE_H
#define _LINUX_MISCDEVICE_H

#include <linux/file.h>
#include <linux/list.h>

#define MISC_DYNAMIC_MINOR	255

struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
};

#define module_misc_device(dev)						\
	struct miscdevice *const rig_misc_##dev = &(dev)

#endif /* _LINUX_MISCDEVICE_H */
