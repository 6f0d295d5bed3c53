/* SPDX-License-Identifier: GPL-2.0 */
/* Signals: nothing in the rig sends a task one. */
#ifndef _LINUX_SCHED_SIGNAL_H
#define _LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

#define signal_pending(tsk)	((void)(tsk), false)

#endif /* _LINUX_SCHED_SIGNAL_H */
