/* SPDX-License-Identifier: GPL-2.0 */
/* BUG_ON kills the program with a location; WARN_ON prints and goes on. */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/build_bug.h>

#define BUG() do {							\
	fprintf(stderr, "BUG at %s:%d %s()\n", __FILE__, __LINE__,	\
		__func__);						\
	abort();							\
} while (0)

#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)

#define WARN_ON(cond) ({						\
	int __ret_warn = !!(cond);					\
	if (unlikely(__ret_warn))					\
		fprintf(stderr, "WARNING at %s:%d %s(): %s\n", __FILE__,	\
			__LINE__, __func__, #cond);			\
	unlikely(__ret_warn);						\
})

#define WARN_ON_ONCE(cond) ({						\
	static int __warned;						\
	int __ret_warn_once = !!(cond);					\
	if (unlikely(__ret_warn_once) &&				\
	    !__atomic_exchange_n(&__warned, 1, __ATOMIC_RELAXED))	\
		fprintf(stderr, "WARNING at %s:%d %s(): %s\n", __FILE__,	\
			__LINE__, __func__, #cond);			\
	unlikely(__ret_warn_once);					\
})

#define WARN(cond, fmt, ...) ({						\
	int __ret_warn = !!(cond);					\
	if (unlikely(__ret_warn))					\
		fprintf(stderr, "WARNING: " fmt, ##__VA_ARGS__);	\
	unlikely(__ret_warn);						\
})

#endif /* _LINUX_BUG_H */
