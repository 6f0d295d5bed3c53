/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/export.h>

#define MODULE_LICENSE(x)	extern int __module_license_unused
#define MODULE_DESCRIPTION(x)	extern int __module_description_unused
#define MODULE_AUTHOR(x)	extern int __module_author_unused
#define MODULE_IMPORT_NS(x)	extern int __module_import_ns_unused
#define THIS_MODULE		((struct module *)0)

struct module;

#endif /* _LINUX_MODULE_H */
