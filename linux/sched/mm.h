/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address spaces: the process has one, rig_mm, which every task made here
 * shares (kthreads too: kthread_use_mm() only names it).  The counts are
 * kept so that a put without a get shows.
 */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H

#include <linux/sched.h>
#include <linux/atomic.h>
#include <linux/bug.h>

struct mm_struct {
	atomic_t mm_users;
	atomic_t mm_count;
};

extern struct mm_struct rig_mm;

static inline struct mm_struct *get_task_mm(struct task_struct *task)
{
	if (task->mm)
		atomic_inc(&task->mm->mm_users);
	return task->mm;
}

static inline void mmput(struct mm_struct *mm)
{
	WARN_ON(atomic_read(&mm->mm_users) <= 1);
	atomic_dec(&mm->mm_users);
}

static inline void mmgrab(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_count);
}

static inline void mmdrop(struct mm_struct *mm)
{
	WARN_ON(atomic_read(&mm->mm_count) <= 1);
	atomic_dec(&mm->mm_count);
}

#endif /* _LINUX_SCHED_MM_H */
