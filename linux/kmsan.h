/* SPDX-License-Identifier: GPL-2.0 */
/*
 * No KMSAN in userspace: its hooks do nothing.  kmsan_handle_dma() takes a
 * page, offset, size and direction up to Linux 6.x and a physical address,
 * size and direction in 7.x; the hook discards its arguments unevaluated,
 * so either form compiles.
 */
#ifndef _LINUX_KMSAN_H
#define _LINUX_KMSAN_H

#include <linux/types.h>
#include <linux/dma-mapping.h>

#define kmsan_handle_dma(...)	do { } while (0)

#endif /* _LINUX_KMSAN_H */
