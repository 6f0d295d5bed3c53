/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "User" memory accessors.  The test sets the window
 * [__user_addr_min, __user_addr_max) that stands for the guest's memory; any
 * access that is not wholly inside it fails with -EFAULT (or, for the copy
 * routines, copies nothing and returns the full length), as a kernel access
 * to an unmapped user address would.
 */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H

#include <string.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/errno.h>

extern void *__user_addr_min, *__user_addr_max;

static inline bool __user_range_ok(const volatile void __user *p, size_t n)
{
	unsigned long a = (unsigned long)p;
	unsigned long lo = (unsigned long)__user_addr_min;
	unsigned long hi = (unsigned long)__user_addr_max;

	return a >= lo && a <= hi && n <= hi - a;
}

#define access_ok(p, n)		__user_range_ok((p), (n))

#define get_user(x, ptr) ({						\
	int __gu_err = -EFAULT;						\
	if (__user_range_ok((ptr), sizeof(*(ptr)))) {			\
		(x) = READ_ONCE(*(ptr));				\
		__gu_err = 0;						\
	}								\
	__gu_err;							\
})

#define put_user(x, ptr) ({						\
	int __pu_err = -EFAULT;						\
	if (__user_range_ok((ptr), sizeof(*(ptr)))) {			\
		WRITE_ONCE(*(ptr), (x));				\
		__pu_err = 0;						\
	}								\
	__pu_err;							\
})

#define __get_user(x, ptr)	get_user(x, ptr)
#define __put_user(x, ptr)	put_user(x, ptr)

static inline unsigned long copy_from_user(void *to, const void __user *from,
					   unsigned long n)
{
	if (!__user_range_ok(from, n))
		return n;
	memcpy(to, (const void *)from, n);
	return 0;
}

static inline unsigned long copy_to_user(void __user *to, const void *from,
					 unsigned long n)
{
	if (!__user_range_ok(to, n))
		return n;
	memcpy((void *)to, from, n);
	return 0;
}

/* Zero @n bytes at @to: the bytes not zeroed (all, outside the window). */
static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	if (!__user_range_ok(to, n))
		return n;
	memset((void *)to, 0, n);
	return 0;
}

/* The unchecked forms: the same checks here (an access never crashes). */
#define __copy_from_user(to, from, n)	copy_from_user(to, from, n)
#define __copy_to_user(to, from, n)	copy_to_user(to, from, n)

#endif /* _LINUX_UACCESS_H */
