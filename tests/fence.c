// SPDX-License-Identifier: GPL-2.0
/* The kmalloc fence: see tests/fence.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/slab.h>

#include "harness/harness.h"
#include "tests/fence.h"

#define FENCE_BLOCKS	64
#define FENCE_SPAN	(4UL << 20)	/* reserved, unmapped, at fence_begin() */

struct fence_block {
	char *pages;		/* its own pages (the unmapped one after aside) */
	size_t len;		/* bytes of them */
	char *p;		/* what kmalloc() returned */
	size_t size;		/* what it asked for */
	bool live;
};

static struct {
	struct kmalloc_arena ka;
	char *top;		/* where the next block's pages go */
	size_t page;
	unsigned int n, live;	/* blocks made, and not freed */
	struct fence_block block[FENCE_BLOCKS];
	int report_fd;		/* stderr as it was (a case may capture it) */
	struct sigaction old_segv;
} fence;

static void *fence_alloc(struct kmalloc_arena *ka, size_t size)
{
	size_t n = (size + 15) & ~(size_t)15;
	size_t len = (n + fence.page - 1) & ~(fence.page - 1);
	struct fence_block *b = &fence.block[fence.n];

	if (fence.n == FENCE_BLOCKS ||
	    len + fence.page > (size_t)((char *)ka->end - fence.top))
		rig_die("kmalloc fence: full (%u blocks made, %zu bytes asked)",
			fence.n, size);
	if (mprotect(fence.top, len, PROT_READ | PROT_WRITE))
		rig_die("kmalloc fence: mprotect: %s", strerror(errno));
	b->pages = fence.top;
	b->len = len;
	b->p = n > fence.page ? b->pages : b->pages + len - n;
	b->size = size;
	b->live = true;
	fence.top += len + fence.page;
	fence.n++;
	fence.live++;
	return b->p;
}

/* The live block kmalloc() returned as @p, or stop: kfree() of a stranger. */
static struct fence_block *fence_block(const void *p)
{
	unsigned int i;

	for (i = 0; i < fence.n; i++)
		if (fence.block[i].p == p && fence.block[i].live)
			return &fence.block[i];
	rig_die("kmalloc fence: kfree(%p): no live block starts there", p);
}

static void fence_free(struct kmalloc_arena *ka __attribute__((unused)), void *p)
{
	struct fence_block *b = fence_block(p);

	if (mprotect(b->pages, b->len, PROT_NONE))
		rig_die("kmalloc fence: mprotect: %s", strerror(errno));
	b->live = false;
	fence.live--;
}

static void *fence_realloc(struct kmalloc_arena *ka, void *p, size_t size)
{
	size_t old = fence_block(p)->size;
	void *q = fence_alloc(ka, size);

	memcpy(q, p, old < size ? old : size);
	fence_free(ka, p);
	return q;
}

/* A fault: past a block or in a freed one says so; any other is not ours. */
static void fence_fault(int sig __attribute__((unused)), siginfo_t *si,
			void *uc __attribute__((unused)))
{
	char *a = si->si_addr, msg[256];
	unsigned int i;
	ssize_t w;
	int n = -1;

	for (i = 0; i < fence.n && n < 0; i++) {
		const struct fence_block *b = &fence.block[i];

		if (a < b->pages || a >= b->pages + b->len + fence.page)
			continue;
		if (!b->live)
			n = snprintf(msg, sizeof(msg), "kmalloc fence: an access at %p, byte %td of a %zu-byte block kfree()d before\n",
				     (void *)a, a - b->p, b->size);
		else
			n = snprintf(msg, sizeof(msg), "kmalloc fence: an access at %p, %td bytes past the end of a %zu-byte block at %p\n",
				     (void *)a, a - (b->p + b->size), b->size,
				     (void *)b->p);
	}
	if (n < 0) {
		/* The handler before ours takes it as the access is made again. */
		sigaction(SIGSEGV, &fence.old_segv, NULL);
		return;
	}
	w = write(fence.report_fd, msg, n);
	(void)w;	/* the case fails whether or not the words got out */
	_exit(RIG_EXIT_FAIL);
}

void fence_begin(void)
{
	struct sigaction sa = { .sa_sigaction = fence_fault, .sa_flags = SA_SIGINFO };
	void *base;

	fence.page = (size_t)sysconf(_SC_PAGESIZE);
	base = mmap(NULL, FENCE_SPAN, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		rig_die("kmalloc fence: mmap: %s", strerror(errno));
	fence.ka.start = base;
	fence.ka.end = (char *)base + FENCE_SPAN;
	fence.ka.alloc = fence_alloc;
	fence.ka.realloc = fence_realloc;
	fence.ka.free = fence_free;
	fence.top = base;
	fence.n = fence.live = 0;
	fence.report_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
	CHECK(fence.report_fd >= 0);
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGSEGV, &sa, &fence.old_segv) == 0);
	__kmalloc_arena = &fence.ka;
}

void fence_end(void)
{
	__kmalloc_arena = NULL;
	CHECKF(!fence.live, "kmalloc fence: %u of %u blocks still allocated",
	       fence.live, fence.n);
	CHECK(sigaction(SIGSEGV, &fence.old_segv, NULL) == 0);
	close(fence.report_fd);
	munmap(fence.ka.start, FENCE_SPAN);
}
