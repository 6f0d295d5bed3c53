/* SPDX-License-Identifier: GPL-2.0 */
/* The scheduler's clock: CLOCK_MONOTONIC, in nanoseconds. */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H

#include <time.h>
#include <linux/types.h>

static inline u64 local_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

#endif /* _LINUX_SCHED_CLOCK_H */
