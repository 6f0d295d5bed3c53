// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace's side of the kernel's vhost-net: what tools/virtio's
 * vhost_net_test does with /dev/vhost-net, through the device's file
 * operations (kernel/vhost_net.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/slab.h>
#include <linux/vhost.h>

#include "kernel/vhost_core.h"
#include "kernel/vhost_net.h"

/* net.c's module_init(vhost_net_init) (linux/module.h). */
extern int (*const __rig_module_init_vhost_net_init)(void);

struct vhost_net_dev {
	struct vhost_core *core;
	struct rig_packet *wire;
	int sock_fd;
	bool socket_hdr;	/* the socket carries the virtio-net header */
};

static int load_err;

/* "modprobe vhost_net": its init registers /dev/vhost-net. */
static void load_module(void)
{
	load_err = __rig_module_init_vhost_net_init();
}

struct vhost_net_dev *vhost_net_open(size_t mem_bytes, int cpu,
				     const struct rig_packet_opts *wire,
				     const char **why)
{
	static pthread_once_t loaded = PTHREAD_ONCE_INIT;
	struct vhost_net_dev *d;
	struct miscdevice *misc;

	pthread_once(&loaded, load_module);
	misc = rig_misc_find("vhost-net");
	if (load_err || !misc) {
		*why = "vhost-net's module init did not register /dev/vhost-net";
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		*why = "out of memory";
		return NULL;
	}
	d->socket_hdr = wire->vnet_hdr;
	d->wire = rig_packet_open(wire, &d->sock_fd);
	if (!d->wire) {
		*why = "cannot make the packet socket";
		goto fail;
	}
	d->core = vhost_core_open_misc(misc, mem_bytes, cpu, why);
	if (!d->core) {
		rig_packet_close(d->wire);
		goto fail;
	}
	return d;
fail:
	free(d);
	return NULL;
}

void vhost_net_close(struct vhost_net_dev *d)
{
	vhost_core_close(d->core);
	rig_packet_close(d->wire);
	free(d);
}

struct vhost_core *vhost_net_core(struct vhost_net_dev *d)
{
	return d->core;
}

int vhost_net_socket_fd(struct vhost_net_dev *d)
{
	return d->sock_fd;
}

/*
 * The socket's frames are the kernel's memory, never the guest's: with
 * the driver's allocations going to guest memory in this thread
 * (vhost_core_guest()), the socket's go to the kernel's own meanwhile.
 */
int vhost_net_deliver(struct vhost_net_dev *d, const void *hdr, const void *frame,
		      unsigned int len)
{
	struct kmalloc_arena *guest = __kmalloc_arena;
	int r;

	__kmalloc_arena = NULL;
	r = rig_packet_deliver(d->wire, hdr, frame, len);
	__kmalloc_arena = guest;
	return r;
}

long vhost_net_take(struct vhost_net_dev *d, void *buf, size_t len)
{
	struct kmalloc_arena *guest = __kmalloc_arena;
	long r;

	__kmalloc_arena = NULL;
	r = rig_packet_take(d->wire, buf, len);
	__kmalloc_arena = guest;
	return r;
}

int vhost_net_wire_fd(struct vhost_net_dev *d)
{
	return rig_packet_sink_fd(d->wire);
}

void vhost_net_stats(struct vhost_net_dev *d, struct rig_packet_stats *s)
{
	rig_packet_stats(d->wire, s);
}

/* Run an ioctl; on failure say which and return -errno. */
#define NET_IOCTL(d, cmd, arg, what) ({					\
	long __r = vhost_core_ioctl((d)->core, cmd, arg, sizeof(*(arg)));	\
	if (__r)							\
		*(what) = #cmd;						\
	(int)__r;							\
})

int vhost_net_set_features(struct vhost_net_dev *d, uint64_t features, const char **what)
{
	if (!d->socket_hdr)
		features |= 1ULL << VHOST_NET_F_VIRTIO_NET_HDR;
	return NET_IOCTL(d, VHOST_SET_FEATURES, &features, what);
}

int vhost_net_backend(struct vhost_net_dev *d, unsigned int index, int fd,
		      const char **what)
{
	struct vhost_vring_file backend = { .index = index, .fd = fd };

	return NET_IOCTL(d, VHOST_NET_SET_BACKEND, &backend, what);
}

int vhost_net_get_base(struct vhost_net_dev *d, unsigned int index, uint16_t *base,
		       const char **what)
{
	struct vhost_vring_state s = { .index = index };
	int r = NET_IOCTL(d, VHOST_GET_VRING_BASE, &s, what);

	*base = s.num;
	return r;
}

int vhost_net_set_base(struct vhost_net_dev *d, unsigned int index, uint16_t base,
		       const char **what)
{
	struct vhost_vring_state s = { .index = index, .num = base };

	return NET_IOCTL(d, VHOST_SET_VRING_BASE, &s, what);
}
