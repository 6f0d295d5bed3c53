/* SPDX-License-Identifier: GPL-2.0 */
/* Device ids drivers match on; the rig's devices only need virtio's. */
#ifndef _LINUX_MOD_DEVICETABLE_H
#define _LINUX_MOD_DEVICETABLE_H

#include <linux/device-id/virtio.h>

#endif /* _LINUX_MOD_DEVICETABLE_H */
