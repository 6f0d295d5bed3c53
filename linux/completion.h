/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completions: a count of complete() calls.  Nothing in the rig sleeps on
 * one; the type exists because the kernel's virtio.h embeds it.
 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

#include <linux/compiler.h>

struct completion {
	unsigned int done;
};

static inline void init_completion(struct completion *x)
{
	WRITE_ONCE(x->done, 0);
}

static inline void complete(struct completion *x)
{
	__atomic_add_fetch(&x->done, 1, __ATOMIC_RELEASE);
}

static inline bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) != 0;
}

#endif /* _LINUX_COMPLETION_H */
