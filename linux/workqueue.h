/* SPDX-License-Identifier: GPL-2.0 */
/* Work queues: the vhost core has its own worker (linux/sched/vhost_task.h). */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

#endif /* _LINUX_WORKQUEUE_H */
