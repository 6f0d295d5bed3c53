/* SPDX-License-Identifier: GPL-2.0 */
/* Feature tests and ring-field accessors keyed on the device's features. */
#ifndef _LINUX_VIRTIO_CONFIG_H
#define _LINUX_VIRTIO_CONFIG_H

#include <linux/virtio.h>
/* A 7.x tree's vhost.h takes the feature arrays from here, as there. */
#include <linux/virtio_features.h>
#include <linux/bug.h>
#include <linux/dma-mapping.h>
#include <linux/virtio_byteorder.h>
#include <uapi/linux/virtio_config.h>

struct virtqueue;

/**
 * struct virtio_config_ops - transport hooks the ring code may call.
 * @disable_vq_and_reset: stop the device using @vq (queue reset)
 * @enable_vq_after_reset: let the device use @vq again
 */
struct virtio_config_ops {
	int (*disable_vq_and_reset)(struct virtqueue *vq);
	int (*enable_vq_after_reset)(struct virtqueue *vq);
};

#ifdef RIG_VIRTIO_MAP
/**
 * struct virtio_map_ops - a transport's own way of mapping buffers for its
 * device, instead of the DMA API (Linux 7.x: VDUSE).  The driver calls
 * these whenever the device has them (virtio_device.map); each takes the
 * queue's union virtio_map.  A transport with map ops provides them all.
 * @map_page: map @size bytes at @offset into @page; an address the
 *	device uses, or one @mapping_error says is an error
 * @unmap_page: undo @map_page
 * @sync_single_for_cpu: make the device's writes visible to the CPU
 * @sync_single_for_device: make the CPU's writes visible to the device
 * @alloc: memory both see (a ring); NULL on failure
 * @free: give back what @alloc gave
 * @need_sync: whether the sync calls are needed for an address
 * @mapping_error: non-zero if @map_handle is a failed mapping
 * @max_mapping_size: the largest buffer one mapping may cover
 */
struct virtio_map_ops {
	dma_addr_t (*map_page)(union virtio_map map, struct page *page,
			       unsigned long offset, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);
	void (*unmap_page)(union virtio_map map, dma_addr_t map_handle,
			   size_t size, enum dma_data_direction dir,
			   unsigned long attrs);
	void (*sync_single_for_cpu)(union virtio_map map, dma_addr_t map_handle,
				    size_t size, enum dma_data_direction dir);
	void (*sync_single_for_device)(union virtio_map map,
				       dma_addr_t map_handle, size_t size,
				       enum dma_data_direction dir);
	void *(*alloc)(union virtio_map map, size_t size,
		       dma_addr_t *map_handle, gfp_t gfp);
	void (*free)(union virtio_map map, size_t size, void *vaddr,
		     dma_addr_t map_handle, unsigned long attrs);
	bool (*need_sync)(union virtio_map map, dma_addr_t map_handle);
	int (*mapping_error)(union virtio_map map, dma_addr_t map_handle);
	size_t (*max_mapping_size)(union virtio_map map);
};
#endif

/*
 * struct virtio_device keeps its features in one u64 up to Linux 6.x, and
 * from 7.x in an array of them whose first word is still "features"
 * (VIRTIO_DECLARE_FEATURES): kernel/ksrc-features.sh defines
 * RIG_VIRTIO_FEATURES_ARRAY when a tree's linux/virtio.h has the array.
 */
#ifdef RIG_VIRTIO_FEATURES_ARRAY
static inline bool __virtio_test_bit(const struct virtio_device *vdev,
				     unsigned int fbit)
{
	return virtio_features_test_bit(vdev->features_array, fbit);
}

static inline void __virtio_set_bit(struct virtio_device *vdev,
				    unsigned int fbit)
{
	virtio_features_set_bit(vdev->features_array, fbit);
}

static inline void __virtio_clear_bit(struct virtio_device *vdev,
				      unsigned int fbit)
{
	virtio_features_clear_bit(vdev->features_array, fbit);
}
#else
static inline bool __virtio_test_bit(const struct virtio_device *vdev,
				     unsigned int fbit)
{
	return !WARN_ON_ONCE(fbit >= 64) && (vdev->features & (1ULL << fbit));
}

static inline void __virtio_set_bit(struct virtio_device *vdev,
				    unsigned int fbit)
{
	if (!WARN_ON_ONCE(fbit >= 64))
		vdev->features |= 1ULL << fbit;
}

static inline void __virtio_clear_bit(struct virtio_device *vdev,
				      unsigned int fbit)
{
	if (!WARN_ON_ONCE(fbit >= 64))
		vdev->features &= ~(1ULL << fbit);
}
#endif

#define virtio_has_feature(dev, feature)	__virtio_test_bit((dev), (feature))

/* Without ACCESS_PLATFORM the device sees guest physical addresses. */
static inline bool virtio_has_dma_quirk(const struct virtio_device *vdev)
{
	return !virtio_has_feature(vdev, VIRTIO_F_ACCESS_PLATFORM);
}

static inline bool virtio_is_little_endian(struct virtio_device *vdev)
{
	return virtio_has_feature(vdev, VIRTIO_F_VERSION_1) ||
	       virtio_legacy_is_little_endian();
}

static inline u16 virtio16_to_cpu(struct virtio_device *vdev, __virtio16 val)
{
	return __virtio16_to_cpu(virtio_is_little_endian(vdev), val);
}

static inline __virtio16 cpu_to_virtio16(struct virtio_device *vdev, u16 val)
{
	return __cpu_to_virtio16(virtio_is_little_endian(vdev), val);
}

static inline u32 virtio32_to_cpu(struct virtio_device *vdev, __virtio32 val)
{
	return __virtio32_to_cpu(virtio_is_little_endian(vdev), val);
}

static inline __virtio32 cpu_to_virtio32(struct virtio_device *vdev, u32 val)
{
	return __cpu_to_virtio32(virtio_is_little_endian(vdev), val);
}

static inline u64 virtio64_to_cpu(struct virtio_device *vdev, __virtio64 val)
{
	return __virtio64_to_cpu(virtio_is_little_endian(vdev), val);
}

static inline __virtio64 cpu_to_virtio64(struct virtio_device *vdev, u64 val)
{
	return __cpu_to_virtio64(virtio_is_little_endian(vdev), val);
}

#endif /* _LINUX_VIRTIO_CONFIG_H */
