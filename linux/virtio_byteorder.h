/* SPDX-License-Identifier: GPL-2.0 */
/* Ring field conversion: little endian for VERSION_1, native for legacy. */
#ifndef _LINUX_VIRTIO_BYTEORDER_H
#define _LINUX_VIRTIO_BYTEORDER_H

#include <linux/types.h>
#include <linux/virtio_types.h>
#include <linux/byteorder.h>

static inline bool virtio_legacy_is_little_endian(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

static inline u16 __virtio16_to_cpu(bool little_endian, __virtio16 val)
{
	return little_endian ? le16_to_cpu((__force __le16)val) : (__force u16)val;
}

static inline __virtio16 __cpu_to_virtio16(bool little_endian, u16 val)
{
	return little_endian ? (__force __virtio16)cpu_to_le16(val) : (__force __virtio16)val;
}

static inline u32 __virtio32_to_cpu(bool little_endian, __virtio32 val)
{
	return little_endian ? le32_to_cpu((__force __le32)val) : (__force u32)val;
}

static inline __virtio32 __cpu_to_virtio32(bool little_endian, u32 val)
{
	return little_endian ? (__force __virtio32)cpu_to_le32(val) : (__force __virtio32)val;
}

static inline u64 __virtio64_to_cpu(bool little_endian, __virtio64 val)
{
	return little_endian ? le64_to_cpu((__force __le64)val) : (__force u64)val;
}

static inline __virtio64 __cpu_to_virtio64(bool little_endian, u64 val)
{
	return little_endian ? (__force __virtio64)cpu_to_le64(val) : (__force __virtio64)val;
}

#endif /* _LINUX_VIRTIO_BYTEORDER_H */
