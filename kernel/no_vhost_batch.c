// SPDX-License-Identifier: GPL-2.0
/*
 * Built from a tree whose vhost core has no in-order path (its
 * vhost_add_used_n() takes no nheads): there is no kernel/vhost_batch.c
 * device to open, and kernel/vhost_core.c says so.
 */
#include <stddef.h>
#include <stdlib.h>
#include "kernel/vhost_batch.h"

struct miscdevice *const rig_misc_vhost_batch_misc = NULL;

/* Unreachable: the device cannot be opened. */
int vhost_batch_serve(struct vhost_virtqueue *vq, bool weighed)
{
	(void)vq;
	(void)weighed;
	abort();
}
