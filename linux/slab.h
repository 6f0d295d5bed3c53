/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel allocator: a slab-like fast path (per-size caches, per-thread
 * free lists; linux/slab.c says how, and how checking tools still see every
 * object), with the rig's test hooks:
 *
 * Fake allocations: while __kmalloc_fake is set, kmalloc() returns it
 * whatever the size (so a test can place an indirect table in memory the
 * other side can see), and kfree() ignores pointers inside
 * [__kfree_ignore_start, __kfree_ignore_end).  All three are per thread, so
 * a guest thread's fake does not leak into a host thread's allocations.
 *
 * Fault injection: kmalloc_fail_nth(n) makes the n-th allocation from now
 * fail (n == 0 turns it off); kmalloc_outstanding() counts live allocations
 * so a test can prove an error path freed what it took.
 *
 * Allocation arenas: while __kmalloc_arena is set (per thread), every
 * allocation comes from its alloc() instead of the caches, and kfree() or
 * krealloc() of a pointer inside [start, end) goes back to it.  A program
 * whose device is another process (vhost-user) points it at the memory it
 * shares with the device, so the rings and indirect tables the ring code
 * allocates are where the device can read them.
 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/overflow.h>
#include <linux/compiler.h>

struct kmalloc_arena {
	void *start, *end;	/* what free() and realloc() own */
	void *(*alloc)(struct kmalloc_arena *a, size_t size);
	void *(*realloc)(struct kmalloc_arena *a, void *p, size_t size);
	void (*free)(struct kmalloc_arena *a, void *p);
};

/*
 * The hooks are variables to read and assign, each a field of this
 * thread's struct kmem_hooks.  Naming one (to read or to write it) first
 * clears this thread's __kmem_fast, so that its next kmalloc() or kfree()
 * takes the slow path, which sees the hooks and sets __kmem_fast again
 * once they are all NULL: the fast paths test one flag, not each hook.
 */
struct kmem_hooks {
	void *fake;
	void *ignore_start, *ignore_end;
	struct kmalloc_arena *arena;
};

extern __thread struct kmem_hooks __kmem_hooks;
extern __thread unsigned char __kmem_fast;

static inline struct kmem_hooks *__kmem_hooks_named(void)
{
	__atomic_store_n(&__kmem_fast, 0, __ATOMIC_RELAXED);
	return &__kmem_hooks;
}

#define __kmalloc_fake		(__kmem_hooks_named()->fake)
#define __kfree_ignore_start	(__kmem_hooks_named()->ignore_start)
#define __kfree_ignore_end	(__kmem_hooks_named()->ignore_end)
#define __kmalloc_arena		(__kmem_hooks_named()->arena)

void *__kmalloc(size_t size, gfp_t gfp);
void *__krealloc(const void *p, size_t size, gfp_t gfp);
void kfree(const void *p);

void kmalloc_fail_nth(unsigned long n);
unsigned long kmalloc_count(void);
long kmalloc_outstanding(void);

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return __kmalloc(size, gfp);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return __kmalloc(size, gfp | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return __kmalloc(bytes, gfp);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kmalloc_array(n, size, gfp | __GFP_ZERO);
}

static inline void *krealloc(const void *p, size_t size, gfp_t gfp)
{
	return __krealloc(p, size, gfp);
}

static inline void *krealloc_array(void *p, size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return __krealloc(p, bytes, gfp);
}

#define kvmalloc(size, gfp)		kmalloc(size, gfp)
#define kvmalloc_array(n, size, gfp)	kmalloc_array(n, size, gfp)
#define kvzalloc(size, gfp)		kzalloc(size, gfp)
#define kvfree(p)			kfree(p)

/*
 * Typed allocation (Linux 7.x): kmalloc_obj(VAR_OR_TYPE[, gfp]) for one
 * object, kmalloc_objs(VAR_OR_TYPE, n[, gfp]) for an array, and
 * kmalloc_flex(VAR_OR_TYPE, member, n[, gfp]) for a structure with n
 * elements in its flexible array member; each for kzalloc, kvmalloc and
 * kvzalloc too.  The flags default to GFP_KERNEL.  Sizes saturate, so an
 * overflowing count fails the allocation.
 */
#define __kmem_gfp_pick(zero, gfp, ...)	gfp
#define __kmem_gfp(...)		__kmem_gfp_pick(0, ##__VA_ARGS__, GFP_KERNEL)
#define __kmem_objs(alloc, gfp, type, n)				\
	((type *)alloc(size_mul(sizeof(type), (n)), gfp))
#define __kmem_flex(alloc, gfp, type, member, n)			\
	((type *)alloc(size_add(sizeof(type),				\
				size_mul(sizeof(((type *)0)->member[0]), (n))), \
		       gfp))

#define kmalloc_obj(p, ...)	__kmem_objs(kmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), 1)
#define kmalloc_objs(p, n, ...)	__kmem_objs(kmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), n)
#define kmalloc_flex(p, m, n, ...) __kmem_flex(kmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), m, n)
#define kzalloc_obj(p, ...)	__kmem_objs(kzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), 1)
#define kzalloc_objs(p, n, ...)	__kmem_objs(kzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), n)
#define kzalloc_flex(p, m, n, ...) __kmem_flex(kzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), m, n)
#define kvmalloc_obj(p, ...)	__kmem_objs(kvmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), 1)
#define kvmalloc_objs(p, n, ...) __kmem_objs(kvmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), n)
#define kvmalloc_flex(p, m, n, ...) __kmem_flex(kvmalloc, __kmem_gfp(__VA_ARGS__), typeof(p), m, n)
#define kvzalloc_obj(p, ...)	__kmem_objs(kvzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), 1)
#define kvzalloc_objs(p, n, ...) __kmem_objs(kvzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), n)
#define kvzalloc_flex(p, m, n, ...) __kmem_flex(kvzalloc, __kmem_gfp(__VA_ARGS__), typeof(p), m, n)

static inline void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	return __kmalloc(size, gfp);
}

static inline void free_pages_exact(void *p, size_t size __always_unused)
{
	kfree(p);
}

#endif /* _LINUX_SLAB_H */
