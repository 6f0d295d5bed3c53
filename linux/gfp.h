/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

#include <linux/types.h>

#define __GFP_ZERO	((__force gfp_t)0x100u)
#define __GFP_NOWARN	((__force gfp_t)0x200u)
#define __GFP_HIGHMEM	((__force gfp_t)0x02u)
#define GFP_ATOMIC	((__force gfp_t)0x20u)
#define GFP_KERNEL	((__force gfp_t)0xccu)
#define GFP_KERNEL_ACCOUNT GFP_KERNEL
#define GFP_NOWAIT	((__force gfp_t)0x800u)

#endif /* _LINUX_GFP_H */
