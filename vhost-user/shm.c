// SPDX-License-Identifier: GPL-2.0
/* Shared-region allocator under kmalloc(): see vhost-user/shm.h. */
#include <stdint.h>
#include <string.h>

#include "vhost-user/shm.h"

#define ARENA_PAGE	4096UL
#define SMALL_MIN	16UL
#define SMALL_MAX	(SMALL_MIN << (SHM_ARENA_CLASSES - 1))
#define HDR		16UL	/* before a small block: its class */

static char *bump(struct shm_arena *a, size_t size, size_t align)
{
	uintptr_t p = ((uintptr_t)a->top + align - 1) & ~(uintptr_t)(align - 1);

	if (p > (uintptr_t)a->end || size > (uintptr_t)a->end - p)
		return NULL;
	a->top = (char *)p + size;
	return (char *)p;
}

static unsigned int class_of(size_t size)
{
	unsigned int c = 0;

	while ((SMALL_MIN << c) < size)
		c++;
	return c;
}

static void *alloc_small(struct shm_arena *a, size_t size)
{
	unsigned int c = class_of(size);
	char *p = a->free[c];

	if (p) {
		a->free[c] = *(void **)p;
	} else {
		p = bump(a, HDR + (SMALL_MIN << c), HDR);
		if (!p)
			return NULL;
		p += HDR;
		*(unsigned int *)(p - HDR) = c;
	}
	a->in_use += SMALL_MIN << c;
	return p;
}

static void *alloc_large(struct shm_arena *a, size_t size)
{
	unsigned int i, spare = SHM_ARENA_LARGE;

	size = (size + ARENA_PAGE - 1) & ~(ARENA_PAGE - 1);
	/* Reuse a freed block of exactly this size, else take fresh pages. */
	for (i = 0; i < a->nlarge; i++) {
		if (a->large[i].used)
			continue;
		if (a->large[i].size == size)
			goto take;
		if (!a->large[i].p && spare == SHM_ARENA_LARGE)
			spare = i;
	}
	if (spare == SHM_ARENA_LARGE) {
		if (a->nlarge == SHM_ARENA_LARGE)
			return NULL;
		spare = a->nlarge++;
	}
	i = spare;
	a->large[i].p = bump(a, size, ARENA_PAGE);
	if (!a->large[i].p)
		return NULL;
	a->large[i].size = size;
take:
	a->large[i].used = true;
	a->in_use += size;
	if (a->in_use > a->peak)
		a->peak = a->in_use;
	return a->large[i].p;
}

static int large_index(struct shm_arena *a, const void *p)
{
	unsigned int i;

	for (i = 0; i < a->nlarge; i++)
		if (a->large[i].p == p && a->large[i].used)
			return i;
	return -1;
}

void *shm_arena_alloc(struct shm_arena *a, size_t size)
{
	void *p = size <= SMALL_MAX ? alloc_small(a, size) : alloc_large(a, size);

	if (p && a->in_use > a->peak)
		a->peak = a->in_use;
	return p;
}

void shm_arena_free(struct shm_arena *a, void *p)
{
	int i;

	if (!p)
		return;
	if (((uintptr_t)p & (ARENA_PAGE - 1)) == 0) {
		i = large_index(a, p);
		if (i >= 0) {
			a->large[i].used = false;
			a->in_use -= a->large[i].size;
			return;
		}
	}
	{
		unsigned int c = *(unsigned int *)((char *)p - HDR);

		*(void **)p = a->free[c];
		a->free[c] = p;
		a->in_use -= SMALL_MIN << c;
	}
}

static size_t block_size(struct shm_arena *a, void *p)
{
	int i = ((uintptr_t)p & (ARENA_PAGE - 1)) ? -1 : large_index(a, p);

	if (i >= 0)
		return a->large[i].size;
	return SMALL_MIN << *(unsigned int *)((char *)p - HDR);
}

static void *ka_alloc(struct kmalloc_arena *ka, size_t size)
{
	return shm_arena_alloc((struct shm_arena *)ka, size);
}

static void ka_free(struct kmalloc_arena *ka, void *p)
{
	shm_arena_free((struct shm_arena *)ka, p);
}

static void *ka_realloc(struct kmalloc_arena *ka, void *p, size_t size)
{
	struct shm_arena *a = (struct shm_arena *)ka;
	size_t old = block_size(a, p);
	void *n;

	if (size <= old)
		return p;
	n = shm_arena_alloc(a, size);
	if (!n)
		return NULL;
	memcpy(n, p, old);
	shm_arena_free(a, p);
	return n;
}

void shm_arena_init(struct shm_arena *a, void *base, size_t size)
{
	memset(a, 0, sizeof(*a));
	a->base = a->top = base;
	a->end = (char *)base + size;
	a->ka.start = base;
	a->ka.end = a->end;
	a->ka.alloc = ka_alloc;
	a->ka.realloc = ka_realloc;
	a->ka.free = ka_free;
}

void shm_arena_attach(struct shm_arena *a)
{
	__kmalloc_arena = a ? &a->ka : NULL;
}
