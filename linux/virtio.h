/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver-side virtqueue API (Linux 6.12 names and signatures).  Programs
 * use only what is declared here, so they build against this rig's
 * virtio_ring.c or against a kernel tree's.
 */
#ifndef _LINUX_VIRTIO_H
#define _LINUX_VIRTIO_H

#include <linux/types.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/dma-mapping.h>

/**
 * struct virtqueue - a queue to register buffers for sending or receiving.
 * @list: entry in the device's list of virtqueues
 * @callback: called when the device has used buffers (may be NULL)
 * @name: for messages
 * @vdev: the device this queue belongs to
 * @index: queue number on the device
 * @num_free: descriptors still free
 * @num_max: largest ring size the queue can be given
 * @reset: the queue is being reset
 * @priv: for the driver's use
 */
struct virtqueue {
	struct list_head list;
	void (*callback)(struct virtqueue *vq);
	const char *name;
	struct virtio_device *vdev;
	unsigned int index;
	unsigned int num_free;
	unsigned int num_max;
	bool reset;
	void *priv;
};

/**
 * struct virtio_device - the part of a virtio device the ring code uses.
 * @index: device number
 * @failed: the device failed
 * @dev: underlying device, for messages
 * @config: transport operations (may be NULL in the rig)
 * @vqs: the device's virtqueues
 * @vqs_list_lock: protects @vqs
 * @features: negotiated feature bits
 * @priv: for the driver's use
 */
struct virtio_device {
	int index;
	bool failed;
	struct device dev;
	const struct virtio_config_ops *config;
	struct list_head vqs;
	spinlock_t vqs_list_lock;
	u64 features;
	void *priv;
};

int virtqueue_add_outbuf(struct virtqueue *vq, struct scatterlist sg[],
			 unsigned int num, void *data, gfp_t gfp);
int virtqueue_add_inbuf(struct virtqueue *vq, struct scatterlist sg[],
			unsigned int num, void *data, gfp_t gfp);
int virtqueue_add_inbuf_ctx(struct virtqueue *vq, struct scatterlist sg[],
			    unsigned int num, void *data, void *ctx, gfp_t gfp);
int virtqueue_add_sgs(struct virtqueue *vq, struct scatterlist *sgs[],
		      unsigned int out_sgs, unsigned int in_sgs,
		      void *data, gfp_t gfp);

struct device *virtqueue_dma_dev(struct virtqueue *vq);

/*
 * Premapped buffers: the caller maps (these helpers map for the queue's
 * device, or give the physical address without VIRTIO_F_ACCESS_PLATFORM)
 * and the queue takes sg_dma_address() as it is.  RIG_..._ARGS: as for
 * virtqueue_resize below, what kernel/ksrc-features.sh reports.
 */
#define RIG_VIRTQUEUE_SET_DMA_PREMAPPED_ARGS 1
int virtqueue_set_dma_premapped(struct virtqueue *_vq);
dma_addr_t virtqueue_dma_map_single_attrs(struct virtqueue *_vq, void *ptr,
					  size_t size,
					  enum dma_data_direction dir,
					  unsigned long attrs);
void virtqueue_dma_unmap_single_attrs(struct virtqueue *_vq, dma_addr_t addr,
				      size_t size, enum dma_data_direction dir,
				      unsigned long attrs);
int virtqueue_dma_mapping_error(struct virtqueue *_vq, dma_addr_t addr);
bool virtqueue_dma_need_sync(struct virtqueue *_vq, dma_addr_t addr);
void virtqueue_dma_sync_single_range_for_cpu(struct virtqueue *_vq,
					     dma_addr_t addr,
					     unsigned long offset, size_t size,
					     enum dma_data_direction dir);
void virtqueue_dma_sync_single_range_for_device(struct virtqueue *_vq,
						dma_addr_t addr,
						unsigned long offset,
						size_t size,
						enum dma_data_direction dir);

bool virtqueue_kick(struct virtqueue *vq);
bool virtqueue_kick_prepare(struct virtqueue *vq);
bool virtqueue_notify(struct virtqueue *vq);

void *virtqueue_get_buf(struct virtqueue *vq, unsigned int *len);
void *virtqueue_get_buf_ctx(struct virtqueue *vq, unsigned int *len,
			    void **ctx);

void virtqueue_disable_cb(struct virtqueue *vq);
bool virtqueue_enable_cb(struct virtqueue *vq);
unsigned int virtqueue_enable_cb_prepare(struct virtqueue *vq);
bool virtqueue_poll(struct virtqueue *vq, unsigned int last_used_idx);
bool virtqueue_enable_cb_delayed(struct virtqueue *vq);

void *virtqueue_detach_unused_buf(struct virtqueue *vq);
unsigned int virtqueue_get_vring_size(const struct virtqueue *vq);
bool virtqueue_is_broken(const struct virtqueue *vq);

const struct vring *virtqueue_get_vring(const struct virtqueue *vq);
dma_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq);
dma_addr_t virtqueue_get_avail_addr(const struct virtqueue *vq);
dma_addr_t virtqueue_get_used_addr(const struct virtqueue *vq);

/*
 * The arity of functions whose arguments differ between kernel trees, as
 * kernel/ksrc-features.sh reports it for a tree's own header: programs
 * calling them read these, never a version number.
 */
#define RIG_VIRTQUEUE_RESIZE_ARGS 4
#define RIG_VIRTQUEUE_RESET_ARGS 3
int virtqueue_resize(struct virtqueue *vq, u32 num,
		     void (*recycle)(struct virtqueue *vq, void *buf),
		     void (*recycle_done)(struct virtqueue *vq));
int virtqueue_reset(struct virtqueue *vq,
		    void (*recycle)(struct virtqueue *vq, void *buf),
		    void (*recycle_done)(struct virtqueue *vq));

void virtio_break_device(struct virtio_device *dev);
void __virtio_unbreak_device(struct virtio_device *dev);
void __virtqueue_break(struct virtqueue *vq);
void __virtqueue_unbreak(struct virtqueue *vq);

size_t virtio_max_dma_size(const struct virtio_device *vdev);

#define virtio_device_for_each_vq(vdev, vq) \
	list_for_each_entry(vq, &(vdev)->vqs, list)

#endif /* _LINUX_VIRTIO_H */
