// SPDX-License-Identifier: GPL-2.0
/*
 * The kmalloc shim (linux/slab.c) tested as the kernel tests SLUB: every
 * size class at its edge, large objects with the fast path on, krealloc
 * across classes, the free lists' hand-off to the shared depot and back,
 * threads that allocate and free on each other's objects, and the live
 * count (kmalloc_outstanding()) exact after each step.  Every object is
 * filled to its last byte and read back: an object smaller than asked
 * for, or two that overlap, shows as a pattern overwritten or as a
 * clobbered header that kfree() stops on (abort); under AddressSanitizer
 * (make check-asan, where the shim's caches are poisoned) as a report.
 *
 * Usage: kmem --list | kmem CASE | kmem -h.  Exit 0: the shim did it;
 * 1: it did not (or a check stopped it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/slab.h>

#include "harness/harness.h"

static const char help[] =
"Usage: kmem --list | kmem CASE\n"
"Run one case of the kmalloc shim's own checks (--list names them).\n"
"Exit 0: the shim did what the case checks; 1: it did not.\n";

/* The shim's classes: 16, 32, ... 8192 bytes; past that, large objects. */
#define CLASS_MIN	16
#define CLASS_MAX	8192
#define OBJS		48	/* of one size at once: two chunks of the largest */

static unsigned char pattern(unsigned int obj, size_t i)
{
	return (unsigned char)(obj * 31 + i * 7 + i / 253 + 1);
}

static void fill(unsigned char *p, size_t size, unsigned int obj)
{
	size_t i;

	for (i = 0; i < size; i++)
		p[i] = pattern(obj, i);
}

static bool intact(const unsigned char *p, size_t size, unsigned int obj)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (p[i] != pattern(obj, i))
			return false;
	return true;
}

