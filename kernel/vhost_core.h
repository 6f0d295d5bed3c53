/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's vhost core (drivers/vhost/vhost.c) and its test device
 * (drivers/vhost/test.c), compiled unmodified from a kernel tree (KSRC=),
 * driven as the kernel's tools/virtio/virtio_test drives /dev/vhost-test:
 * through the device's own file operations (open, the VHOST_* and
 * VHOST_TEST_* ioctls, release).  Or, on the same core and with the same
 * requests, the rig's own device kernel/vhost_batch.c, which offers
 * VIRTIO_F_IN_ORDER and batches used entries (where the tree's core has
 * the in-order path).  kernel/vhost_core.c; without a kernel tree,
 * kernel/no_vhost_core.c, where vhost_core_open() says why not.
 *
 * The guest's memory is one mapping of this process that the core reaches
 * with its uaccess (linux/uaccess.h's "user" window is the mapping and
 * nothing else): a page the ioctl arguments are copied through, then the
 * memory table's one region, guest address = host address, from which
 * vhost_core_alloc() hands out rings and buffers and, while
 * vhost_core_guest(h, true), everything the driver's kmalloc() takes
 * (indirect tables).  The core's own allocations never land there.
 */
struct vhost_dev;
#ifndef RIG_KERNEL_VHOST_CORE_H
#define RIG_KERNEL_VHOST_CORE_H

/*
 * A known gap of the kernel's vhost core that more than one program
 * sees (2.7.10: with VIRTIO_RING_F_EVENT_IDX the device MUST set the used
 * ring's flags to 0).  vhost_vq_init_access(), which a device calls when
 * its backend is set, writes the queue's used_flags into the ring
 * unconditionally, and vhost_disable_notify() kept NO_NOTIFY there.
 */
#define VHOST_CORE_GAP_USED_FLAGS \
	"the kernel's vhost core writes VRING_USED_F_NO_NOTIFY into the used ring with VIRTIO_RING_F_EVENT_IDX negotiated when a backend is set again (vhost_vq_init_access())"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vhost_core;

/* The devices on the core. */
enum vhost_core_device {
	VHOST_CORE_TEST,	/* the tree's test.c: a used entry a buffer */
	VHOST_CORE_BATCH,	/* the rig's vhost_batch.c: IN_ORDER, batches */
};
/* Their names, as --vhost=NAME takes them (rig_name_index()). */
#define VHOST_CORE_DEVICE_NAMES { [VHOST_CORE_TEST] = "test", [VHOST_CORE_BATCH] = "batch" }

/*
 * Open @device with @mem_bytes of guest memory, its threads (the vhost
 * worker, the kick eventfd's poller) pinned to CPU @cpu, or -1 for where
 * the caller may run; NULL and *@why if not (no kernel tree, or no
 * in-order vhost core in it for the batch device).
 */
struct vhost_core *vhost_core_open(enum vhost_core_device device, size_t mem_bytes,
				   int cpu, const char **why);
/*
 * The same for another vhost device, the misc device @misc (its module
 * loaded: kernel/vhost_net.c).
 */
struct miscdevice;
struct vhost_core *vhost_core_open_misc(const struct miscdevice *misc, size_t mem_bytes,
					int cpu, const char **why);
/* Release the file: the device stops and frees everything. */
void vhost_core_close(struct vhost_core *h);

/* The core's device (test.c's struct vhost_test starts with it). */
struct vhost_dev *vhost_core_dev(struct vhost_core *h);
/* Which device vhost_core_open() opened. */
enum vhost_core_device vhost_core_which(struct vhost_core *h);
/* The features the device offers (VHOST_GET_FEATURES). */
uint64_t vhost_core_features(struct vhost_core *h);
/* Guest memory, or NULL when the region is full. */
void *vhost_core_alloc(struct vhost_core *h, size_t bytes);
/* Where the memory table's one region ends: one past its last byte. */
void *vhost_core_mem_end(struct vhost_core *h);
/* Has the device reported an error (vq_err(), its error eventfd)? */
bool vhost_core_failed(struct vhost_core *h);
/* Make this thread's kmalloc() take guest memory (or not). */
void vhost_core_guest(struct vhost_core *h, bool on);

/*
 * Give the device a split ring of @num entries at @desc, @avail, @used
 * (guest memory), @features acked, kicks from eventfd @kick_fd, calls to
 * @call_fd, and start it (VHOST_TEST_RUN).  0 or -errno, with *@what the
 * request that failed.
 */
int vhost_core_start(struct vhost_core *h, uint64_t features, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what);
/*
 * Any ioctl: its argument of @size bytes copied in and (_IOC_READ) back out
 * through the argument page; the device's return value, or -E2BIG when the
 * argument is larger than the page.
 */
long vhost_core_ioctl(struct vhost_core *h, unsigned int cmd, void *arg, size_t size);
/*
 * Set up queue @index: a split ring as vhost_core_start() takes it, its
 * error eventfd the one vhost_core_failed() polls; no feature, no start.
 */
int vhost_core_vring(struct vhost_core *h, unsigned int index, unsigned int num,
		     void *desc, void *avail, void *used, int kick_fd, int call_fd,
		     const char **what);
/*
 * Stop the queue between two buffers (VHOST_TEST_SET_BACKEND -1) and say
 * where the device's avail index stopped (VHOST_GET_VRING_BASE).
 */
int vhost_core_stop(struct vhost_core *h, uint16_t *last_avail, const char **what);
/* Start the stopped queue again from avail index @base (a reset ring: 0). */
int vhost_core_restart(struct vhost_core *h, uint16_t base, const char **what);
/*
 * The batch device, in order: at most @size buffers a used entry
 * (VHOST_BATCH_SET_SIZE; by default the queue size).  0 or -errno.
 */
int vhost_core_set_batch(struct vhost_core *h, unsigned int size, const char **what);

/*
 * Do in this thread what the device's worker does on a kick (a queue
 * started with no kick eventfd, @kick_fd -1, is never served otherwise):
 * take every available buffer and use it with length 0, re-check after
 * re-enabling notifications, and signal the call eventfd if the driver
 * wants it, all with the core's own functions (vhost_get_vq_desc(),
 * vhost_add_used(), vhost_signal(); the batch device's worker function
 * vhost_batch_serve(), with vhost_add_used_n()).  One thread, so the same
 * run costs the same instructions every time (ab/count.sh).  Returns the
 * number of buffers used, or the -errno the core gave.
 * kernel/vhost_core_serve.c.
 */
int vhost_core_serve(struct vhost_core *h);
/*
 * Do in this thread what the vhost worker does on a kick of queue @index:
 * run the device's own kick handler (vhost-net's: net.c's handle_tx or
 * handle_rx).  -EINVAL if the device has no such queue.
 * kernel/vhost_core_serve.c.
 */
int vhost_core_kick(struct vhost_core *h, unsigned int index);
/* Wait until the worker has run the work queued so far (vhost_dev_flush()). */
void vhost_core_flush(struct vhost_core *h);

#endif /* RIG_KERNEL_VHOST_CORE_H */
