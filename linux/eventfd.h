/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventfds: a struct eventfd_ctx is a real eventfd of this process (a
 * duplicate of the descriptor it was got from, so it outlives the
 * caller's close).  eventfd_signal() adds 1 to its count; a file got with
 * eventfd_fget() can be polled (vfs_poll()), and then a poller thread
 * turns each write to the eventfd into a wake-up of its wait queue with
 * EPOLLIN, as the kernel's eventfd_write() does.  linux/eventfd.c.
 *
 * eventfd_signal() took the count as a second argument up to 6.7; either
 * form is accepted, and the count is 1 in both.
 */
#ifndef _LINUX_EVENTFD_H
#define _LINUX_EVENTFD_H

#include <linux/types.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/wait.h>

struct eventfd_ctx;

struct eventfd_ctx *eventfd_ctx_fdget(int fd);
struct eventfd_ctx *eventfd_ctx_fileget(struct file *file);
void eventfd_ctx_put(struct eventfd_ctx *ctx);
struct file *eventfd_fget(int fd);
void rig_eventfd_signal(struct eventfd_ctx *ctx);
#define eventfd_signal(ctx, ...)	rig_eventfd_signal(ctx)

#endif /* _LINUX_EVENTFD_H */
