/* SPDX-License-Identifier: GPL-2.0 */
/* Ring fields: little endian (VERSION_1) or guest-native (legacy). */
#ifndef _LINUX_VIRTIO_TYPES_H
#define _LINUX_VIRTIO_TYPES_H

#include <linux/types.h>

typedef __u16 __bitwise __virtio16;
typedef __u32 __bitwise __virtio32;
typedef __u64 __bitwise __virtio64;

#endif /* _LINUX_VIRTIO_TYPES_H */
