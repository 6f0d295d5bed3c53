/* SPDX-License-Identifier: GPL-2.0 */
/* Preemption and migration: threads here are never pinned by these. */
#ifndef __LINUX_PREEMPT_H
#define __LINUX_PREEMPT_H

#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define migrate_disable()	barrier()
#define migrate_enable()	barrier()

#endif /* __LINUX_PREEMPT_H */
