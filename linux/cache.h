/* SPDX-License-Identifier: GPL-2.0 */
/* Cache lines: 64 bytes, as on x86-64 and arm64. */
#ifndef _LINUX_CACHE_H
#define _LINUX_CACHE_H

#define L1_CACHE_BYTES			64
#define SMP_CACHE_BYTES			L1_CACHE_BYTES
#define ____cacheline_aligned		__attribute__((aligned(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp	____cacheline_aligned
#define __read_mostly

#endif /* _LINUX_CACHE_H */
