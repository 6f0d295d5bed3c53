// SPDX-License-Identifier: GPL-2.0
/*
 * vhost-batch: the rig's own device on the kernel's vhost core.
 *
 * A tree's drivers/vhost/test.c offers the core's ring features and uses
 * each buffer on its own with vhost_add_used().  This device takes the
 * same requests (the core's VHOST_* ioctls, VHOST_TEST_RUN and
 * VHOST_TEST_SET_BACKEND of the tree's test.h), so kernel/vhost_core.c
 * drives either, and differs where the core has grown since test.c was
 * written: it offers VIRTIO_F_IN_ORDER as well, and it returns the buffers
 * it takes in batches, one vhost_add_used_n() call for everything taken
 * before the ring is found empty.  Negotiated in order, a used entry
 * stands for up to VHOST_BATCH_SET_SIZE buffers (the count in nheads[],
 * the id the last buffer's: the core's vhost_add_used_n_in_order()), and
 * the core takes each head from its own count, not from the avail ring;
 * otherwise every buffer has its own used entry, written by one call.
 *
 * The device reads and writes no buffer: each is used with length 0.
 * Under VIRTIO_F_IN_ORDER a driver takes every buffer of a batch but the
 * last as written whole (2.7.9), so a buffer with device-writable parts
 * always ends its batch: then the length 0 of its entry is the truth.
 *
 * Built only from a tree whose vhost_add_used_n() takes nheads
 * (kernel/ksrc-build.mk reads that with kernel/ksrc-features.sh).
 * Written for the rig; kernel/vhost_batch.h has its interface.
 */
#include <linux/compat.h>
#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/vhost.h>

#include "test.h"		/* the tree's: VHOST_TEST_RUN, _SET_BACKEND */
#include "vhost.h"		/* the tree's vhost core */

#include "kernel/vhost_batch.h"

/* Buffers the worker uses before it lets other work run (requeued). */
#define VHOST_BATCH_WEIGHT	256

/* What the device offers: the core's split-ring features, and IN_ORDER. */
#define VHOST_BATCH_FEATURES	(1ULL << VIRTIO_F_NOTIFY_ON_EMPTY |	\
				 1ULL << VIRTIO_RING_F_INDIRECT_DESC |	\
				 1ULL << VIRTIO_RING_F_EVENT_IDX |	\
				 1ULL << VIRTIO_F_ANY_LAYOUT |		\
				 1ULL << VIRTIO_F_VERSION_1 |		\
				 1ULL << VIRTIO_F_IN_ORDER)

struct vhost_batch {
	struct vhost_dev dev;
	struct vhost_virtqueue vq;
	struct vhost_virtqueue *vqs[1];
	/* In order: most buffers a used entry returns (0: the queue size). */
	unsigned int size;
	/* The backend VHOST_TEST_SET_BACKEND -1 took away, to give back. */
	void *stopped;
};

static struct vhost_batch *vq_to_batch(struct vhost_virtqueue *vq)
{
	return container_of(vq->dev, struct vhost_batch, dev);
}

/*
 * Use the buffers of @vq->heads[0..@entries): @nheads[i] buffers each in
 * order, one each otherwise.  Then signal the driver if it wants it.
 */
static int vhost_batch_flush(struct vhost_virtqueue *vq, unsigned int entries,
			     bool in_order)
{
	int r;

	if (!entries)
		return 0;
	r = vhost_add_used_n(vq, vq->heads, in_order ? vq->nheads : NULL,
			     entries);
	if (r < 0)
		return r;
	vhost_signal(vq->dev, vq);
	return 0;
}

/**
 * vhost_batch_serve - take every available buffer and use it, in batches
 * @vq: the device's queue, its mutex held
 * @weighed: stop after the device's weight of buffers and requeue the
 *	rest on the worker (the worker's call); false: serve until the ring
 *	is empty (a caller with no worker, kernel/vhost_core_serve.c)
 *
 * Takes buffers with vhost_get_vq_desc() until the ring is empty, with
 * notifications off, and gives them back with one vhost_add_used_n()
 * call: when the ring is found empty, when vq->heads is full, at the
 * weight, and before returning an error (what was taken is used).  Then
 * it turns notifications on and looks once more, as a vhost worker must.
 *
 * Return: the number of buffers used, or the negative errno of
 * vhost_get_vq_desc() or vhost_add_used_n() (vq_err() has said why).
 */
