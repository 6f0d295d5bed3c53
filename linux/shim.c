// SPDX-License-Identifier: GPL-2.0
/*
 * The state behind the kernel shims: the allocator's test hooks and the
 * "user" address window.  Linked into every program.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

__thread void *__kmalloc_fake;
__thread void *__kfree_ignore_start, *__kfree_ignore_end;
__thread struct kmalloc_arena *__kmalloc_arena;

void *__user_addr_min, *__user_addr_max;

static unsigned long kmalloc_calls;	/* since the last kmalloc_fail_nth() */
static unsigned long kmalloc_fail_at;	/* 0: never */
static long kmalloc_live;

void kmalloc_fail_nth(unsigned long n)
{
	__atomic_store_n(&kmalloc_calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&kmalloc_fail_at, n, __ATOMIC_RELAXED);
}

unsigned long kmalloc_count(void)
{
	return __atomic_load_n(&kmalloc_calls, __ATOMIC_RELAXED);
}

long kmalloc_outstanding(void)
{
	return __atomic_load_n(&kmalloc_live, __ATOMIC_RELAXED);
}

/* Count one allocation; true if fault injection says it must fail. */
static bool kmalloc_should_fail(void)
{
	unsigned long nr = __atomic_add_fetch(&kmalloc_calls, 1, __ATOMIC_RELAXED);
	unsigned long at = __atomic_load_n(&kmalloc_fail_at, __ATOMIC_RELAXED);

	return at && nr == at;
}

static bool in_arena(const void *p)
{
	const struct kmalloc_arena *a = __kmalloc_arena;

	return a && p >= a->start && p < a->end;
}

void *__kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (kmalloc_should_fail())
		return NULL;
	if (__kmalloc_fake) {
		p = __kmalloc_fake;
	} else if (__kmalloc_arena) {
		p = __kmalloc_arena->alloc(__kmalloc_arena, size ? size : 1);
		if (!p)
			return NULL;
	} else {
		p = malloc(size ? size : 1);
		if (!p)
			return NULL;
		__atomic_add_fetch(&kmalloc_live, 1, __ATOMIC_RELAXED);
	}
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	return p;
}

void *__krealloc(const void *old, size_t size, gfp_t gfp)
{
	void *p;

	if (!old)
		return __kmalloc(size, gfp);
	if (kmalloc_should_fail())
		return NULL;
	if (in_arena(old))
		return __kmalloc_arena->realloc(__kmalloc_arena, (void *)old,
						size ? size : 1);
	p = realloc((void *)old, size ? size : 1);
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	if (p >= __kfree_ignore_start && p < __kfree_ignore_end)
		return;
	if (p == __kmalloc_fake)
		return;
	if (in_arena(p)) {
		__kmalloc_arena->free(__kmalloc_arena, (void *)p);
		return;
	}
	__atomic_sub_fetch(&kmalloc_live, 1, __ATOMIC_RELAXED);
	free((void *)p);
}
