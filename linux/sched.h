/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tasks: every thread that runs kernel code has a struct task_struct
 * (current), made when it first asks.  A task sleeps in schedule() until
 * wake_up_process() makes it TASK_RUNNING again, with the kernel's rule: a
 * task that set itself TASK_INTERRUPTIBLE and is woken before it calls
 * schedule() does not sleep.  Signals are never pending; the whole process
 * is one mm (linux/sched/mm.h).  linux/task.c.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <pthread.h>
#include <linux/types.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kcov.h>
#include <linux/preempt.h>

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_COMM_LEN		16

struct mm_struct;

struct task_struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int state;			/* under lock */
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;
	/* kthreads and vhost tasks: what the thread runs, and its end */
	int (*threadfn)(void *data);
	void *data;
	int result;
	bool should_stop;
	bool made_here;			/* a thread this shim started */
};

struct task_struct *rig_current(void);
#define current			rig_current()

void __set_task_state(struct task_struct *tsk, int state);
#define set_current_state(s)	__set_task_state(current, (s))
#define __set_current_state(s)	__set_task_state(current, (s))
void schedule(void);
int wake_up_process(struct task_struct *tsk);

/*
 * Rig extension: the CPU every thread the shims start from now on (kthreads,
 * vhost tasks, an eventfd's poller) is pinned to, or -1 for wherever the
 * starting thread may run (the default).  rig_thread_start() starts one.
 */
void rig_task_cpu(int cpu);
int rig_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

#define cond_resched()		do { } while (0)
#define need_resched()		false

#endif /* _LINUX_SCHED_H */
