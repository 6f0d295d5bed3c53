/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)		extern int __export_##sym##_unused
#define EXPORT_SYMBOL_GPL(sym)		extern int __export_##sym##_unused
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	extern int __export_##sym##_unused

#endif /* _LINUX_EXPORT_H */
