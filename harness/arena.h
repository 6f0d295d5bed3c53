/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kmalloc arena: an allocator over one region of memory the device can
 * see (shared memory mapped twice, or shared with another process), hooked
 * under kmalloc() (struct kmalloc_arena in linux/slab.h).  While a thread
 * has an arena attached, everything the ring code allocates there (rings,
 * indirect tables with whatever the ring code keeps beside them, its own
 * bookkeeping) lands in the region, each block as big as the ring code
 * asked for; kfree() of a block gives it back.
 *
 * Every block is followed by a guard of RIG_ARENA_GUARD bytes, checked
 * when the block is freed or reallocated: ring code that writes past what
 * it asked for stops the program with a message naming the block, instead
 * of corrupting the next one.  A full region stops the program too (a
 * test sized it too small): a NULL would make the ring code quietly take
 * another path (direct descriptors instead of an indirect table).
 *
 * Small blocks (up to 2 KiB with the guard) come from power-of-2 free
 * lists, so an indirect table costs a list pop; bigger ones are whole,
 * page-aligned pages (what alloc_pages_exact() promises ring code).
 */
#ifndef RIG_HARNESS_ARENA_H
#define RIG_HARNESS_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/slab.h>

#define RIG_ARENA_CLASSES	8	/* 16 .. 2048 bytes */
#define RIG_ARENA_LARGE		256	/* most live blocks above 2 KiB */
#define RIG_ARENA_GUARD		16	/* bytes after every block */

struct rig_arena {
	struct kmalloc_arena ka;
	const char *name;		/* in messages */
	char *base, *top, *end;
	void *free[RIG_ARENA_CLASSES];
	struct {
		char *p;
		size_t size;		/* pages taken */
		size_t asked;		/* bytes asked for */
		bool used;
	} large[RIG_ARENA_LARGE];
	unsigned int nlarge;
	size_t in_use, peak;		/* bytes handed out */
};

/* An arena over [@base, @base + @size), named @name in messages. */
void rig_arena_init(struct rig_arena *a, const char *name, void *base,
		    size_t size);
/* Make kmalloc() in this thread use @a (NULL: its own caches again). */
void rig_arena_attach(struct rig_arena *a);
/* A block of @size bytes, or NULL if the region is full. */
void *rig_arena_alloc(struct rig_arena *a, size_t size);
void rig_arena_free(struct rig_arena *a, void *p);

#endif /* RIG_HARNESS_ARENA_H */