int vhost_batch_serve(struct vhost_virtqueue *vq, bool weighed)
{
	struct vhost_batch *b = vq_to_batch(vq);
	bool in_order = vhost_has_feature(vq, VIRTIO_F_IN_ORDER);
	unsigned int most = b->size && b->size < vq->num ? b->size : vq->num;
	unsigned int entries = 0, used = 0, out, in;
	bool extend = false;	/* the last entry may take more buffers */
	int head, r;

	vhost_disable_notify(&b->dev, vq);
	for (;;) {
		head = vhost_get_vq_desc(vq, vq->iov, ARRAY_SIZE(vq->iov),
					 &out, &in, NULL, NULL);
		if (unlikely(head < 0))
			break;
		if (head == vq->num) {
			r = vhost_batch_flush(vq, entries, in_order);
			if (r < 0)
				return r;
			entries = 0;
			extend = false;
			if (unlikely(vhost_enable_notify(&b->dev, vq))) {
				vhost_disable_notify(&b->dev, vq);
				continue;
			}
			return used;
		}
		if (extend) {
			/* The batch's entry names its last buffer. */
			vq->heads[entries - 1].id = cpu_to_vhost32(vq, head);
			vq->nheads[entries - 1]++;
		} else {
			vq->heads[entries].id = cpu_to_vhost32(vq, head);
			vq->heads[entries].len = cpu_to_vhost32(vq, 0);
			vq->nheads[entries] = 1;
			entries++;
		}
		extend = in_order && !in && vq->nheads[entries - 1] < most;
		used++;
		if (weighed && vhost_exceeds_weight(vq, used, 0)) {
			r = vhost_batch_flush(vq, entries, in_order);
			return r < 0 ? r : used;
		}
		if (entries == vq->dev->iov_limit && !extend) {
			r = vhost_batch_flush(vq, entries, in_order);
			if (r < 0)
				return r;
			entries = 0;
		}
	}
	/* vhost_get_vq_desc() failed: use what was taken, then say so. */
	r = vhost_batch_flush(vq, entries, in_order);
	return r < 0 ? r : head;
}

static void vhost_batch_kick(struct vhost_work *work)
{
	struct vhost_virtqueue *vq = container_of(work, struct vhost_virtqueue,
						  poll.work);

	mutex_lock(&vq->mutex);
	/* Stopped (VHOST_TEST_SET_BACKEND -1, release): nothing to do. */
	if (vhost_vq_get_backend(vq))
		vhost_batch_serve(vq, true);
	mutex_unlock(&vq->mutex);
}

static int vhost_batch_open(struct inode *inode, struct file *f)
{
	struct vhost_batch *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return -ENOMEM;
	b->vqs[0] = &b->vq;
	b->vq.handle_kick = vhost_batch_kick;
	/* No byte weight: the device moves no bytes. */
	vhost_dev_init(&b->dev, b->vqs, ARRAY_SIZE(b->vqs), UIO_MAXIOV,
		       VHOST_BATCH_WEIGHT, 0, true, NULL);
	f->private_data = b;
	return 0;
}

static int vhost_batch_release(struct inode *inode, struct file *f)
{
	struct vhost_batch *b = f->private_data;

	/* Stop the queue, then let queued work finish. */
	mutex_lock(&b->vq.mutex);
	vhost_vq_set_backend(&b->vq, NULL);
	mutex_unlock(&b->vq.mutex);
	vhost_dev_flush(&b->dev);
	vhost_dev_stop(&b->dev);
	vhost_dev_cleanup(&b->dev);
	kfree(b);
	return 0;
}

/* VHOST_TEST_RUN: @run 1 starts the queue on the ring set up, 0 stops it. */
static long vhost_batch_run(struct vhost_batch *b, int run)
{
	struct vhost_virtqueue *vq = &b->vq;
	void *old;
	long r;

	if (run != 0 && run != 1)
		return -EINVAL;
	mutex_lock(&b->dev.mutex);
	r = vhost_dev_check_owner(&b->dev);
	if (r)
		goto out;
	if (!vhost_vq_access_ok(vq)) {
		r = -EFAULT;
		goto out;
	}
	mutex_lock(&vq->mutex);
	old = vhost_vq_get_backend(vq);
	vhost_vq_set_backend(vq, run ? b : NULL);
	r = vhost_vq_init_access(vq);
	mutex_unlock(&vq->mutex);
	/* Work queued for the old backend finishes before this returns. */
	if (old)
		vhost_dev_flush(&b->dev);
out:
	mutex_unlock(&b->dev.mutex);
	return r;
}