static int by_address(const void *a, const void *b)
{
	const unsigned char *x = *(unsigned char *const *)a, *y = *(unsigned char *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * OBJS objects of @size at once, each filled whole: none overlaps
 * another, each keeps its bytes, the live count is OBJS more, and back
 * where it was once they are freed.
 */
static void objects_of(size_t size)
{
	unsigned char *p[OBJS], *sorted[OBJS];
	long base = kmalloc_outstanding();
	unsigned int i;

	for (i = 0; i < OBJS; i++) {
		p[i] = kmalloc(size, GFP_KERNEL);
		CHECKF(p[i], "kmalloc(%zu) failed", size);
		fill(p[i], size, i);
	}
	CHECKF(kmalloc_outstanding() == base + OBJS, "%ld live after %u kmalloc(%zu), %ld before",
	       kmalloc_outstanding(), OBJS, size, base);
	for (i = 0; i < OBJS; i++)
		CHECKF(intact(p[i], size, i), "object %u of %u kmalloc(%zu): its bytes changed",
		       i, OBJS, size);
	memcpy(sorted, p, sizeof(p));
	qsort(sorted, OBJS, sizeof(sorted[0]), by_address);
	for (i = 0; i + 1 < OBJS; i++)
		CHECKF(sorted[i] + size <= sorted[i + 1], "kmalloc(%zu) objects %p and %p overlap",
		       size, (void *)sorted[i], (void *)sorted[i + 1]);
	for (i = OBJS; i--;)
		kfree(p[i]);
	CHECKF(kmalloc_outstanding() == base, "%ld live after freeing them, %ld before",
	       kmalloc_outstanding(), base);
}

/*
 * A class's edge: its largest size (@top) and the first of the next
 * class (@top + 1; past CLASS_MAX, a large object); the smallest class
 * also from 1 byte.
 */
static int boundary(unsigned long top)
{
	if (top == CLASS_MIN)
		objects_of(1);
	objects_of(top);
	objects_of(top + 1);
	return 0;
}

/* kmalloc(0): an object of its own, freed like any other. */
static int size_zero(void)
{
	long base = kmalloc_outstanding();
	void *p = kmalloc(0, GFP_KERNEL), *q = kmalloc(0, GFP_KERNEL);

	CHECK(p && q && p != q);
	CHECK(kmalloc_outstanding() == base + 2);
	kfree(p);
	kfree(q);
	CHECK(kmalloc_outstanding() == base);
	return 0;
}

/*
 * Large objects while the thread takes the fast paths (__kmem_fast): each
 * comes and goes (the fast paths hand them to the slow ones), kzalloc()
 * zeroes it, the live count follows, and the fast paths stay on.  (Under
 * ThreadSanitizer or valgrind the shim is plain malloc() and has no fast
 * paths: the rest still runs.)
 */
static int large_fast_path(void)
{
	static const size_t sizes[] = { CLASS_MAX + 1, CLASS_MAX + 16, 3 * CLASS_MAX, 1 << 20 };
	unsigned char *p, *z;
	unsigned int i;
	bool fast;
	long base;
	size_t j;

	/* The first calls register the thread; then it is fast. */
	kfree(kmalloc(64, GFP_KERNEL));
	kfree(kmalloc(64, GFP_KERNEL));
	fast = __kmem_fast;
	base = kmalloc_outstanding();
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		p = kmalloc(sizes[i], GFP_KERNEL);
		z = kzalloc(sizes[i], GFP_KERNEL);
		CHECKF(p && z, "kmalloc/kzalloc(%zu) failed", sizes[i]);
		CHECK(kmalloc_outstanding() == base + 2);
		for (j = 0; j < sizes[i]; j++)
			CHECKF(!z[j], "kzalloc(%zu): byte %zu is 0x%x", sizes[i], j, z[j]);
		fill(p, sizes[i], i);
		fill(z, sizes[i], i + 1);
		CHECK(intact(p, sizes[i], i) && intact(z, sizes[i], i + 1));
		kfree(z);
		kfree(p);
		CHECKF(kmalloc_outstanding() == base, "%ld live after kfree of two %zu-byte objects, %ld before",
		       kmalloc_outstanding(), sizes[i], base);
		CHECKF(__kmem_fast == fast, "a %zu-byte object turned the fast paths off", sizes[i]);
		/* A small one after it still comes from its class. */
		p = kmalloc(CLASS_MAX, GFP_KERNEL);
		fill(p, CLASS_MAX, 9);
		CHECK(intact(p, CLASS_MAX, 9));
		kfree(p);
	}
	CHECK(kmalloc_outstanding() == base);
	return 0;
}

/* krealloc() up and down across every edge keeps the bytes it had. */
static int krealloc_across(void)
{
	static const size_t sizes[] = { 1, 16, 17, 32, 33, 4096, 4097, CLASS_MAX, CLASS_MAX + 1,
					1 << 17, CLASS_MAX + 1, CLASS_MAX, 17, 16, 1 };
	long base = kmalloc_outstanding();
	unsigned char *p = NULL;
	size_t had = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t keep = had < sizes[i] ? had : sizes[i];

		p = krealloc(p, sizes[i], GFP_KERNEL);
		CHECKF(p, "krealloc to %zu failed", sizes[i]);
		CHECKF(intact(p, keep, 5), "krealloc from %zu to %zu bytes lost its first %zu",
		       had, sizes[i], keep);
		fill(p, sizes[i], 5);
		had = sizes[i];
		CHECK(kmalloc_outstanding() == base + 1);
	}
	kfree(p);
	CHECK(kmalloc_outstanding() == base);
	return 0;
}

/*
 * More objects of one class than a thread keeps (512): kfree() hands
 * half a list to the shared depot, kmalloc() takes them back from it.
 * Twice over, each object filled and checked, the live count exact.
 */
#define DEPOT_OBJS	(3 * 512 + 7)

