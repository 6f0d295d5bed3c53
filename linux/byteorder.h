/* SPDX-License-Identifier: GPL-2.0 */
/* cpu <-> little/big endian conversions. */
#ifndef _LINUX_BYTEORDER_H
#define _LINUX_BYTEORDER_H

#include <linux/types.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define cpu_to_le16(x)	((__force __le16)(u16)(x))
#define cpu_to_le32(x)	((__force __le32)(u32)(x))
#define cpu_to_le64(x)	((__force __le64)(u64)(x))
#define le16_to_cpu(x)	((__force u16)(__le16)(x))
#define le32_to_cpu(x)	((__force u32)(__le32)(x))
#define le64_to_cpu(x)	((__force u64)(__le64)(x))
#define cpu_to_be16(x)	((__force __be16)__builtin_bswap16(x))
#define cpu_to_be32(x)	((__force __be32)__builtin_bswap32(x))
#define cpu_to_be64(x)	((__force __be64)__builtin_bswap64(x))
#else
#define cpu_to_le16(x)	((__force __le16)__builtin_bswap16(x))
#define cpu_to_le32(x)	((__force __le32)__builtin_bswap32(x))
#define cpu_to_le64(x)	((__force __le64)__builtin_bswap64(x))
#define le16_to_cpu(x)	__builtin_bswap16((__force u16)(x))
#define le32_to_cpu(x)	__builtin_bswap32((__force u32)(x))
#define le64_to_cpu(x)	__builtin_bswap64((__force u64)(x))
#define cpu_to_be16(x)	((__force __be16)(u16)(x))
#define cpu_to_be32(x)	((__force __be32)(u32)(x))
#define cpu_to_be64(x)	((__force __be64)(u64)(x))
#endif

#endif /* _LINUX_BYTEORDER_H */
