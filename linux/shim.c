// SPDX-License-Identifier: GPL-2.0
/*
 * The state behind the kernel shims: the "user" address window of
 * linux/uaccess.h.  (The allocator of linux/slab.h is linux/slab.c.)
 * Linked into every program.
 */
#include <linux/uaccess.h>

void *__user_addr_min, *__user_addr_max;
