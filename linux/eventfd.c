// SPDX-License-Identifier: GPL-2.0
/*
 * eventfds and their files for kernel code (linux/eventfd.h, linux/file.h,
 * linux/poll.h).
 *
 * A context holds a duplicate of the eventfd's descriptor.  The first
 * vfs_poll() of its file starts the context's poller, a thread that waits
 * (poll(2)) for the eventfd to become readable while its wait queue has an
 * entry, reads the count (so one wake-up stands for every write since the
 * last) and wakes the queue with EPOLLIN; while the queue is empty it
 * leaves the count alone.  What it read is kept in @count: in the kernel
 * nothing reads a kick eventfd, so its count only grows and vfs_poll()
 * says EPOLLIN ever after the first write (vhost relies on that: starting
 * to poll again after a stop always runs the handler once); here too.
 * The last reference stops the poller (through a second eventfd) and
 * closes the duplicate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <linux/err.h>
#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

struct eventfd_ctx {
	int refs;		/* atomic */
	int fd;			/* our duplicate */
	int stop_fd;		/* the poller's stop signal; -1 until it runs */
	bool stopping;		/* under wqh.lock */
	u64 count;		/* under wqh.lock: what the poller read */
	pthread_t poller;
	wait_queue_head_t wqh;
};

/* Is @fd an eventfd?  Its /proc/self/fd link names it. */
static bool is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:[eventfd]");
}

struct eventfd_ctx *eventfd_ctx_fdget(int fd)
{
	struct eventfd_ctx *ctx;

	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return ERR_PTR(-EBADF);
	if (!is_eventfd(fd))
		return ERR_PTR(-EINVAL);
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (ctx->fd < 0) {
		kfree(ctx);
		return ERR_PTR(-EMFILE);
	}
	ctx->refs = 1;
	ctx->stop_fd = -1;
	init_waitqueue_head(&ctx->wqh);
	return ctx;
}

void eventfd_ctx_put(struct eventfd_ctx *ctx)
{
	uint64_t one = 1;

	if (__atomic_sub_fetch(&ctx->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (ctx->stop_fd >= 0) {
		pthread_mutex_lock(&ctx->wqh.lock);
		ctx->stopping = true;
		pthread_cond_broadcast(&ctx->wqh.waiters);
		pthread_mutex_unlock(&ctx->wqh.lock);
		if (write(ctx->stop_fd, &one, sizeof(one)) != sizeof(one))
			perror("eventfd_ctx_put: waking the poller");
		pthread_join(ctx->poller, NULL);
		close(ctx->stop_fd);
	}
	close(ctx->fd);
	destroy_waitqueue_head(&ctx->wqh);
	kfree(ctx);
}

void rig_eventfd_signal(struct eventfd_ctx *ctx)
{
	uint64_t one = 1;

	/* Only an eventfd at its maximum count refuses; the kernel waits. */
	while (write(ctx->fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

static void *poller(void *arg)
{
	struct eventfd_ctx *ctx = arg;
	struct pollfd pfd[2] = {
		{ .fd = ctx->fd, .events = POLLIN },
		{ .fd = ctx->stop_fd, .events = POLLIN },
	};

	for (;;) {
		uint64_t count;

		pthread_mutex_lock(&ctx->wqh.lock);
		while (!ctx->stopping && list_empty(&ctx->wqh.head))
			pthread_cond_wait(&ctx->wqh.waiters, &ctx->wqh.lock);
		pthread_mutex_unlock(&ctx->wqh.lock);

		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			perror("eventfd poller: poll");
			abort();
		}
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		pthread_mutex_lock(&ctx->wqh.lock);
		if (list_empty(&ctx->wqh.head)) {
			/* Nobody to wake: leave the count for vfs_poll(). */
			pthread_mutex_unlock(&ctx->wqh.lock);
			continue;
		}
		if (read(ctx->fd, &count, sizeof(count)) == sizeof(count)) {
			struct wait_queue_entry *e, *next;

			ctx->count += count;
			list_for_each_entry_safe(e, next, &ctx->wqh.head, entry)
				e->func(e, 1, 0, poll_to_key(EPOLLIN));
		}
		pthread_mutex_unlock(&ctx->wqh.lock);
	}
	return NULL;
}

/* The eventfd's ->poll: queue the table's entry, say whether it is readable. */
static __poll_t eventfd_poll(struct file *file, struct poll_table_struct *pt)
{
	struct eventfd_ctx *ctx = file->eventfd;
	struct pollfd pfd = { .fd = ctx->fd, .events = POLLIN };
	__poll_t mask = 0;

	if (ctx->stop_fd < 0) {
		ctx->stop_fd = eventfd(0, EFD_CLOEXEC);
		if (ctx->stop_fd < 0 ||
		    rig_thread_start(&ctx->poller, poller, ctx)) {
			perror("eventfd_poll: starting the poller");
			if (ctx->stop_fd >= 0)
				close(ctx->stop_fd);
			ctx->stop_fd = -1;
			return EPOLLERR;
		}
	}
	poll_wait(file, &ctx->wqh, pt);
	pthread_mutex_lock(&ctx->wqh.lock);
	if (ctx->count)
		mask |= EPOLLIN;
	pthread_mutex_unlock(&ctx->wqh.lock);
	if (poll(&pfd, 1, 0) > 0) {
		if (pfd.revents & POLLIN)
			mask |= EPOLLIN;
		if (pfd.revents & (POLLERR | POLLNVAL))
			mask |= EPOLLERR;
	}
	return mask;
}

static int eventfd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	eventfd_ctx_put(file->eventfd);
	return 0;
}

static const struct file_operations eventfd_fops = {
	.poll = eventfd_poll,
	.release = eventfd_release,
};

struct file *eventfd_fget(int fd)
{
	struct eventfd_ctx *ctx = eventfd_ctx_fdget(fd);
	struct file *file;

	if (IS_ERR(ctx))
		return ERR_CAST(ctx);
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		eventfd_ctx_put(ctx);
		return ERR_PTR(-ENOMEM);
	}
	file->f_count = 1;
	file->f_op = &eventfd_fops;
	file->eventfd = ctx;
	return file;
}

struct eventfd_ctx *eventfd_ctx_fileget(struct file *file)
{
	if (file->f_op != &eventfd_fops)
		return ERR_PTR(-EINVAL);
	__atomic_add_fetch(&file->eventfd->refs, 1, __ATOMIC_RELAXED);
	return file->eventfd;
}

__poll_t vfs_poll(struct file *file, struct poll_table_struct *pt)
{
	if (!file->f_op->poll)
		return EPOLLIN | EPOLLOUT | EPOLLRDNORM;
	return file->f_op->poll(file, pt);
}

void fput(struct file *file)
{
	if (__atomic_sub_fetch(&file->f_count, 1, __ATOMIC_ACQ_REL))
		return;
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	kfree(file);
}

long long noop_llseek(struct file *file, long long offset, int whence)
{
	(void)whence;
	(void)file;
	return offset;
}

long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!file->f_op->unlocked_ioctl)
		return -ENOIOCTLCMD;
	return file->f_op->unlocked_ioctl(file, cmd, arg);
}
