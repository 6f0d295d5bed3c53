// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace's side of the kernel's vhost test device: what
 * tools/virtio/virtio_test does with /dev/vhost-test, done through the
 * device's file operations (kernel/vhost_core.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include <linux/kernel.h>
#include <linux/file.h>
#include <linux/miscdevice.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vhost.h>
#include "test.h"		/* the tree's drivers/vhost/test.h */

#include "kernel/vhost_batch.h"
#include "kernel/vhost_core.h"
#include "harness/arena.h"

/* Named by test.c's module_misc_device() (linux/miscdevice.h). */
extern struct miscdevice *const rig_misc_vhost_test_misc;

/* The ioctl argument page: a memory table of this many regions fits. */
#define ARG_BYTES	PAGE_SIZE

struct vhost_core {
	enum vhost_core_device device;
	struct file *file;
	struct inode inode;
	char *map;		/* the argument page, then guest memory */
	size_t map_bytes;
	char *arg;
	char *mem;
	size_t mem_bytes;
	struct rig_arena arena;
	int err_fd;		/* VHOST_SET_VRING_ERR: vq_err() signals it */
	uint64_t features;
};

/*
 * One ioctl on the device, its argument copied through the argument page
 * (the device's copy_from_user() reaches only the "user" window).  The
 * device's own allocations come from malloc, never from the guest's arena.
 */
static long core_ioctl(struct vhost_core *h, unsigned int cmd, void *arg, size_t size)
{
	struct kmalloc_arena *guest = __kmalloc_arena;
	long r;

	if (size > ARG_BYTES)
		return -E2BIG;
	if (size)
		memcpy(h->arg, arg, size);
	__kmalloc_arena = NULL;
	r = h->file->f_op->unlocked_ioctl(h->file, cmd, size ? (unsigned long)h->arg : 0);
	__kmalloc_arena = guest;
	if (size && (_IOC_DIR(cmd) & _IOC_READ))
		memcpy(arg, h->arg, size);
	return r;
}

/* Run an ioctl; on failure say which and return -errno. */
#define CORE_IOCTL(h, cmd, arg, what) ({				\
	long __r = core_ioctl(h, cmd, arg, sizeof(*(arg)));		\
	if (__r)							\
		*(what) = #cmd;						\
	(int)__r;							\
})

struct vhost_core *vhost_core_open(enum vhost_core_device device, size_t mem_bytes,
				   int cpu, const char **why)
{
	const struct miscdevice *misc = device == VHOST_CORE_BATCH ?
		rig_misc_vhost_batch_misc : rig_misc_vhost_test_misc;
	struct vhost_core *h;

	if (!misc) {
		/* kernel/ksrc-build.mk built kernel/no_vhost_batch.c. */
		*why = "the tree's vhost core has no in-order path: its drivers/vhost/vhost.h declares vhost_add_used_n() without nheads (kernel/ksrc-features.sh), so the rig's in-order device kernel/vhost_batch.c is not built";
		return NULL;
	}
	h = vhost_core_open_misc(misc, mem_bytes, cpu, why);
	if (h)
		h->device = device;
	return h;
}

struct vhost_core *vhost_core_open_misc(const struct miscdevice *misc, size_t mem_bytes,
					int cpu, const char **why)
{
	size_t table_bytes = sizeof(struct vhost_memory) + sizeof(struct vhost_memory_region);
	struct vhost_memory *table;
	struct vhost_core *h;
	long r;

	h = calloc(1, sizeof(*h));
	if (!h) {
		*why = "out of memory";
		return NULL;
	}
	h->err_fd = -1;
	h->mem_bytes = PAGE_ALIGN(mem_bytes);
	h->map_bytes = ARG_BYTES + h->mem_bytes;
	h->map = mmap(NULL, h->map_bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h->map == MAP_FAILED) {
		*why = "cannot map the guest's memory";
		goto fail_map;
	}
	h->arg = h->map;
	h->mem = h->map + ARG_BYTES;
	rig_arena_init(&h->arena, "vhost core guest memory", h->mem, h->mem_bytes);
	__user_addr_min = h->map;
	__user_addr_max = h->map + h->map_bytes;

	/* open(2) of the misc device: misc_open() names it, then ->open. */
	h->file = kzalloc(sizeof(*h->file), GFP_KERNEL);
	if (!h->file) {
		*why = "out of memory";
		goto fail_file;
	}
	h->file->f_count = 1;
	h->file->f_op = misc->fops;
	h->file->f_inode = &h->inode;
	h->file->private_data = (void *)misc;
	r = misc->fops->open(&h->inode, h->file);
	if (r) {
		*why = "the device's open() failed";
		goto fail_open;
	}

	/* The worker starts at VHOST_SET_OWNER, the poller at SET_VRING_KICK. */
	rig_task_cpu(cpu);
	*why = "VHOST_SET_OWNER failed";
	if (core_ioctl(h, VHOST_SET_OWNER, NULL, 0))
		goto fail_setup;
	if (CORE_IOCTL(h, VHOST_GET_FEATURES, &h->features, why))
		goto fail_setup;
	/* One region, guest address = this process's address. */
	table = calloc(1, table_bytes);
	if (!table) {
		*why = "out of memory";
		goto fail_setup;
	}
	table->nregions = 1;
	table->regions[0].guest_phys_addr = (uintptr_t)h->mem;
	table->regions[0].userspace_addr = (uintptr_t)h->mem;
	table->regions[0].memory_size = h->mem_bytes;
	r = core_ioctl(h, VHOST_SET_MEM_TABLE, table, table_bytes);
	free(table);
	if (r) {
		*why = "VHOST_SET_MEM_TABLE failed";
		goto fail_setup;
	}
	return h;

fail_setup:
	misc->fops->release(&h->inode, h->file);
fail_open:
	kfree(h->file);
fail_file:
	__user_addr_min = __user_addr_max = NULL;
	munmap(h->map, h->map_bytes);
fail_map:
	free(h);
	return NULL;
}

