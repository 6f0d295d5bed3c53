/* SPDX-License-Identifier: GPL-2.0 */
/* Type-checked min/max: comparing different types is a compile error. */
#ifndef _LINUX_MINMAX_H
#define _LINUX_MINMAX_H

#define __cmp_once(op, x, y) ({			\
	typeof(x) __x = (x);			\
	typeof(y) __y = (y);			\
	(void)(&__x == &__y);			\
	__x op __y ? __x : __y; })

#define min(x, y)		__cmp_once(<, x, y)
#define max(x, y)		__cmp_once(>, x, y)
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))

#define swap(a, b) do {						\
	typeof(a) __swap_tmp = (a);					\
	(a) = (b);							\
	(b) = __swap_tmp;						\
} while (0)

#endif /* _LINUX_MINMAX_H */
