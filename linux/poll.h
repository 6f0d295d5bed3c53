/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Polling a file: vfs_poll() asks the file's ->poll what is ready now and
 * lets the poll table's queueing function put an entry on each wait queue
 * the file would wake.  Only eventfds are polled here (linux/eventfd.c).
 */
#ifndef _LINUX_POLL_H
#define _LINUX_POLL_H

#include <poll.h>
#include <linux/types.h>
#include <linux/wait.h>
/* The kernel's reaches it through linux/fs.h; vhost.h relies on it. */
#include <linux/sched.h>

typedef unsigned int __poll_t;

#define EPOLLIN		((__force __poll_t)0x00000001)
#define EPOLLPRI	((__force __poll_t)0x00000002)
#define EPOLLOUT	((__force __poll_t)0x00000004)
#define EPOLLERR	((__force __poll_t)0x00000008)
#define EPOLLHUP	((__force __poll_t)0x00000010)
#define EPOLLRDNORM	((__force __poll_t)0x00000040)

struct file;
struct poll_table_struct;
typedef void (*poll_queue_proc)(struct file *, wait_queue_head_t *,
				struct poll_table_struct *);

typedef struct poll_table_struct {
	poll_queue_proc _qproc;
	__poll_t _key;
} poll_table;

static inline void init_poll_funcptr(poll_table *pt, poll_queue_proc qproc)
{
	pt->_qproc = qproc;
	pt->_key = ~(__poll_t)0;
}

static inline void poll_wait(struct file *filp, wait_queue_head_t *wait_address,
			     poll_table *p)
{
	if (p && p->_qproc && wait_address)
		p->_qproc(filp, wait_address, p);
}

#define key_to_poll(key)	((__force __poll_t)(uintptr_t)(key))
#define poll_to_key(m)		((void *)(uintptr_t)(m))

__poll_t vfs_poll(struct file *file, struct poll_table_struct *pt);

#endif /* _LINUX_POLL_H */
