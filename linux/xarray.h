/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XArrays, as a growable array of pointers indexed from 0: enough for the
 * few entries (vhost workers) kept in one.  The caller serialises changes,
 * as vhost does with its device mutex.
 */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/slab.h>

#define XA_FLAGS_ALLOC		1U
#define XA_PRESENT		((unsigned int)8)

struct xa_limit {
	u32 max;
	u32 min;
};

#define XA_LIMIT(lo, hi)	((struct xa_limit){ .min = (lo), .max = (hi) })
#define xa_limit_32b		XA_LIMIT(0, UINT_MAX)

struct xarray {
	void **slots;
	unsigned long size;		/* slots allocated */
};

static inline void xa_init_flags(struct xarray *xa, unsigned int flags)
{
	(void)flags;
	xa->slots = NULL;
	xa->size = 0;
}

static inline void xa_destroy(struct xarray *xa)
{
	kfree(xa->slots);
	xa->slots = NULL;
	xa->size = 0;
}

static inline void *xa_load(struct xarray *xa, unsigned long index)
{
	return index < xa->size ? xa->slots[index] : NULL;
}

/* The first entry at *@indexp or after, up to @max; *@indexp is its index. */
static inline void *xa_find(struct xarray *xa, unsigned long *indexp,
			    unsigned long max, unsigned int filter)
{
	unsigned long i;

	(void)filter;
	for (i = *indexp; i < xa->size && i <= max; i++) {
		if (xa->slots[i]) {
			*indexp = i;
			return xa->slots[i];
		}
	}
	return NULL;
}

static inline void *xa_erase(struct xarray *xa, unsigned long index)
{
	void *old = xa_load(xa, index);

	if (old)
		xa->slots[index] = NULL;
	return old;
}

/* Store @entry in the lowest free index within @limit: 0 or -errno. */
static inline int xa_alloc(struct xarray *xa, u32 *id, void *entry,
			   struct xa_limit limit, gfp_t gfp)
{
	unsigned long i;
	void **slots;

	for (i = limit.min; i < xa->size && i <= limit.max; i++) {
		if (!xa->slots[i])
			goto found;
	}
	if (i > limit.max)
		return -EBUSY;
	slots = krealloc_array(xa->slots, i + 1, sizeof(*slots), gfp);
	if (!slots)
		return -ENOMEM;
	while (xa->size <= i)
		slots[xa->size++] = NULL;
	xa->slots = slots;
found:
	xa->slots[i] = entry;
	*id = i;
	return 0;
}

#define xa_for_each(xa, index, entry)					\
	for (index = 0, entry = xa_find(xa, &index, ULONG_MAX, XA_PRESENT); \
	     entry; index++, entry = xa_find(xa, &index, ULONG_MAX, XA_PRESENT))

#endif /* _LINUX_XARRAY_H */
