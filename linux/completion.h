/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completions: a count of complete() calls, which wait_for_completion()
 * sleeps on (a futex on the count, linux/completion.c).  The kernel's virtio.h
 * embeds one; the vhost core waits on them to flush its worker.
 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

#include <linux/types.h>
#include <linux/compiler.h>

struct completion {
	unsigned int done;
};

static inline void init_completion(struct completion *x)
{
	WRITE_ONCE(x->done, 0);
}

void __complete_wake(struct completion *x);
void wait_for_completion(struct completion *x);

static inline void complete(struct completion *x)
{
	__atomic_add_fetch(&x->done, 1, __ATOMIC_RELEASE);
	__complete_wake(x);
}

static inline bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) != 0;
}

#endif /* _LINUX_COMPLETION_H */
