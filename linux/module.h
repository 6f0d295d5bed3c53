/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/export.h>
#include <linux/moduleparam.h>

#define MODULE_LICENSE(x)	extern int __module_license_unused
#define MODULE_DESCRIPTION(x)	extern int __module_description_unused
#define MODULE_AUTHOR(x)	extern int __module_author_unused
#define MODULE_IMPORT_NS(x)	extern int __module_import_ns_unused
#define MODULE_VERSION(x)	extern int __module_version_unused
#define MODULE_ALIAS(x)		extern int __module_alias_unused
#define THIS_MODULE		((struct module *)0)

/*
 * Exit is never called, nor is init, unless the program that stands in
 * for the kernel loading the module calls it through the pointer
 * module_init() names after it, __rig_module_init_FN (kernel/vhost_net.c).
 */
#define __init
#define __exit
#define module_init(fn)							\
	int (*const __rig_module_init_##fn)(void) __attribute__((unused)) = fn
#define module_exit(fn)							\
	void (*const __rig_module_exit_##fn)(void) __attribute__((unused)) = fn

struct module;

#endif /* _LINUX_MODULE_H */
