/* SPDX-License-Identifier: GPL-2.0 */
/* The id a virtio driver matches a device on (Linux 7.x's own header). */
#ifndef _LINUX_DEVICE_ID_VIRTIO_H
#define _LINUX_DEVICE_ID_VIRTIO_H

#include <linux/types.h>

#define VIRTIO_DEV_ANY_ID	0xffffffff

struct virtio_device_id {
	__u32 device;
	__u32 vendor;
};

#endif /* _LINUX_DEVICE_ID_VIRTIO_H */
