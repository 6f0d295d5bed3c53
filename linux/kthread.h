/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel threads as threads of this process: kthread_create() makes one
 * asleep, wake_up_process() starts it, kthread_stop() asks it to stop
 * (kthread_should_stop()), wakes it and waits for its result.
 * linux/task.c.
 */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <linux/sched.h>
#include <linux/compiler.h>

__printf(3, 4)
struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...);
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);
void kthread_use_mm(struct mm_struct *mm);
void kthread_unuse_mm(struct mm_struct *mm);

#endif /* _LINUX_KTHREAD_H */