void vhost_core_close(struct vhost_core *h)
{
	struct kmalloc_arena *guest = __kmalloc_arena;

	__kmalloc_arena = NULL;
	h->file->f_op->release(&h->inode, h->file);
	__kmalloc_arena = guest == &h->arena.ka ? NULL : guest;
	kfree(h->file);
	if (h->err_fd >= 0)
		close(h->err_fd);
	__user_addr_min = __user_addr_max = NULL;
	munmap(h->map, h->map_bytes);
	free(h);
}

struct vhost_dev *vhost_core_dev(struct vhost_core *h)
{
	return h->file->private_data;
}

enum vhost_core_device vhost_core_which(struct vhost_core *h)
{
	return h->device;
}

uint64_t vhost_core_features(struct vhost_core *h)
{
	return h->features;
}

void *vhost_core_alloc(struct vhost_core *h, size_t bytes)
{
	return rig_arena_alloc(&h->arena, bytes);
}

void *vhost_core_mem_end(struct vhost_core *h)
{
	return h->mem + h->mem_bytes;
}

void vhost_core_guest(struct vhost_core *h, bool on)
{
	rig_arena_attach(on ? &h->arena : NULL);
}

bool vhost_core_failed(struct vhost_core *h)
{
	struct pollfd pfd = { .fd = h->err_fd, .events = POLLIN };

	return h->err_fd >= 0 && poll(&pfd, 1, 0) > 0;
}

long vhost_core_ioctl(struct vhost_core *h, unsigned int cmd, void *arg, size_t size)
{
	return core_ioctl(h, cmd, arg, size);
}

int vhost_core_vring(struct vhost_core *h, unsigned int index, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what)
{
	struct vhost_vring_state num_state = { .index = index, .num = num };
	struct vhost_vring_state base = { .index = index, .num = 0 };
	struct vhost_vring_addr addr = {
		.index = index,
		.desc_user_addr = (uintptr_t)desc,
		.avail_user_addr = (uintptr_t)avail,
		.used_user_addr = (uintptr_t)used,
	};
	struct vhost_vring_file kick = { .index = index, .fd = kick_fd };
	struct vhost_vring_file call = { .index = index, .fd = call_fd };
	struct vhost_vring_file err = { .index = index };
	int r;

	if (h->err_fd < 0)
		h->err_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->err_fd < 0) {
		*what = "eventfd";
		return -errno;
	}
	err.fd = h->err_fd;
	if ((r = CORE_IOCTL(h, VHOST_SET_VRING_NUM, &num_state, what)) ||
	    (r = CORE_IOCTL(h, VHOST_SET_VRING_BASE, &base, what)) ||
	    (r = CORE_IOCTL(h, VHOST_SET_VRING_ADDR, &addr, what)) ||
	    (r = CORE_IOCTL(h, VHOST_SET_VRING_KICK, &kick, what)) ||
	    (r = CORE_IOCTL(h, VHOST_SET_VRING_CALL, &call, what)))
		return r;
	return CORE_IOCTL(h, VHOST_SET_VRING_ERR, &err, what);
}

int vhost_core_start(struct vhost_core *h, uint64_t features, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what)
{
	int run = 1;
	int r;

	if ((r = CORE_IOCTL(h, VHOST_SET_FEATURES, &features, what)) ||
	    (r = vhost_core_vring(h, 0, num, desc, avail, used, kick_fd, call_fd, what)))
		return r;
	return CORE_IOCTL(h, VHOST_TEST_RUN, &run, what);
}

int vhost_core_stop(struct vhost_core *h, uint16_t *last_avail, const char **what)
{
	/* test.c reads a struct vhost_vring_file, whatever its _IOW says. */
	struct vhost_vring_file off = { .index = 0, .fd = -1 };
	struct vhost_vring_state base = { .index = 0 };
	int r;

	if ((r = CORE_IOCTL(h, VHOST_TEST_SET_BACKEND, &off, what)) ||
	    (r = CORE_IOCTL(h, VHOST_GET_VRING_BASE, &base, what)))
		return r;
	*last_avail = base.num;
	return 0;
}

int vhost_core_restart(struct vhost_core *h, uint16_t base_idx, const char **what)
{
	struct vhost_vring_state base = { .index = 0, .num = base_idx };
	struct vhost_vring_file on = { .index = 0, .fd = 1 };
	int r;

	if ((r = CORE_IOCTL(h, VHOST_SET_VRING_BASE, &base, what)))
		return r;
	return CORE_IOCTL(h, VHOST_TEST_SET_BACKEND, &on, what);
}

int vhost_core_set_batch(struct vhost_core *h, unsigned int size, const char **what)
{
	int n = size;

	return CORE_IOCTL(h, VHOST_BATCH_SET_SIZE, &n, what);
}
