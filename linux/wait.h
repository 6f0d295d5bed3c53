/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wait queues: a list of entries, each with the function a wake-up calls,
 * under a mutex.  __wake_up() calls every entry's function with the lock
 * held, as the kernel does with its spinlock; add_wait_queue() also tells
 * whoever waits on @waiters (linux/eventfd.c's poller) that the queue has
 * someone to wake now.
 */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <pthread.h>
#include <linux/types.h>
#include <linux/list.h>

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry,
				 unsigned int mode, int flags, void *key);

typedef struct wait_queue_entry {
	unsigned int flags;
	void *private;
	wait_queue_func_t func;
	struct list_head entry;
} wait_queue_entry_t;

typedef struct wait_queue_head {
	pthread_mutex_t lock;
	pthread_cond_t waiters;
	struct list_head head;
} wait_queue_head_t;

void init_waitqueue_head(struct wait_queue_head *wq_head);
void destroy_waitqueue_head(struct wait_queue_head *wq_head);
void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key);

static inline void init_waitqueue_func_entry(struct wait_queue_entry *wq_entry,
					     wait_queue_func_t func)
{
	wq_entry->flags = 0;
	wq_entry->private = NULL;
	wq_entry->func = func;
	INIT_LIST_HEAD(&wq_entry->entry);
}

/* Sleeping on a queue: the entry wakes the task that made it. */
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			     int sync, void *key);
struct task_struct *rig_current(void);
#define DEFINE_WAIT(name)						\
	struct wait_queue_entry name = {				\
		.private = rig_current(),				\
		.func = autoremove_wake_function,			\
		.entry = LIST_HEAD_INIT((name).entry),			\
	}
void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state);
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);

/* Sleep until @condition holds, rechecked after every wake-up of @wq. */
#define wait_event(wq, condition) do {					\
	DEFINE_WAIT(__wait);						\
	for (;;) {							\
		prepare_to_wait(&(wq), &__wait, TASK_UNINTERRUPTIBLE);	\
		if (condition)						\
			break;						\
		schedule();						\
	}								\
	finish_wait(&(wq), &__wait);					\
} while (0)

#define TASK_NORMAL			3
#define wake_up(wq)			__wake_up(wq, TASK_NORMAL, 1, NULL)
#define wake_up_interruptible_poll(wq, m) \
	__wake_up(wq, 1, 1, (void *)(uintptr_t)(m))

#endif /* _LINUX_WAIT_H */
