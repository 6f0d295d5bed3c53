/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kconfig tests.  The rig configures nothing: an option counts as set when
 * it is defined to 1 (built in) or its _MODULE twin is (a module), as the
 * kernel's generated autoconf.h would define them.  Usable in #if and in C.
 * The kernel force-includes this header; here linux/compiler.h includes it.
 */
#ifndef _LINUX_KCONFIG_H
#define _LINUX_KCONFIG_H

/*
 * __rig_is_set(X) is 1 if X expands to 1 and 0 for anything else (an
 * undefined CONFIG_ name stays a name): pasting "1" onto __rig_probe_
 * produces a comma that shifts the 1 into the second argument.
 */
#define __rig_probe_1			,
#define __rig_second(a, b, ...)		b
#define __rig_pick(...)			__rig_second(__VA_ARGS__)
#define __rig_is_set_(val)		__rig_pick(__rig_probe_##val 1, 0)
#define __rig_is_set(opt)		__rig_is_set_(opt)

#define IS_BUILTIN(opt)		__rig_is_set(opt)
#define IS_MODULE(opt)		__rig_is_set(opt##_MODULE)
#define IS_ENABLED(opt)		(IS_BUILTIN(opt) || IS_MODULE(opt))
/* A module's symbols are reachable only from a module (never, here). */
#define IS_REACHABLE(opt)	(IS_BUILTIN(opt) || \
				 (IS_MODULE(opt) && __rig_is_set(MODULE)))

#endif /* _LINUX_KCONFIG_H */
