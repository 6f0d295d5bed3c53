// SPDX-License-Identifier: GPL-2.0
/* The kmalloc arena: see harness/arena.h. */
#include <stdint.h>
#include <string.h>

#include "harness/arena.h"
#include "harness/outcome.h"

#define ARENA_PAGE	4096UL
#define SMALL_MIN	16UL
#define SMALL_MAX	(SMALL_MIN << (RIG_ARENA_CLASSES - 1))
#define GUARD_BYTE	0xa5

/* In front of a small block: its class and the bytes asked for. */
struct small_hdr {
	unsigned int cls;
	unsigned int asked;
	unsigned long pad;
};

static struct small_hdr *small_hdr(void *p)
{
	return (struct small_hdr *)p - 1;
}

static char *bump(struct rig_arena *a, size_t size, size_t align)
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

static void guard_set(char *p, size_t asked)
{
	memset(p + asked, GUARD_BYTE, RIG_ARENA_GUARD);
}

/* The block at @p of @asked bytes: its guard must be as it was set. */
static void guard_check(struct rig_arena *a, char *p, size_t asked)
{
	unsigned int i;

	for (i = 0; i < RIG_ARENA_GUARD; i++)
		if ((unsigned char)p[asked + i] != GUARD_BYTE)
			rig_die("%s: a block of %zu bytes at %p was written past its end (byte %zu)",
				a->name, asked, (void *)p, asked + i);
}

static void *alloc_small(struct rig_arena *a, size_t size)
{
	unsigned int c = class_of(size + RIG_ARENA_GUARD);
	char *p = a->free[c];

	if (p) {
		a->free[c] = *(void **)p;
	} else {
		p = bump(a, sizeof(struct small_hdr) + (SMALL_MIN << c),
			 sizeof(struct small_hdr));
		if (!p)
			return NULL;
		p += sizeof(struct small_hdr);
		small_hdr(p)->cls = c;
	}
	small_hdr(p)->asked = size;
	guard_set(p, size);
	a->in_use += SMALL_MIN << c;
	return p;
}

static void *alloc_large(struct rig_arena *a, size_t asked)
{
	size_t size = (asked + RIG_ARENA_GUARD + ARENA_PAGE - 1) &
		      ~(ARENA_PAGE - 1);
	unsigned int i, spare = RIG_ARENA_LARGE;

	/* Reuse a freed block of exactly this size, else take fresh pages. */
	for (i = 0; i < a->nlarge; i++) {
		if (a->large[i].used)
			continue;
		if (a->large[i].size == size)
			goto take;
		if (!a->large[i].p && spare == RIG_ARENA_LARGE)
			spare = i;
	}
	if (spare == RIG_ARENA_LARGE) {
		if (a->nlarge == RIG_ARENA_LARGE)
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
	a->large[i].asked = asked;
	guard_set(a->large[i].p, asked);
	a->in_use += size;
	return a->large[i].p;
}

static int large_index(struct rig_arena *a, const void *p)
{
	unsigned int i;

	if ((uintptr_t)p & (ARENA_PAGE - 1))
		return -1;
	for (i = 0; i < a->nlarge; i++)
		if (a->large[i].p == p && a->large[i].used)
			return i;
	return -1;
}

void *rig_arena_alloc(struct rig_arena *a, size_t size)
{
	void *p = size + RIG_ARENA_GUARD <= SMALL_MAX ? alloc_small(a, size) :
							  alloc_large(a, size);

	if (p && a->in_use > a->peak)
		a->peak = a->in_use;
	return p;
}

void rig_arena_free(struct rig_arena *a, void *p)
{
	int i;

	if (!p)
		return;
	i = large_index(a, p);
	if (i >= 0) {
		guard_check(a, p, a->large[i].asked);
		a->large[i].used = false;
		a->in_use -= a->large[i].size;
		return;
	}
	guard_check(a, p, small_hdr(p)->asked);
	*(void **)p = a->free[small_hdr(p)->cls];
	a->free[small_hdr(p)->cls] = p;
	a->in_use -= SMALL_MIN << small_hdr(p)->cls;
}

/* What the block at @p was asked to hold. */
static size_t block_asked(struct rig_arena *a, void *p)
{
	int i = large_index(a, p);

	return i >= 0 ? a->large[i].asked : small_hdr(p)->asked;
}

static struct rig_arena *arena_of(struct kmalloc_arena *ka)
{
	return (struct rig_arena *)ka;
}

/* kmalloc()'s hook: a full region is the test's mistake, never a NULL. */
static void *ka_alloc(struct kmalloc_arena *ka, size_t size)
{
	struct rig_arena *a = arena_of(ka);
	void *p = rig_arena_alloc(a, size);

	if (!p)
		rig_die("%s: full (%zu bytes asked, %zu of %zu in use)", a->name,
			size, a->in_use, (size_t)(a->end - a->base));
	return p;
}

static void ka_free(struct kmalloc_arena *ka, void *p)
{
	rig_arena_free(arena_of(ka), p);
}

static void *ka_realloc(struct kmalloc_arena *ka, void *p, size_t size)
{
	struct rig_arena *a = arena_of(ka);
	size_t old = block_asked(a, p);
	void *n;

	n = ka_alloc(ka, size);
	memcpy(n, p, old < size ? old : size);
	rig_arena_free(a, p);
	return n;
}

void rig_arena_init(struct rig_arena *a, const char *name, void *base,
		    size_t size)
{
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->base = a->top = base;
	a->end = (char *)base + size;
	a->ka.start = base;
	a->ka.end = a->end;
	a->ka.alloc = ka_alloc;
	a->ka.realloc = ka_realloc;
	a->ka.free = ka_free;
}

void rig_arena_attach(struct rig_arena *a)
{
	__kmalloc_arena = a ? &a->ka : NULL;
}
