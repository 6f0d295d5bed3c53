/* SPDX-License-Identifier: GPL-2.0 */
/* The grab-bag the kernel's <linux/kernel.h> provides, userspace edition. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <limits.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/container_of.h>
#include <asm/barrier.h>

#define ARRAY_SIZE(x)		(sizeof(x) / sizeof((x)[0]))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define PTR_ALIGN(p, a)		((typeof(p))ALIGN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define SIZE_MAX_		((size_t)~(size_t)0)

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x)		ALIGN((unsigned long)(x), PAGE_SIZE)

#define CONFIG_SMP		1

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#define might_sleep()		do { } while (0)
#define cpu_relax()		barrier()

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#endif /* _LINUX_KERNEL_H */