/*
 * VHOST_TEST_SET_BACKEND: fd -1 stops queue @index between two buffers
 * (the worker holds none: it uses every buffer it takes before it lets go
 * of the queue's mutex); any other fd starts it again where it stopped,
 * or where VHOST_SET_VRING_BASE has since put it.
 */
static long vhost_batch_set_backend_ioctl(struct vhost_batch *b,
					  unsigned int index, int fd)
{
	struct vhost_virtqueue *vq = &b->vq;
	long r;

	mutex_lock(&b->dev.mutex);
	r = vhost_dev_check_owner(&b->dev);
	if (r)
		goto out;
	if (index >= ARRAY_SIZE(b->vqs)) {
		r = -ENOBUFS;
		goto out;
	}
	mutex_lock(&vq->mutex);
	if (!vhost_vq_access_ok(vq)) {
		r = -EFAULT;
	} else if (fd == -1) {
		vhost_poll_stop(&vq->poll);
		if (vhost_vq_get_backend(vq))
			b->stopped = vhost_vq_get_backend(vq);
		vhost_vq_set_backend(vq, NULL);
	} else {
		vhost_vq_set_backend(vq, b->stopped);
		r = vhost_vq_init_access(vq);
		/* No kick eventfd: served by its owner (vhost_core_serve()). */
		if (!r && vq->kick)
			r = vhost_poll_start(&vq->poll, vq->kick);
	}
	mutex_unlock(&vq->mutex);
	if (!r && fd != -1)
		vhost_dev_flush(&b->dev);
out:
	mutex_unlock(&b->dev.mutex);
	return r;
}

static long vhost_batch_set_features(struct vhost_batch *b, u64 features)
{
	if (features & ~VHOST_BATCH_FEATURES)
		return -EOPNOTSUPP;
	mutex_lock(&b->dev.mutex);
	mutex_lock(&b->vq.mutex);
	b->vq.acked_features = features;
	mutex_unlock(&b->vq.mutex);
	mutex_unlock(&b->dev.mutex);
	return 0;
}

static long vhost_batch_set_size(struct vhost_batch *b, int size)
{
	if (size < 1 || size > VHOST_BATCH_SIZE_MAX)
		return -EINVAL;
	mutex_lock(&b->vq.mutex);
	b->size = size;
	mutex_unlock(&b->vq.mutex);
	return 0;
}

static long vhost_batch_ioctl(struct file *f, unsigned int ioctl,
			      unsigned long arg)
{
	struct vhost_batch *b = f->private_data;
	void __user *argp = (void __user *)arg;
	struct vhost_vring_file backend;
	u64 features;
	int n;
	long r;

	switch (ioctl) {
	case VHOST_GET_FEATURES:
		features = VHOST_BATCH_FEATURES;
		return copy_to_user(argp, &features, sizeof(features)) ?
		       -EFAULT : 0;
	case VHOST_SET_FEATURES:
		if (copy_from_user(&features, argp, sizeof(features)))
			return -EFAULT;
		return vhost_batch_set_features(b, features);
	case VHOST_TEST_RUN:
		if (copy_from_user(&n, argp, sizeof(n)))
			return -EFAULT;
		return vhost_batch_run(b, n);
	case VHOST_TEST_SET_BACKEND:
		/* A struct vhost_vring_file, whatever test.h's _IOW says. */
		if (copy_from_user(&backend, argp, sizeof(backend)))
			return -EFAULT;
		return vhost_batch_set_backend_ioctl(b, backend.index, backend.fd);
	case VHOST_BATCH_SET_SIZE:
		if (copy_from_user(&n, argp, sizeof(n)))
			return -EFAULT;
		return vhost_batch_set_size(b, n);
	default:
		/* The core's own: the owner, memory table, the rings. */
		mutex_lock(&b->dev.mutex);
		r = vhost_dev_ioctl(&b->dev, ioctl, argp);
		if (r == -ENOIOCTLCMD)
			r = vhost_vring_ioctl(&b->dev, ioctl, argp);
		vhost_dev_flush(&b->dev);
		mutex_unlock(&b->dev.mutex);
		return r == -ENOIOCTLCMD ? -ENOTTY : r;
	}
}

static const struct file_operations vhost_batch_fops = {
	.owner		= THIS_MODULE,
	.open		= vhost_batch_open,
	.release	= vhost_batch_release,
	.unlocked_ioctl	= vhost_batch_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice vhost_batch_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "vhost-batch",
	.fops	= &vhost_batch_fops,
};
module_misc_device(vhost_batch_misc);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vhost device returning buffers in batches, in order or not");
