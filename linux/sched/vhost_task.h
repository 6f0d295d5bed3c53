/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vhost worker as a thread of this process (the kernel forks it from
 * the owner): it calls fn(arg) until stopped, sleeping while fn finds
 * nothing to do, until vhost_task_wake().  handle_kill would run on
 * SIGKILL, which nothing sends here.  linux/task.c.
 *
 * vhost_task_create() has changed across trees; a kernel tree's vhost.c
 * says which form it calls (kernel/ksrc-features.sh, through the wrapper
 * kernel/ksrc-shim-header.sh puts in front of this header):
 *   RIG_VHOST_TASK_CREATE_ARGS 4   (fn, handle_kill, arg, name): Linux
 *                                  6.11 on, and this rig's own default
 *   RIG_VHOST_TASK_CREATE_ARGS 3   (fn, arg, name): 6.5 to 6.10
 *   RIG_VHOST_TASK_CREATE_ERR_PTR  failure is an ERR_PTR() (vhost.c tests
 *                                  IS_ERR(vtsk)); without it, NULL
 * Linux 6.4's form (an int fn that loops itself, asking
 * vhost_task_should_stop()) is refused with an #error in linux/task.c.
 */
#ifndef _LINUX_SCHED_VHOST_TASK_H
#define _LINUX_SCHED_VHOST_TASK_H

#include <linux/types.h>

#ifndef RIG_VHOST_TASK_CREATE_ARGS
#define RIG_VHOST_TASK_CREATE_ARGS	4
#define RIG_VHOST_TASK_CREATE_ERR_PTR	1
#endif

struct vhost_task;

#if RIG_VHOST_TASK_CREATE_ARGS == 4
struct vhost_task *vhost_task_create(bool (*fn)(void *), void (*handle_kill)(void *),
				     void *arg, const char *name);
#else
struct vhost_task *vhost_task_create(bool (*fn)(void *), void *arg, const char *name);
#endif
void vhost_task_start(struct vhost_task *vtsk);
void vhost_task_stop(struct vhost_task *vtsk);
void vhost_task_wake(struct vhost_task *vtsk);

#endif /* _LINUX_SCHED_VHOST_TASK_H */
