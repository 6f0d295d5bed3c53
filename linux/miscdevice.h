/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Misc character devices: a module's module_misc_device(dev) registers
 * nothing here; it names the device as rig_misc_<dev>, so the program that
 * stands in for userspace (kernel/vhost_core.c) can call its file
 * operations.  A module whose init calls misc_register() puts its device
 * in a list, where rig_misc_find() finds it by name (linux/miscdevice.c).
 */
#ifndef _LINUX_MISCDEVICE_H
#define _LINUX_MISCDEVICE_H

#include <linux/file.h>
#include <linux/list.h>

#define VHOST_NET_MINOR		238
#define MISC_DYNAMIC_MINOR	255

struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
	struct list_head list;
};

int misc_register(struct miscdevice *misc);
void misc_deregister(struct miscdevice *misc);
/* The registered device called @name (its /dev name), or NULL. */
struct miscdevice *rig_misc_find(const char *name);
#define MODULE_ALIAS_MISCDEV(minor)	extern int __module_alias_miscdev_unused

#define module_misc_device(dev)						\
	struct miscdevice *const rig_misc_##dev = &(dev)

#endif /* _LINUX_MISCDEVICE_H */
