/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel fixed-width, endian-annotated and misc scalar types. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define __bitwise
#define __force

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int8_t __s8;
typedef int16_t __s16;
typedef int32_t __s32;
typedef int64_t __s64;

typedef __u16 __bitwise __le16;
typedef __u32 __bitwise __le32;
typedef __u64 __bitwise __le64;
typedef __u16 __bitwise __be16;
typedef __u32 __bitwise __be32;
typedef __u64 __bitwise __be64;

typedef unsigned int __bitwise gfp_t;
typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef size_t __kernel_size_t;

struct list_head {
	struct list_head *next, *prev;
};

#endif /* _LINUX_TYPES_H */
