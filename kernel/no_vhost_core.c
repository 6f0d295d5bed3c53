// SPDX-License-Identifier: GPL-2.0
/*
 * Built without a kernel tree (or with one that lacks drivers/vhost/vhost.c
 * and test.c): there is no vhost core to open.
 */
#include <errno.h>
#include <stdlib.h>
#include "kernel/vhost_core.h"

struct vhost_core *vhost_core_open(enum vhost_core_device device, size_t mem_bytes,
				   int cpu, const char **why)
{
	(void)device;
	(void)mem_bytes;
	(void)cpu;
	*why = "the kernel's vhost core is built only from a kernel tree that has it (make KSRC=/path/to/linux: drivers/vhost/vhost.c and test.c)";
	return NULL;
}

/* Unreachable: nothing can be opened. */
void vhost_core_close(struct vhost_core *h)
{
	(void)h;
	abort();
}

struct vhost_dev *vhost_core_dev(struct vhost_core *h)
{
	(void)h;
	abort();
}

enum vhost_core_device vhost_core_which(struct vhost_core *h)
{
	(void)h;
	abort();
}

int vhost_core_serve(struct vhost_core *h)
{
	(void)h;
	abort();
}

int vhost_core_kick(struct vhost_core *h, unsigned int index)
{
	(void)h, (void)index;
	abort();
}

void vhost_core_flush(struct vhost_core *h)
{
	(void)h;
	abort();
}

uint64_t vhost_core_features(struct vhost_core *h)
{
	(void)h;
	abort();
}

void *vhost_core_alloc(struct vhost_core *h, size_t bytes)
{
	(void)h;
	(void)bytes;
	abort();
}

void *vhost_core_mem_end(struct vhost_core *h)
{
	(void)h;
	abort();
}

long vhost_core_ioctl(struct vhost_core *h, unsigned int cmd, void *arg, size_t size)
{
	(void)h, (void)cmd, (void)arg, (void)size;
	abort();
}

bool vhost_core_failed(struct vhost_core *h)
{
	(void)h;
	abort();
}

void vhost_core_guest(struct vhost_core *h, bool on)
{
	(void)h;
	(void)on;
	abort();
}

int vhost_core_start(struct vhost_core *h, uint64_t features, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what)
{
	(void)h, (void)features, (void)num, (void)desc, (void)avail, (void)used;
	(void)kick_fd, (void)call_fd, (void)what;
	abort();
}

int vhost_core_vring(struct vhost_core *h, unsigned int index, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what)
{
	(void)h, (void)index, (void)num, (void)desc, (void)avail, (void)used;
	(void)kick_fd, (void)call_fd, (void)what;
	abort();
}

int vhost_core_stop(struct vhost_core *h, uint16_t *last_avail, const char **what)
{
	(void)h, (void)last_avail, (void)what;
	abort();
}

int vhost_core_restart(struct vhost_core *h, uint16_t base, const char **what)
{
	(void)h, (void)base, (void)what;
	abort();
}

int vhost_core_set_batch(struct vhost_core *h, unsigned int size, const char **what)
{
	(void)h, (void)size, (void)what;
	abort();
}
