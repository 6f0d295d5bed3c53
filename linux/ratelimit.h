/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate limiting is off in userspace: every hostile-ring message prints, so a
 * test that provokes an error can see it (the upstream rig silenced them).
 */
#ifndef _LINUX_RATELIMIT_H
#define _LINUX_RATELIMIT_H

#include <linux/types.h>

/* The kernel's defaults (5 s at HZ=100, 10 messages); never enforced here. */
#define DEFAULT_RATELIMIT_INTERVAL	500
#define DEFAULT_RATELIMIT_BURST		10

struct ratelimit_state {
	int interval, burst;
};

#define DEFINE_RATELIMIT_STATE(name, interval_init, burst_init) \
	struct ratelimit_state name = { interval_init, burst_init }

#define __ratelimit(state)	({ (void)(state); 1; })
#define printk_ratelimit()	1

#endif /* _LINUX_RATELIMIT_H */
