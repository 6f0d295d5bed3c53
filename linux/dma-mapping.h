/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA API, identity-mapped: in the rig a bus address is the CPU's
 * virtual address, no IOMMU stands between the driver and the "device", and
 * coherent memory is ordinary memory.  Ring code only takes these paths when
 * the device has VIRTIO_F_ACCESS_PLATFORM, but they must compile and, if a
 * test negotiates that feature, work.  A test that wants to see them sets
 * the device's rig_dma (the rig's, not the kernel's): every streaming map
 * and unmap then goes through its hooks, which may record it and may fail
 * a mapping (DMA_MAPPING_ERROR); and, if it sets them, every coherent
 * allocation and free (ring memory) through its alloc and free hooks.
 */
#ifndef _LINUX_DMA_MAPPING_H
#define _LINUX_DMA_MAPPING_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <linux/device.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

/* A test's view of the DMA of a device (struct device); @attrs: DMA_ATTR_*. */
struct rig_dma_ops {
	dma_addr_t (*map)(struct device *dev, phys_addr_t phys, size_t size,
			  enum dma_data_direction dir, unsigned long attrs);
	void (*unmap)(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir);
	/* Optional: coherent memory, zeroed; NULL when out of memory. */
	void *(*alloc)(struct device *dev, size_t size, dma_addr_t *handle);
	void (*free)(struct device *dev, size_t size, void *cpu_addr,
		     dma_addr_t handle);
};

#define DMA_MAPPING_ERROR	(~(dma_addr_t)0)

/* Mapping attributes: handed to the hooks' map, else ignored. */
#define DMA_ATTR_WEAK_ORDERING		(1UL << 1)
#define DMA_ATTR_WRITE_COMBINE		(1UL << 2)
#define DMA_ATTR_NO_KERNEL_MAPPING	(1UL << 4)
#define DMA_ATTR_SKIP_CPU_SYNC		(1UL << 5)
#define DMA_ATTR_FORCE_CONTIGUOUS	(1UL << 6)
#define DMA_ATTR_ALLOC_SINGLE_PAGES	(1UL << 7)
#define DMA_ATTR_NO_WARN		(1UL << 8)
#define DMA_ATTR_PRIVILEGED		(1UL << 9)
#define DMA_ATTR_MMIO			(1UL << 10)
/* Linux 7.x: the buffer may share cache lines with the CPU's data. */
#define DMA_ATTR_DEBUGGING_IGNORE_CACHELINES (1UL << 11)

static inline dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys,
				      size_t size, enum dma_data_direction dir,
				      unsigned long attrs)
{
	if (dev && dev->rig_dma)
		return dev->rig_dma->map(dev, phys, size, dir, attrs);
	return (dma_addr_t)phys;
}

static inline void dma_unmap_phys(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs __always_unused)
{
	if (dev && dev->rig_dma)
		dev->rig_dma->unmap(dev, addr, size, dir);
}

static inline dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page,
					    size_t offset, size_t size,
					    enum dma_data_direction dir,
					    unsigned long attrs)
{
	return dma_map_phys(dev, page_to_phys(page) + offset, size, dir, attrs);
}

static inline void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr,
					size_t size, enum dma_data_direction dir,
					unsigned long attrs)
{
	dma_unmap_phys(dev, addr, size, dir, attrs);
}

static inline dma_addr_t dma_map_single_attrs(struct device *dev, void *ptr,
					      size_t size,
					      enum dma_data_direction dir,
					      unsigned long attrs)
{
	return dma_map_phys(dev, virt_to_phys(ptr), size, dir, attrs);
}

static inline void dma_unmap_single_attrs(struct device *dev, dma_addr_t addr,
					  size_t size,
					  enum dma_data_direction dir,
					  unsigned long attrs)
{
	dma_unmap_phys(dev, addr, size, dir, attrs);
}

#define dma_map_page(d, p, o, s, r)	dma_map_page_attrs(d, p, o, s, r, 0)
#define dma_unmap_page(d, a, s, r)	dma_unmap_page_attrs(d, a, s, r, 0)
#define dma_map_single(d, a, s, r)	dma_map_single_attrs(d, a, s, r, 0)
#define dma_unmap_single(d, a, s, r)	dma_unmap_single_attrs(d, a, s, r, 0)

static inline int dma_mapping_error(struct device *dev __always_unused,
				    dma_addr_t addr)
{
	return addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

/* Memory is coherent: syncing is a compiler barrier, nothing needs it. */
static inline void dma_sync_single_for_cpu(struct device *dev __always_unused,
					   dma_addr_t addr __always_unused,
					   size_t size __always_unused,
					   enum dma_data_direction dir __always_unused)
{
	barrier();
}

static inline void dma_sync_single_for_device(struct device *dev __always_unused,
					      dma_addr_t addr __always_unused,
					      size_t size __always_unused,
					      enum dma_data_direction dir __always_unused)
{
	barrier();
}

static inline void dma_sync_single_range_for_cpu(struct device *dev,
						 dma_addr_t addr,
						 unsigned long offset,
						 size_t size,
						 enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(dev, addr + offset, size, dir);
}

static inline void dma_sync_single_range_for_device(struct device *dev,
						    dma_addr_t addr,
						    unsigned long offset,
						    size_t size,
						    enum dma_data_direction dir)
{
	dma_sync_single_for_device(dev, addr + offset, size, dir);
}

static inline bool dma_need_sync(struct device *dev __always_unused,
				 dma_addr_t addr __always_unused)
{
	return false;
}

static inline size_t dma_max_mapping_size(struct device *dev __always_unused)
{
	return SIZE_MAX;
}

/* Coherent memory is zeroed, as the kernel's is. */
static inline void *dma_alloc_coherent(struct device *dev, size_t size,
				       dma_addr_t *handle, gfp_t gfp)
{
	void *p;

	if (dev && dev->rig_dma && dev->rig_dma->alloc)
		return dev->rig_dma->alloc(dev, size, handle);
	p = alloc_pages_exact(size, gfp | __GFP_ZERO);
	if (p)
		*handle = (dma_addr_t)virt_to_phys(p);
	return p;
}

static inline void dma_free_coherent(struct device *dev, size_t size,
				     void *cpu_addr, dma_addr_t handle)
{
	if (dev && dev->rig_dma && dev->rig_dma->free)
		dev->rig_dma->free(dev, size, cpu_addr, handle);
	else
		free_pages_exact(cpu_addr, size);
}

#endif /* _LINUX_DMA_MAPPING_H */