static int depot(void)
{
	static unsigned char *p[DEPOT_OBJS];
	long base = kmalloc_outstanding();
	unsigned int round, i;

	for (round = 0; round < 2; round++) {
		for (i = 0; i < DEPOT_OBJS; i++) {
			p[i] = kmalloc(64, GFP_KERNEL);
			CHECK(p[i]);
			fill(p[i], 64, i);
		}
		CHECK(kmalloc_outstanding() == base + DEPOT_OBJS);
		for (i = 0; i < DEPOT_OBJS; i++)
			CHECKF(intact(p[i], 64, i), "round %u: object %u changed", round, i);
		for (i = 0; i < DEPOT_OBJS; i++)
			kfree(p[i]);
		CHECKF(kmalloc_outstanding() == base, "round %u: %ld live, %ld before",
		       round, kmalloc_outstanding(), base);
	}
	return 0;
}

/*
 * Threads: one allocates objects of every class (and large ones) and
 * exits; this thread checks and frees them.  Another allocates and frees
 * on its own and exits with objects on its lists, which go back to the
 * depot.  The live count is exact after each.
 */
#define THREAD_OBJS	600

static unsigned char *handed[THREAD_OBJS];

static size_t thread_size(unsigned int i)
{
	return (size_t)1 << (i % 15);	/* 1 .. 16384 */
}

static void *allocate_all(void *arg __attribute__((unused)))
{
	unsigned int i;

	for (i = 0; i < THREAD_OBJS; i++) {
		handed[i] = kmalloc(thread_size(i), GFP_KERNEL);
		CHECK(handed[i]);
		fill(handed[i], thread_size(i), i);
	}
	return NULL;
}

static void *churn(void *arg __attribute__((unused)))
{
	unsigned char *p[THREAD_OBJS];
	unsigned int i;

	for (i = 0; i < THREAD_OBJS; i++) {
		p[i] = kmalloc(thread_size(i), GFP_KERNEL);
		CHECK(p[i]);
	}
	for (i = 0; i < THREAD_OBJS; i++)
		kfree(p[i]);
	return NULL;
}

static int threads(void)
{
	long base = kmalloc_outstanding();
	pthread_t t;
	unsigned int i;

	rig_thread_create(&t, allocate_all, NULL);
	pthread_join(t, NULL);
	CHECKF(kmalloc_outstanding() == base + THREAD_OBJS,
	       "%ld live once the thread that holds %u exited, %ld before",
	       kmalloc_outstanding(), THREAD_OBJS, base);
	for (i = 0; i < THREAD_OBJS; i++) {
		CHECKF(intact(handed[i], thread_size(i), i), "object %u changed", i);
		kfree(handed[i]);
	}
	CHECK(kmalloc_outstanding() == base);
	rig_thread_create(&t, churn, NULL);
	pthread_join(t, NULL);
	CHECKF(kmalloc_outstanding() == base, "%ld live after a thread freed all it took, %ld before",
	       kmalloc_outstanding(), base);
	/* What it left on its lists is anyone's now. */
	churn(NULL);
	CHECK(kmalloc_outstanding() == base);
	return 0;
}

static const struct rig_case cases[] = {
	RIG_CASE_ARG("boundary-16", boundary, 16),
	RIG_CASE_ARG("boundary-32", boundary, 32),
	RIG_CASE_ARG("boundary-64", boundary, 64),
	RIG_CASE_ARG("boundary-128", boundary, 128),
	RIG_CASE_ARG("boundary-256", boundary, 256),
	RIG_CASE_ARG("boundary-512", boundary, 512),
	RIG_CASE_ARG("boundary-1024", boundary, 1024),
	RIG_CASE_ARG("boundary-2048", boundary, 2048),
	RIG_CASE_ARG("boundary-4096", boundary, 4096),
	RIG_CASE_ARG("boundary-8192", boundary, 8192),
	RIG_CASE("size-0", size_zero),
	RIG_CASE("large-fast-path", large_fast_path),
	RIG_CASE("krealloc-across-classes", krealloc_across),
	RIG_CASE("depot", depot),
	RIG_CASE("threads", threads),
};

RIG_CASE_MAIN(cases, help)
