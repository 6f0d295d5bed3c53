/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vhost worker as a thread of this process (the kernel forks it from
 * the owner): it calls fn(arg) until stopped, sleeping while fn finds
 * nothing to do, until vhost_task_wake().  handle_kill would run on
 * SIGKILL, which nothing sends here.  linux/task.c.
 */
#ifndef _LINUX_SCHED_VHOST_TASK_H
#define _LINUX_SCHED_VHOST_TASK_H

#include <linux/types.h>

struct vhost_task;

struct vhost_task *vhost_task_create(bool (*fn)(void *), void (*handle_kill)(void *),
				     void *arg, const char *name);
void vhost_task_start(struct vhost_task *vtsk);
void vhost_task_stop(struct vhost_task *vtsk);
void vhost_task_wake(struct vhost_task *vtsk);

#endif /* _LINUX_SCHED_VHOST_TASK_H */
