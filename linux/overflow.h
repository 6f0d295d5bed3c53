/* SPDX-License-Identifier: GPL-2.0 */
/* Sizes that saturate at SIZE_MAX instead of wrapping. */
#ifndef _LINUX_OVERFLOW_H
#define _LINUX_OVERFLOW_H

#include <stdint.h>
#include <linux/types.h>

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

/* The bytes of @count elements of flexible array @member of *@p. */
#define flex_array_size(p, member, count)				\
	size_mul(count, sizeof(*(p)->member))
/* *@p with @count elements in its flexible array @member. */
#define struct_size(p, member, count)					\
	size_add(sizeof(*(p)), flex_array_size(p, member, count))

#endif /* _LINUX_OVERFLOW_H */
