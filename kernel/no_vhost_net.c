// SPDX-License-Identifier: GPL-2.0
/*
 * Built without a kernel tree that has drivers/vhost/net.c (and the vhost
 * core): there is no vhost-net to open.
 */
#include <stdlib.h>
#include "kernel/vhost_net.h"

struct vhost_net_dev *vhost_net_open(size_t mem_bytes, int cpu,
				     const struct rig_packet_opts *wire,
				     const char **why)
{
	(void)mem_bytes, (void)cpu, (void)wire;
	*why = "the kernel's vhost-net is built only from a kernel tree that has it (make KSRC=/path/to/linux: drivers/vhost/net.c, vhost.c and test.c)";
	return NULL;
}

/* Unreachable: nothing can be opened. */
void vhost_net_close(struct vhost_net_dev *d)
{
	(void)d;
	abort();
}

struct vhost_core *vhost_net_core(struct vhost_net_dev *d)
{
	(void)d;
	abort();
}

int vhost_net_deliver(struct vhost_net_dev *d, const void *hdr, const void *frame,
		      unsigned int len)
{
	(void)d, (void)hdr, (void)frame, (void)len;
	abort();
}

long vhost_net_take(struct vhost_net_dev *d, void *buf, size_t len)
{
	(void)d, (void)buf, (void)len;
	abort();
}

int vhost_net_wire_fd(struct vhost_net_dev *d)
{
	(void)d;
	abort();
}

void vhost_net_stats(struct vhost_net_dev *d, struct rig_packet_stats *s)
{
	(void)d, (void)s;
	abort();
}

int vhost_net_socket_fd(struct vhost_net_dev *d)
{
	(void)d;
	abort();
}

int vhost_net_set_features(struct vhost_net_dev *d, uint64_t features, const char **what)
{
	(void)d, (void)features, (void)what;
	abort();
}

int vhost_net_backend(struct vhost_net_dev *d, unsigned int index, int fd,
		      const char **what)
{
	(void)d, (void)index, (void)fd, (void)what;
	abort();
}

int vhost_net_get_base(struct vhost_net_dev *d, unsigned int index, uint16_t *base,
		       const char **what)
{
	(void)d, (void)index, (void)base, (void)what;
	abort();
}

int vhost_net_set_base(struct vhost_net_dev *d, unsigned int index, uint16_t base,
		       const char **what)
{
	(void)d, (void)index, (void)base, (void)what;
	abort();
}
