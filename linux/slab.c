// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc() and kfree(): a slab-like allocator, so that what the rig
 * measures is the ring code and not glibc's malloc.  With up to a ring's
 * worth of indirect tables in flight, glibc's per-thread cache (7 chunks a
 * size) overflows and every table goes through its slow path, several
 * hundred instructions a buffer; the kernel's SLUB fast path costs a few
 * tens.  This fast path is about as cheap: per-size caches of objects, each
 * thread with its own free list per size, taken and given back with no lock
 * and no atomic read-modify-write.
 *
 * Layout.  Every object has a 16-byte header in front of it (so objects
 * stay 16-byte aligned) saying which size class it is and whether it is
 * live: its tag is KMEM_LIVE plus the class, or KMEM_FREED, so one
 * compare both checks a live object and gives its class.  Sizes up to
 * KMEM_MAX_SIZE come from classes of 16, 32, ... 8192 bytes, carved from
 * chunks that are never given back (as a slab cache keeps its slabs); larger ones are malloc()ed, header included.  A thread
 * frees to its own list; past KMEM_LOCAL objects of a class it hands half
 * to the shared depot, from which a thread whose list runs dry refills
 * before it carves a new chunk.  An exiting thread hands everything back.
 *
 * Misuse stays visible.  Under AddressSanitizer the caches stay (so
 * ASan checks the allocator the rig measures, not malloc in its place),
 * and ASan sees every object as the kernel's KASAN sees SLUB's: a free
 * object, its header and a red zone after every object are poisoned
 * (ASAN_POISON_MEMORY_REGION), and a live one is addressable for exactly
 * the bytes asked for, so a read of a freed indirect table, a write one
 * byte past an object, or a free list that hands out a smaller object
 * than was asked for is an ASan report, which then says where in which
 * object the address lies (__asan_on_error()).  Under ThreadSanitizer,
 * and under a valgrind tool that replaces malloc() (memcheck, helgrind,
 * drd, massif, dhat: it preloads vgpreload_TOOL), every allocation is a
 * plain malloc() of the size asked, with no header, so the tool sees
 * every object: a use after free, a double free or a leak of an indirect
 * table is reported as it always was (tests/kmem_misuse proves it).
 * Elsewhere, ASan included, a kfree() of a pointer kmalloc() did not
 * return, or of one already freed, stops the program with a message (the
 * header says so), where glibc's free() might not notice.  And a program
 * that exits with status 0 while objects are still allocated says how
 * many and exits 1 instead (kmem_exit_check()): every program of make
 * check frees what it allocated.

 * The test hooks of linux/slab.h (fake allocations, failure injection, the
 * live count, arenas) work as before.  Calls are counted per thread with
 * plain stores; while failure injection is armed every allocation takes
 * the slow path and counts in one shared counter, so "the n-th allocation
 * from now" is exact across threads.  The live count of small objects is
 * not kept per call: it is every object carved less those on a free list
 * (a thread's or the depot), summed when asked; large and plain malloc()
 * ones are counted as they come and go, on the slow path.
 *
 * The fast paths test as little as they can: a size past the classes (or
 * 0) picks a free list that is always empty (KMEM_SLOTS of them, for any
 * size), and a thread not registered yet has no object on its lists and
 * no room to free to them, so both go the slow way with no test of their
 * own.
 */
#define _GNU_SOURCE		/* on_exit() */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/build_bug.h>
#include <linux/slab.h>

/* Is this an AddressSanitizer build?  Then the caches are poisoned. */
#if defined(__SANITIZE_ADDRESS__)
#define KMEM_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KMEM_ASAN	1
#endif
#endif
#ifndef KMEM_ASAN
#define KMEM_ASAN	0
#endif

#if KMEM_ASAN
#include <sanitizer/asan_interface.h>
/* Poisoned bytes after every object, beside the next one's header. */
#define KMEM_RZ			16
/* The allocator's own reads of headers and free objects are not checked. */
#define kmem_noasan		__attribute__((no_sanitize_address))
#define kmem_poison(p, n)	ASAN_POISON_MEMORY_REGION(p, n)
#define kmem_unpoison(p, n)	ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define KMEM_RZ			0
#define kmem_noasan
#define kmem_poison(p, n)	((void)(p), (void)(n))
#define kmem_unpoison(p, n)	((void)(p), (void)(n))
#endif

__thread struct kmem_hooks __kmem_hooks;
__thread unsigned char __kmem_fast;

/* The hooks, read here without clearing __kmem_fast. */
#define hook_fake		(__kmem_hooks.fake)
#define hook_ignore_start	(__kmem_hooks.ignore_start)
#define hook_ignore_end		(__kmem_hooks.ignore_end)
#define hook_arena		(__kmem_hooks.arena)

#define KMEM_HDR	16
#define KMEM_MIN_SHIFT	4			/* the smallest class: 16 bytes */
#define KMEM_CLASSES	10			/* 16 .. 8192 bytes */
#define KMEM_MAX_SIZE	(1UL << (KMEM_MIN_SHIFT + KMEM_CLASSES - 1))
#define KMEM_LARGE	KMEM_CLASSES		/* malloc()ed, header included */
#define KMEM_LOCAL	512			/* objects a thread keeps a class */
#define KMEM_CHUNK	(64 * 1024)		/* carved at once, at least */

/* Any size's list: kmem_class_any() of 0 or of a size past the classes. */
#define KMEM_SLOTS	64

/* Tags: live, plus the class (0 .. KMEM_LARGE); free. */
#define KMEM_LIVE	0x6b6d4c50u		/* "kmLP" */
#define KMEM_FREED	0x6b6d4644u		/* "kmFD" */

struct kmem_hdr {
	unsigned int magic;			/* KMEM_LIVE + cls, KMEM_FREED */
	unsigned int cls;
	size_t size;				/* as asked: KMEM_LARGE, ASan */
};

/*
 * A chunk of objects of one class: a link to the chunk carved before, the
 * class and how many objects, then the objects, each KMEM_HDR + its
 * class's size + KMEM_RZ bytes.
 */
struct kmem_chunk {
	struct kmem_chunk *next;
	unsigned int cls;
	unsigned int n;
};

/* A free object's first word links it to the next one. */
struct kmem_free {
	struct kmem_free *next;
};

/* A thread's caches and counters; the counters are read by any thread. */
struct kmem_cpu {
	/* Only the first KMEM_CLASSES lists ever hold an object. */
	struct kmem_free *free[KMEM_SLOTS];
	/*
	 * Objects kfree() may still put on a list before the thread hands
	 * half of it to the depot: KMEM_LOCAL less the list's length while
	 * registered (see kmem_nfree()), 0 before.
	 */
	int room[KMEM_CLASSES];
	unsigned long allocs;		/* calls counted here (disarmed) */
	long live;			/* large and plain ones, this thread */
	struct kmem_cpu *next;		/* in kmem_threads */
	/* This thread's __kmem_fast, which kmalloc_fail_nth() clears. */
	unsigned char *fast;
	bool registered;
};

static __thread struct kmem_cpu kmem_cpu;

/*
 * A thread's calls take the fast paths while its __kmem_fast is set: it
 * is registered, every allocation is not to be a plain malloc() (for a
 * checking tool), failure injection is not armed and its hooks are NULL.
 * Only the thread sets it, under kmem_lock (kmem_try_fast()); it, the
 * hooks' names and kmalloc_fail_nth() (for every thread, under kmem_lock)
 * clear it.
 */
static bool kmem_decided, kmem_plain;

static pthread_mutex_t kmem_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t kmem_key;
static struct kmem_cpu *kmem_threads;		/* registered, under kmem_lock */
static unsigned long kmem_exited_allocs;	/* of threads gone */
static long kmem_exited_live;
static unsigned long kmem_calls_base;		/* sum at kmalloc_fail_nth() */
static unsigned long kmem_armed_calls;		/* counted while armed */
static unsigned long kmem_fail_at;		/* 0: never */

/*
 * The shared depot, one list per class, every chunk ever carved and the
 * objects carved from them.
 */
static struct kmem_free *kmem_depot[KMEM_CLASSES];
static unsigned int kmem_depot_n[KMEM_CLASSES];
static struct kmem_chunk *kmem_chunks;
static unsigned long kmem_carved;
static pid_t kmem_pid;			/* whose exit kmem_exit_check() checks */

static inline struct kmem_hdr *kmem_hdr(const void *p)
{
	return (struct kmem_hdr *)((char *)p - KMEM_HDR);
}

static inline size_t kmem_class_size(unsigned int cls)
{
	return 1UL << (cls + KMEM_MIN_SHIFT);
}

/* The bytes an object of class cls takes in its chunk. */
static inline size_t kmem_step(unsigned int cls)
{
	return KMEM_HDR + kmem_class_size(cls) + KMEM_RZ;
}

/*
 * Object @p of a class handed out for @size bytes: with ASan, exactly
 * those are addressable, and no more than its class holds (the class in
 * its header: a free list that hands out a smaller object shows as an
 * access to poison).
 */
static inline kmem_noasan void kmem_ready(void *p, size_t size)
{
#if KMEM_ASAN
	struct kmem_hdr *h = (struct kmem_hdr *)((char *)p - KMEM_HDR);
	size_t have = h->cls < KMEM_CLASSES ? kmem_class_size(h->cls) : 0;

	h->size = size;
	kmem_unpoison(p, size < have ? size : have);
#else
	(void)p;
	(void)size;
#endif
}

/* Object @p of class @cls is free: with ASan, none of it is addressable. */
static inline void kmem_gone(void *p, unsigned int cls)
{
	kmem_poison(p, kmem_class_size(cls));
}

/*
 * The smallest class of at least size bytes, for 1 <= size <=
 * KMEM_MAX_SIZE; past that, and for 0 (size - 1 wraps), a slot below
 * KMEM_SLOTS at or past KMEM_CLASSES.
 */
static inline unsigned int kmem_class_any(size_t size)
{
	/*
	 * Sizes up to the smallest class's all have its highest bit; 63 ^
	 * clz is that bit's number (one bsr on x86-64).
	 */
	return (63 ^ __builtin_clzl((size - 1) | ((1UL << KMEM_MIN_SHIFT) - 1))) -
	       (KMEM_MIN_SHIFT - 1);
}

/* The smallest class of at least size bytes (size <= KMEM_MAX_SIZE). */
static inline unsigned int kmem_class(size_t size)
{
	return size ? kmem_class_any(size) : 0;
}

/* How many objects a registered thread's list of class cls holds. */
static inline unsigned int kmem_nfree(const struct kmem_cpu *c, unsigned int cls)
{
	return KMEM_LOCAL - c->room[cls];
}

static void __attribute__((__noreturn__)) kmem_bug(const char *what, const void *p)
{
	fprintf(stderr, "kfree: %s %p\n", what, p);
	abort();
}

/* Does a valgrind tool that replaces malloc() run this program? */
static bool kmem_under_checking_valgrind(void)
{
	const char *s = getenv("LD_PRELOAD");

	while (s && (s = strstr(s, "/vgpreload_"))) {
		s += strlen("/vgpreload_");
		if (strncmp(s, "core-", 5))
			return true;
	}
	return false;
}

/* ThreadSanitizer: plain malloc(), which it knows. */
static bool kmem_tsan(void)
{
#if defined(__SANITIZE_THREAD__)
	return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
	return true;
#endif
#endif
	return false;
}

static void kmem_thread_exit(void *arg);

/*
 * At exit with status 0: every object must be freed.  A leak shows as a
 * count that is not 0 (large and plain objects, and every object carved
 * and on no free list), named on stderr; the exit status becomes 1.  A
 * process fork()ed from the one that registered this is not checked.
 */
static void kmem_exit_check(int status, void *arg __always_unused)
{
	long n;

	if (status != 0 || getpid() != kmem_pid)
		return;
	n = kmalloc_outstanding();
	if (!n)
		return;
	fflush(stdout);
	fprintf(stderr, "kmalloc: %ld object%s still allocated at exit (kmalloc_outstanding(), linux/slab.c): a leak\n",
		n, n == 1 ? "" : "s");
	_exit(1);
}

static void kmem_decide(void)
{
	pthread_mutex_lock(&kmem_lock);
	if (!kmem_decided) {
		kmem_plain = kmem_tsan() || kmem_under_checking_valgrind();
		if (pthread_key_create(&kmem_key, kmem_thread_exit)) {
			fprintf(stderr, "kmalloc: pthread_key_create failed\n");
			abort();
		}
		kmem_pid = getpid();
		on_exit(kmem_exit_check, NULL);
		__atomic_store_n(&kmem_decided, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kmem_lock);
}

/* This thread's counters are summed from now on, and folded at its exit. */
static void kmem_register(struct kmem_cpu *c)
{
	unsigned int cls;

	if (likely(c->registered))
		return;
	if (!__atomic_load_n(&kmem_decided, __ATOMIC_ACQUIRE))
		kmem_decide();
	pthread_mutex_lock(&kmem_lock);
	c->next = kmem_threads;
	kmem_threads = c;
	c->registered = true;
	/* Its lists are empty: whatever ran before gave them back. */
	for (cls = 0; cls < KMEM_CLASSES; cls++)
		c->room[cls] = KMEM_LOCAL;
	c->fast = &__kmem_fast;
	pthread_mutex_unlock(&kmem_lock);
	pthread_setspecific(kmem_key, c);
}

/*
 * On a slow path: may this registered thread take the fast paths again?
 * The hooks are this thread's; the rest is read under kmem_lock, which
 * kmalloc_fail_nth() holds to clear every thread's flag.
 */
static void kmem_try_fast(struct kmem_cpu *c)
{
	if (kmem_plain || __atomic_load_n(&__kmem_fast, __ATOMIC_RELAXED) ||
	    hook_fake || hook_arena ||
	    hook_ignore_start || hook_ignore_end ||
	    __atomic_load_n(&kmem_fail_at, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&kmem_lock);
	if (c->registered && !kmem_fail_at)
		__atomic_store_n(&__kmem_fast, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&kmem_lock);
}

/* Under kmem_lock: give n objects of class cls from c's list to the depot. */
static kmem_noasan void kmem_give(struct kmem_cpu *c, unsigned int cls, unsigned int n)
{
	struct kmem_free *first = c->free[cls], *last = first;
	unsigned int i;

	if (!n)
		return;
	for (i = 1; i < n; i++)
		last = last->next;
	c->free[cls] = last->next;
	c->room[cls] += n;
	last->next = kmem_depot[cls];
	kmem_depot[cls] = first;
	kmem_depot_n[cls] += n;
}

static kmem_noasan void kmem_thread_exit(void *arg)
{
	struct kmem_cpu *c = arg, **pp;
	unsigned int cls;

	pthread_mutex_lock(&kmem_lock);
	for (cls = 0; cls < KMEM_CLASSES; cls++) {
		kmem_give(c, cls, kmem_nfree(c, cls));
		c->room[cls] = 0;
	}
	for (pp = &kmem_threads; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	kmem_exited_allocs += __atomic_load_n(&c->allocs, __ATOMIC_RELAXED);
	kmem_exited_live += __atomic_load_n(&c->live, __ATOMIC_RELAXED);
	c->allocs = 0;
	c->live = 0;
	c->registered = false;
	__atomic_store_n(c->fast, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&kmem_lock);
}

/* Under kmem_lock: carve a chunk of class cls objects onto c's list. */
static kmem_noasan bool kmem_carve(struct kmem_cpu *c, unsigned int cls)
{
	size_t step = kmem_step(cls);
	size_t n = KMEM_CHUNK / step < 16 ? 16 : KMEM_CHUNK / step;
	struct kmem_chunk *chunk = malloc(16 + n * step);
	char *p;
	size_t i;

	BUILD_BUG_ON(sizeof(*chunk) > 16);
	if (!chunk)
		return false;
	/* Chunks stay reachable: a leak checker sees no leak in them. */
	chunk->next = kmem_chunks;
	chunk->cls = cls;
	chunk->n = n;
	kmem_chunks = chunk;
	/* malloc() aligns to 16, and so do the chunk's head and each header. */
	p = (char *)chunk + 16;
	for (i = 0; i < n; i++, p += step) {
		struct kmem_hdr *h = (struct kmem_hdr *)p;
		struct kmem_free *f = (struct kmem_free *)(p + KMEM_HDR);

		h->magic = KMEM_FREED;
		h->cls = cls;
		h->size = 0;
		f->next = c->free[cls];
		c->free[cls] = f;
	}
	/*
	 * Nothing in it is an object yet: headers, objects, red zones.  The
	 * chunk's own head stays readable, or LeakSanitizer would not follow
	 * its link and call the chunks before it leaked.
	 */
	kmem_poison((char *)chunk + 16, n * step);
	c->room[cls] -= n;
	kmem_carved += n;
	return true;
}

/* c's list of class cls is empty: refill it from the depot or a chunk. */
static kmem_noasan bool kmem_refill(struct kmem_cpu *c, unsigned int cls)
{
	bool ok = true;

	pthread_mutex_lock(&kmem_lock);
	if (kmem_depot[cls]) {
		unsigned int n = kmem_depot_n[cls] < KMEM_LOCAL / 2 ?
				 kmem_depot_n[cls] : KMEM_LOCAL / 2;
		struct kmem_free *first = kmem_depot[cls], *last = first;
		unsigned int i;

		for (i = 1; i < n; i++)
			last = last->next;
		kmem_depot[cls] = last->next;
		kmem_depot_n[cls] -= n;
		last->next = c->free[cls];
		c->free[cls] = first;
		c->room[cls] -= n;
	} else {
		ok = kmem_carve(c, cls);
	}
	pthread_mutex_unlock(&kmem_lock);
	return ok;
}

/* Count one call; true if failure injection says it must fail. */
static bool kmem_count_call(struct kmem_cpu *c)
{
	unsigned long at = __atomic_load_n(&kmem_fail_at, __ATOMIC_RELAXED);

	if (at)
		return __atomic_add_fetch(&kmem_armed_calls, 1, __ATOMIC_RELAXED) == at;
	__atomic_store_n(&c->allocs, c->allocs + 1, __ATOMIC_RELAXED);
	return false;
}

static inline void kmem_live_add(struct kmem_cpu *c, long d)
{
	__atomic_store_n(&c->live, c->live + d, __ATOMIC_RELAXED);
}

/*
 * A new object: of a class (from c's list, refilled if empty), large, or
 * plain; the last two counted live here.
 */
static kmem_noasan void *kmem_get(struct kmem_cpu *c, size_t size)
{
	struct kmem_hdr *h;
	struct kmem_free *f;
	unsigned int cls;

	if (kmem_plain) {
		f = malloc(size ? size : 1);
		if (f)
			kmem_live_add(c, 1);
		return f;
	}
	if (size > KMEM_MAX_SIZE) {
		if (size > SIZE_MAX - KMEM_HDR)
			return NULL;
		h = malloc(KMEM_HDR + size);
		if (!h)
			return NULL;
		h->magic = KMEM_LIVE + KMEM_LARGE;
		h->cls = KMEM_LARGE;
		h->size = size;
		/* Past its end is malloc()'s own red zone; before it, ours. */
		kmem_poison(h, KMEM_HDR);
		kmem_live_add(c, 1);
		return (char *)h + KMEM_HDR;
	}
	cls = kmem_class(size);
	if (!c->free[cls] && !kmem_refill(c, cls))
		return NULL;
	f = c->free[cls];
	c->free[cls] = f->next;
	c->room[cls]++;
	kmem_hdr(f)->magic = KMEM_LIVE + cls;
	kmem_ready(f, size);
	return f;
}

static noinline kmem_noasan void *kmem_alloc_slow(size_t size, gfp_t gfp)
{
	struct kmem_cpu *c = &kmem_cpu;
	void *p;

	kmem_register(c);
	kmem_try_fast(c);
	if (kmem_count_call(c))
		return NULL;
	if (hook_fake) {
		p = hook_fake;
	} else if (hook_arena) {
		p = hook_arena->alloc(hook_arena, size ? size : 1);
		if (!p)
			return NULL;
	} else {
		p = kmem_get(c, size);
		if (!p)
			return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	return p;
}

kmem_noasan void *__kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cpu *c = &kmem_cpu;
	/* Empty for 0, a size past the classes, or before registering. */
	unsigned int cls = kmem_class_any(size);
	struct kmem_free *f = c->free[cls];

	if (unlikely(!f) || unlikely(!__atomic_load_n(&__kmem_fast, __ATOMIC_RELAXED)))
		return kmem_alloc_slow(size, gfp);
	c->free[cls] = f->next;
	/*
	 * Plain increments: only this thread writes them, and a tool that
	 * would see the other threads' reads as racing takes the slow path.
	 */
	c->room[cls]++;
	kmem_hdr(f)->magic = KMEM_LIVE + cls;
	kmem_ready(f, size);
	c->allocs++;
	if (gfp & __GFP_ZERO)
		memset(f, 0, size);
	return f;
}

static bool in_arena(const void *p)
{
	const struct kmalloc_arena *a = hook_arena;

	return a && p >= a->start && p < a->end;
}

/* p's header, checked: it must be a live object of ours. */
static kmem_noasan struct kmem_hdr *kmem_live_hdr(const void *p)
{
	struct kmem_hdr *h = kmem_hdr(p);

	if (h->magic == KMEM_FREED)
		kmem_bug("double free of", p);
	if (h->cls > KMEM_LARGE || h->magic != KMEM_LIVE + h->cls)
		kmem_bug("not a kmalloc() pointer:", p);
	return h;
}

/*
 * Give back an object of ours (c's free-list limit reached, or large, or
 * plain; the last two counted here).
 */
static kmem_noasan void kmem_put(struct kmem_cpu *c, void *p)
{
	struct kmem_hdr *h;
	struct kmem_free *f = p;

	if (kmem_plain) {
		free(p);
		kmem_live_add(c, -1);
		return;
	}
	h = kmem_live_hdr(p);
	h->magic = KMEM_FREED;
	if (h->cls == KMEM_LARGE) {
		free(h);
		kmem_live_add(c, -1);
		return;
	}
	kmem_gone(f, h->cls);
	f->next = c->free[h->cls];
	c->free[h->cls] = f;
	if (--c->room[h->cls] < 0) {
		pthread_mutex_lock(&kmem_lock);
		kmem_give(c, h->cls, KMEM_LOCAL / 2);
		pthread_mutex_unlock(&kmem_lock);
	}
}

static noinline kmem_noasan void kmem_free_slow(const void *p)
{
	struct kmem_cpu *c = &kmem_cpu;

	if (p >= hook_ignore_start && p < hook_ignore_end)
		return;
	if (p == hook_fake)
		return;
	if (in_arena(p)) {
		hook_arena->free(hook_arena, (void *)p);
		return;
	}
	kmem_register(c);
	kmem_try_fast(c);
	kmem_put(c, (void *)p);
}

kmem_noasan void kfree(const void *p)
{
	struct kmem_cpu *c = &kmem_cpu;
	struct kmem_hdr *h;
	struct kmem_free *f = (struct kmem_free *)p;
	unsigned long cls;
	int *room;

	if (unlikely(!p))
		return;
	if (unlikely(!__atomic_load_n(&__kmem_fast, __ATOMIC_RELAXED))) {
		kmem_free_slow(p);
		return;
	}
	/* A live object of a class, and room on its list (none unregistered). */
	h = kmem_hdr(p);
	cls = h->magic - KMEM_LIVE;
	if (unlikely(cls >= KMEM_CLASSES))
		goto slow;
	room = &c->room[cls];
	if (unlikely(*room <= 0))
		goto slow;
	h->magic = KMEM_FREED;
	kmem_gone(f, cls);
	f->next = c->free[cls];
	c->free[cls] = f;
	--*room;
	return;
slow:
	kmem_free_slow(p);
}

kmem_noasan void *__krealloc(const void *old, size_t size, gfp_t gfp)
{
	struct kmem_cpu *c = &kmem_cpu;
	struct kmem_hdr *h;
	size_t have, keep;
	void *p;

	if (!old)
		return __kmalloc(size, gfp);
	kmem_register(c);
	if (kmem_count_call(c))
		return NULL;
	if (in_arena(old))
		return hook_arena->realloc(hook_arena, (void *)old,
						size ? size : 1);
	if (kmem_plain)
		return realloc((void *)old, size ? size : 1);
	h = kmem_live_hdr(old);
	have = h->cls == KMEM_LARGE ? h->size : kmem_class_size(h->cls);
	/* The bytes that hold data: with ASan, only those asked for. */
	keep = KMEM_ASAN ? h->size : have;
	if (h->cls != KMEM_LARGE && size <= have) {
		kmem_gone((void *)old, h->cls);
		kmem_ready((void *)old, size);
		return (void *)old;
	}
	p = kmem_get(c, size);
	if (!p)
		return NULL;
	memcpy(p, old, keep < size ? keep : size);
	kmem_put(c, (void *)old);
	return p;
}

void kmalloc_fail_nth(unsigned long n)
{
	struct kmem_cpu *c = &kmem_cpu;
	unsigned long sum;

	kmem_register(c);
	pthread_mutex_lock(&kmem_lock);
	sum = kmem_exited_allocs;
	for (c = kmem_threads; c; c = c->next)
		sum += __atomic_load_n(&c->allocs, __ATOMIC_RELAXED);
	kmem_calls_base = sum;
	__atomic_store_n(&kmem_armed_calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&kmem_fail_at, n, __ATOMIC_RELAXED);
	/* Every thread's next call sees it; disarmed, they turn fast again. */
	for (c = kmem_threads; c; c = c->next)
		__atomic_store_n(c->fast, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&kmem_lock);
}

unsigned long kmalloc_count(void)
{
	struct kmem_cpu *c;
	unsigned long sum;

	pthread_mutex_lock(&kmem_lock);
	sum = kmem_exited_allocs;
	for (c = kmem_threads; c; c = c->next)
		sum += __atomic_load_n(&c->allocs, __ATOMIC_RELAXED);
	sum -= kmem_calls_base;
	pthread_mutex_unlock(&kmem_lock);
	return sum + __atomic_load_n(&kmem_armed_calls, __ATOMIC_RELAXED);
}

long kmalloc_outstanding(void)
{
	struct kmem_cpu *c;
	unsigned int cls;
	long sum;

	pthread_mutex_lock(&kmem_lock);
	/* Large and plain ones, then every object carved and on no list. */
	sum = kmem_exited_live + kmem_carved;
	for (cls = 0; cls < KMEM_CLASSES; cls++)
		sum -= kmem_depot_n[cls];
	for (c = kmem_threads; c; c = c->next) {
		sum += __atomic_load_n(&c->live, __ATOMIC_RELAXED);
		for (cls = 0; cls < KMEM_CLASSES; cls++)
			sum -= KMEM_LOCAL -
			       __atomic_load_n(&c->room[cls], __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&kmem_lock);
	return sum;
}

#if KMEM_ASAN
/*
 * ASan found a bad access: say where it lies among the caches' objects
 * before ASan's report (which says only "use-after-poison"): in a free
 * object (a use after kfree()), past the bytes a live one was asked for,
 * in a red zone or a header.  Called by the ASan runtime.
 */
void __asan_on_error(void);
kmem_noasan void __asan_on_error(void)
{
	const char *a = __asan_get_report_address();
	const struct kmem_chunk *ch;

	for (ch = kmem_chunks; ch; ch = ch->next) {
		const char *base = (const char *)ch + 16;
		size_t step = kmem_step(ch->cls), sz = kmem_class_size(ch->cls), off;
		const struct kmem_hdr *h;

		if (a < base || a >= base + ch->n * step)
			continue;
		off = (size_t)(a - base) % step;
		h = (const struct kmem_hdr *)(a - off);
		if (off < KMEM_HDR)
			fprintf(stderr, "kmalloc: %p is in the header before a %zu-byte object (its red zone)\n",
				(const void *)a, sz);
		else if (off - KMEM_HDR >= sz)
			fprintf(stderr, "kmalloc: %p is %zu bytes past the end of a %zu-byte object, in its red zone\n",
				(const void *)a, off - KMEM_HDR - sz, sz);
		else if (h->magic == KMEM_FREED)
			fprintf(stderr, "kmalloc: %p is byte %zu of a freed %zu-byte object: a use after kfree()\n",
				(const void *)a, off - KMEM_HDR, sz);
		else if (off - KMEM_HDR >= h->size)
			fprintf(stderr, "kmalloc: %p is byte %zu of a kmalloc(%zu) object, %zu past its end\n",
				(const void *)a, off - KMEM_HDR, h->size,
				off - KMEM_HDR - h->size);
		return;
	}
}
#endif
