/* SPDX-License-Identifier: GPL-2.0 */
/* Device ids drivers match on; the rig's devices only need virtio's. */
#ifndef _LINUX_MOD_DEVICETABLE_H
#define _LINUX_MOD_DEVICETABLE_H

#include <linux/types.h>

#define VIRTIO_DEV_ANY_ID	0xffffffff

struct virtio_device_id {
	__u32 device;
	__u32 vendor;
};

#endif /* _LINUX_MOD_DEVICETABLE_H */
