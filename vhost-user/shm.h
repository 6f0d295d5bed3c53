/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's memory that a device in another process can see: an
 * allocator over one shared region, hooked under kmalloc() (see
 * struct kmalloc_arena in linux/slab.h).  While attached, everything the
 * ring code allocates (rings, indirect tables, its own bookkeeping) lands
 * in the region; a program takes its buffers from the same allocator.
 *
 * Small blocks (up to 2 KiB) come from power-of-2 free lists, so the
 * indirect table of every add costs a list pop; bigger ones are whole,
 * page-aligned pages (what alloc_pages_exact() promises ring code).
 */
#ifndef RIG_VHOST_USER_SHM_H
#define RIG_VHOST_USER_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/slab.h>

#define SHM_ARENA_CLASSES	8	/* 16 .. 2048 bytes */
#define SHM_ARENA_LARGE		256	/* most live blocks above 2 KiB */

struct shm_arena {
	struct kmalloc_arena ka;
	char *base, *top, *end;
	void *free[SHM_ARENA_CLASSES];
	struct {
		char *p;
		size_t size;
		bool used;
	} large[SHM_ARENA_LARGE];
	unsigned int nlarge;
	size_t in_use, peak;	/* bytes handed out */
};

void shm_arena_init(struct shm_arena *a, void *base, size_t size);
/* Make kmalloc() in this thread use @a (NULL: malloc again). */
void shm_arena_attach(struct shm_arena *a);
/* NULL when the region is full. */
void *shm_arena_alloc(struct shm_arena *a, size_t size);
void shm_arena_free(struct shm_arena *a, void *p);

#endif /* RIG_VHOST_USER_SHM_H */
