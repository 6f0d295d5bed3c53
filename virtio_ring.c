// SPDX-License-Identifier: GPL-2.0
/*
 * Virtqueues, driver side: the guest half of a virtio ring.
 *
 * A driver exposes buffers (scatterlists) to the device through the ring and
 * gets them back, with the number of bytes the device wrote, once the device
 * has used them.  Two layouts: split (virtio 2.7) and packed (2.8, chosen by
 * VIRTIO_F_RING_PACKED).  Each public entry point checks what is common to
 * every layout and then calls the layout's own *_split() or *_packed()
 * function, chosen by vq->packed_ring, so each layout reads on its own.
 *
 * Everything the device can write (used ring, used flags, avail_event; in a
 * packed ring the used descriptors and the device event suppression
 * structure) is untrusted: a used element is checked against the driver's
 * private record of what is in flight before anything is done with it, and a
 * device that breaks the rules gets its queue marked broken instead of
 * crashing the driver.  The driver never reads back what it wrote to the
 * ring; chains are followed through private state the device cannot touch.
 */
#include <linux/virtio.h>
#include <linux/virtio_ring.h>
#include <linux/virtio_config.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/spinlock.h>

/* Largest split ring the specification allows (2.7). */
#define VRING_SPLIT_MAX_NUM	32768

/**
 * struct vring_desc_state_split - what the driver knows about one head
 * @data: the caller's token; NULL unless a buffer with this head is in flight
 * @indir_desc: the indirect table this buffer uses (kfree()d on detach),
 *	or on a queue that maps buffers its struct vring_dma_buf; like @ctx,
 *	set by every add and meaningful only while @data is not NULL
 * @ctx: the context pointer given with the buffer
 * @in_len: device-writable bytes in the buffer: the most a used length may say
 * @avail_pos: the avail index the head was published at (IN_ORDER uses it to
 *	size a batch: the buffer is the (@avail_pos - last_used_idx + 1)th
 *	oldest in flight)
 */
struct vring_desc_state_split {
	void *data;
	void *indir_desc;
	void *ctx;
	u32 in_len;
	u16 avail_pos;
};

/**
 * struct vring_desc_extra - private shadow of one ring descriptor
 * @next: the chain link as written, or the free list link when free
 * @flags: the descriptor flags as written (CPU byte order)
 */
struct vring_desc_extra {
	u16 next;
	u16 flags;
};

/**
 * struct vring_virtqueue_split - a split ring and its driver-private state
 * @vring: the three parts of the ring
 * @avail_flags_shadow: last value meant for avail->flags (CPU byte order)
 * @avail_idx_shadow: the driver's avail index (what avail->idx was set to)
 * @used_idx_shadow: used->idx as last read; elements up to it are published
 * @used_event_unfenced: used_event was written and no full barrier followed
 * @batch_left: IN_ORDER: buffers of the batch being returned that get_buf
 *	has not returned yet, the batch's last buffer included (0: none)
 * @batch_len: IN_ORDER: the used length the device gave that last buffer
 * @desc_state: per head: token, indirect table, ctx, writable length
 * @desc_extra: per descriptor: shadow of next and flags
 * @queue: the ring allocation, if this code allocated it
 * @queue_size_in_bytes: size of @queue
 * @queue_dma: the bus address of @queue
 * @queue_dma_dev: the device @queue was allocated coherent for (the DMA
 *	API), or NULL (alloc_pages_exact(), @queue_dma its physical address)
 * @vring_align: alignment of the used ring, from creation
 * @may_reduce_num: whether a resize may settle for a smaller ring
 */
struct vring_virtqueue_split {
	struct vring vring;
	u16 avail_flags_shadow;
	u16 avail_idx_shadow;
	u16 used_idx_shadow;
	bool used_event_unfenced;
	u16 batch_left;
	u32 batch_len;
	struct vring_desc_state_split *desc_state;
	struct vring_desc_extra *desc_extra;
	void *queue;
	size_t queue_size_in_bytes;
	dma_addr_t queue_dma;
	struct device *queue_dma_dev;
	unsigned int vring_align;
	bool may_reduce_num;
};

/* Largest packed ring (2.8); any size from 1 up will do. */
#define VRING_PACKED_MAX_NUM	32768

/**
 * struct vring_desc_state_packed - what the driver knows about one buffer id
 * @data: the caller's token; NULL unless the buffer with this id is in flight
 * @indir_desc: as struct vring_desc_state_split's
 * @ctx: the context pointer given with the buffer
 * @in_len: device-writable bytes in the buffer: the most a used length may say
 * @num: ring descriptors the buffer takes (1 with an indirect table)
 * @next: the next free id while this one is free (the free list; unused
 *	with IN_ORDER)
 */
struct vring_desc_state_packed {
	void *data;
	void *indir_desc;
	void *ctx;
	u32 in_len;
	u16 num;
	u16 next;
};

/**
 * struct vring_virtqueue_packed - a packed ring and its driver-private state
 * @vring: the descriptor ring and the two event suppression structures
 * @next_avail_idx: where the next descriptor goes
 * @avail_wrap_counter: the driver's wrap counter (2.8.1) at next_avail_idx
 * @avail_used_flags: the AVAIL and USED bits that mark a descriptor
 *	available in the current lap: AVAIL = wrap counter, USED = inverse
 * @event_flags_shadow: the flags last meant for driver->flags
 * @driver_event_unfenced: the driver event structure was written and no
 *	full barrier followed yet
 * @batch_pending: IN_ORDER: a used descriptor named a later buffer than the
 *	oldest in flight, and get_buf is still returning that batch
 * @batch_last: IN_ORDER: the id of the batch's last buffer
 * @batch_len: IN_ORDER: the used length the device gave that last buffer
 * @desc_state: per buffer id: token, table, ctx, writable length, size
 * @queue: the ring allocation, if this code allocated it
 * @queue_size_in_bytes: size of @queue
 * @queue_dma: as struct vring_virtqueue_split's
 * @queue_dma_dev: likewise
 * @may_reduce_num: whether a resize may settle for a smaller ring
 */
struct vring_virtqueue_packed {
	struct vring_packed vring;
	u16 next_avail_idx;
	bool avail_wrap_counter;
	u16 avail_used_flags;
	u16 event_flags_shadow;
	bool driver_event_unfenced;
	bool batch_pending;
	u16 batch_last;
	u32 batch_len;
	struct vring_desc_state_packed *desc_state;
	void *queue;
	size_t queue_size_in_bytes;
	dma_addr_t queue_dma;
	struct device *queue_dma_dev;
	bool may_reduce_num;
};

/**
 * struct vring_virtqueue - a virtqueue and everything behind it
 * @vq: the public part
 * @packed_ring: the ring uses the packed layout (@packed, not @split)
 * @indirect: indirect tables may be used (INDIRECT_DESC and not a ctx queue)
 * @event: VIRTIO_RING_F_EVENT_IDX was negotiated
 * @in_order: VIRTIO_F_IN_ORDER was negotiated (see "In-order queues" below)
 * @weak_barriers: the device is another CPU rather than real hardware
 * @detour: what takes adds off the fast path, one bit each, so that the
 *	add path tests one byte for all: VRING_DETOUR_BROKEN, the device
 *	misbehaved or was told to stop and nothing more goes in (read it
 *	through vring_broken()); VRING_DETOUR_MAP, buffers go through the
 *	DMA API or are premapped (see "The DMA API" below)
 * @use_dma_api: VIRTIO_F_ACCESS_PLATFORM: buffers, tables and the ring are
 *	mapped for @dma_dev (vring_use_dma_api())
 * @premapped: virtqueue_set_dma_premapped(): the caller maps buffers and
 *	gives their sg_dma_address(); the queue maps only its tables
 * @dma_dev: the device the DMA API maps for
 * @we_own_ring: the ring memory was allocated here (resize, reset, free)
 * @event_triggered: an interrupt came since callbacks were last enabled
 * @free_head: split: first free descriptor, the free list running through
 *	desc_extra (IN_ORDER: desc_extra[].next is always the ring-order
 *	successor, so this is where the last buffer ended); packed: first free
 *	buffer id, through desc_state (unused with IN_ORDER)
 * @num_added: split: buffers, packed: descriptors made available since the
 *	last kick decision
 * @last_used_idx: the next used element to consume; packed: its offset, with
 *	the used wrap counter in bit VRING_PACKED_EVENT_F_WRAP_CTR
 * @notify: how to tell the device there is work
 * @split: the split layout's ring and private state
 * @packed: the packed layout's ring and private state
 *
 * In-order queues (VIRTIO_F_IN_ORDER, chosen at creation): the device uses
 * buffers in the order they were made available (virtio 6.2), so the driver
 * allocates in ring order and needs no free list.  Split: descriptors are
 * taken from offset 0 on, wrapping, each buffer where the previous one
 * ended, and a chain's next is x + 1, or 0 at the end of the table
 * (2.7.5.2); indirect tables are sequential (2.7.5.3.1).  Packed: a
 * buffer's id is the offset of its first descriptor in the ring, so ids too
 * go in ring order.  Either way the buffers in flight are one run in ring
 * order, the oldest at last_used_idx.
 *
 * The device may answer a whole batch with one used entry (2.7.9, 2.8.8):
 * its id names the batch's last buffer, every buffer before it back to the
 * oldest in flight is used too, and is taken to have been used completely.
 * Split: the entry sits at the used slot of the batch's first buffer and
 * used->idx moves by the number of buffers in the batch.  Packed: the used
 * descriptor overwrites the batch's first descriptor and the device skips
 * all the batch's descriptors.  get_buf still returns one buffer per call:
 * it remembers the batch (split->batch_left, packed->batch_pending) and
 * returns the batch's buffers oldest first, each but the last with its
 * full device-writable length (desc_state[].in_len), the last with the
 * length the device gave.  last_used_idx moves one buffer (split: one used
 * index; packed: the buffer's descriptors) per call, so the event index and
 * poll cookies keep counting exactly what they count without batches.
 *
 * A used entry whose id is not a buffer in flight, or (split) names a
 * buffer later than the used index published so far can cover, means the
 * device used buffers out of order: the queue is broken, with a message.
 */
struct vring_virtqueue {
	struct virtqueue vq;

	bool packed_ring;
	bool indirect;
	bool event;
	bool in_order;
	bool weak_barriers;
	u8 detour;
	bool use_dma_api;
	bool premapped;
	bool we_own_ring;
	bool event_triggered;

	unsigned int free_head;
	unsigned int num_added;
	u16 last_used_idx;

	bool (*notify)(struct virtqueue *vq);
	struct device *dma_dev;

	union {
		struct vring_virtqueue_split split;
		struct vring_virtqueue_packed packed;
	};
};

#define to_vvq(_vq)	container_of(_vq, struct vring_virtqueue, vq)

#define VRING_DETOUR_BROKEN	0x1
#define VRING_DETOUR_MAP	0x2

static inline bool vring_broken(const struct vring_virtqueue *vq)
{
	return READ_ONCE(vq->detour) & VRING_DETOUR_BROKEN;
}

/* Only the broken bit changes once buffers are in flight. */
static inline void vring_set_broken(struct vring_virtqueue *vq, bool broken)
{
	u8 detour = READ_ONCE(vq->detour);

	WRITE_ONCE(vq->detour, broken ? detour | VRING_DETOUR_BROKEN :
				 detour & ~VRING_DETOUR_BROKEN);
}

/*
 * The device broke a rule: say what and on which queue, and stop using the
 * queue.  Every later add fails with -EIO and every get_buf returns NULL.
 */
#define vring_bad(_vq, fmt, ...)					\
	do {								\
		dev_err(&(_vq)->vq.vdev->dev, "%s: " fmt "\n",		\
			(_vq)->vq.name ? (_vq)->vq.name : "vq",		\
			##__VA_ARGS__);					\
		vring_set_broken(_vq, true);				\
	} while (0)

/*
 * avail_event lives just past the used ring's elements.  Reach it through a
 * pointer rather than uapi's vring_avail_event(), whose cast in place upsets
 * gcc's -Wstrict-aliasing when built without -fno-strict-aliasing.
 */
static inline __virtio16 *vring_avail_event_ptr(const struct vring *vr)
{
	return (__virtio16 *)&vr->used->ring[vr->num];
}

/* The number of entries in the ring, whatever its layout. */
static unsigned int vring_num(const struct vring_virtqueue *vq)
{
	return vq->packed_ring ? vq->packed.vring.num : vq->split.vring.num;
}

static bool virtqueue_use_indirect(const struct vring_virtqueue *vq,
				   unsigned int total_sg)
{
	/* A table saves ring slots only when there is more than one sg. */
	return vq->indirect && total_sg > 1 && vq->vq.num_free;
}

/* The entry after @sg, which does not end its list: past a chain link. */
static __always_inline struct scatterlist *vring_sg_step(struct scatterlist *sg)
{
	sg++;
	if (unlikely(sg_is_chain(sg)))
		sg = sg_chain_ptr(sg);
	return sg;
}

/*
 * The scatterlist entry to add after @sg: NULL when @sg ends its list or
 * there is no @room for more.  The loops over a buffer's entries step with
 * it, checking the room for the first entry of each list before they start:
 * sg_next()'s NULL and the bound are then tested in one place, where the
 * entry's own flags are at hand.
 */
static __always_inline struct scatterlist *
vring_sg_after(struct scatterlist *sg, bool room)
{
	if (sg_is_last(sg) || !room)
		return NULL;
	return vring_sg_step(sg);
}

/*
 * Fewer than @total_sg descriptors are free, either layout: -ENOSPC.  As
 * Linux does, a driver blocked on a full ring with output pending gets the
 * device prodded once more.
 */
static noinline int vring_no_room(struct vring_virtqueue *vq,
				  unsigned int total_sg, unsigned int out_sgs)
{
	pr_debug("%s: need %u descriptors, %u free\n",
		 vq->vq.name, total_sg, vq->vq.num_free);
	if (out_sgs)
		vq->notify(&vq->vq);
	return -ENOSPC;
}

/* An indirect table of @total_sg descriptors of @size bytes: one kmalloc. */
static void *alloc_indirect(unsigned int total_sg, size_t size, gfp_t gfp)
{
	/*
	 * The device finds the table by virt_to_phys(), which needs a
	 * directly mapped address: no highmem.
	 */
	gfp &= ~__GFP_HIGHMEM;

	return kmalloc_array(total_sg, size, gfp);
}

/*
 * The DMA API.
 *
 * A device with VIRTIO_F_ACCESS_PLATFORM reaches memory through the
 * platform's DMA translation (an IOMMU, bounce buffers): the driver must
 * put bus addresses from the DMA API in the ring, not physical ones
 * (vring_use_dma_api()).  Such a queue, or one whose caller maps its own
 * buffers (virtqueue_set_dma_premapped()), has VRING_DETOUR_MAP in
 * @detour, and its adds leave the fast path for virtqueue_add_mapped():
 * it maps every scatterlist entry first (the direction the device uses
 * it: DMA_TO_DEVICE for what it reads, DMA_FROM_DEVICE for what it
 * writes), then fills the ring from those addresses with the same code as
 * the fast path, and maps an indirect table (DMA_TO_DEVICE) once it is
 * filled, before the device can see it.  The mappings are kept in a
 * struct vring_dma_buf, the indirect table inside the same allocation,
 * whose pointer takes the place of the table pointer in the buffer's
 * state, tagged (vring_dma_tag()): a buffer detached with a table or
 * mappings always goes through the state's table test, so the fast path's
 * detach pays only a bit test, and only for a table.
 * Every failure (a mapping, the allocation, the ring full) undoes the
 * mappings that add made before anything is written to the ring: a
 * failed add leaves nothing mapped and nothing available.  A ring this
 * code allocates for such a queue is coherent DMA memory
 * (dma_alloc_coherent()), and the device is given its DMA addresses
 * (virtqueue_get_desc_addr() and friends).
 */

/**
 * struct vring_dma_map - one streaming mapping of a buffer part
 * @addr: the bus address
 * @len: its length
 * @dir: DMA_TO_DEVICE or DMA_FROM_DEVICE
 */
struct vring_dma_map {
	dma_addr_t addr;
	u32 len;
	u32 dir;
};

/**
 * struct vring_dma_buf - one buffer's mappings
 * @table: its indirect table, in this allocation; NULL: direct descriptors
 * @table_addr: the table's bus address, once mapped
 * @table_len: bytes of the table mapped (0: not mapped by the DMA API)
 * @nmaps: how many of @maps the DMA API mapped (0 when premapped: those
 *	are the caller's to unmap)
 * @maps: one per scatterlist entry, in order: the address the ring takes
 */
struct vring_dma_buf {
	void *table;
	dma_addr_t table_addr;
	u32 table_len;
	unsigned int nmaps;
	struct vring_dma_map maps[];
};

/* 6.12's rule: the platform decides unless the device has the quirk. */
static bool vring_use_dma_api(const struct virtio_device *vdev)
{
	return !virtio_has_dma_quirk(vdev);
}

/*
 * The address and length the ring takes for entry @k of a buffer (@sg):
 * the mapping's, or on the fast path (@blk NULL) the physical address.
 */
static __always_inline u64 vring_sg_addr(const struct vring_dma_buf *blk,
					 struct scatterlist *sg,
					 unsigned int k)
{
	return blk ? blk->maps[k].addr : (u64)sg_phys(sg);
}

/* Unmap what @blk holds and free it (its table with it). */
static void vring_dma_release(const struct vring_virtqueue *vq,
			      struct vring_dma_buf *blk)
{
	unsigned int k;

	if (blk->table_len)
		dma_unmap_single(vq->dma_dev, blk->table_addr, blk->table_len,
				 DMA_TO_DEVICE);
	for (k = 0; k < blk->nmaps; k++)
		dma_unmap_page(vq->dma_dev, blk->maps[k].addr,
			       blk->maps[k].len, blk->maps[k].dir);
	kfree(blk);
}

/*
 * What a buffer's state keeps in its table pointer: a plain indirect
 * table, or a struct vring_dma_buf (16-byte aligned) with bit 0 set, so
 * that telling them apart at detach costs the fast path no load.
 */
static inline void *vring_dma_tag(struct vring_dma_buf *blk)
{
	return (char *)blk + 1;
}

static inline void vring_free_indir(const struct vring_virtqueue *vq,
				    void *indir)
{
	if (unlikely((unsigned long)indir & 1))
		vring_dma_release(vq, (void *)((char *)indir - 1));
	else
		kfree(indir);
}

/* Map (or with premapped, take) each entry's address into @blk->maps. */
static int vring_map_bufs(const struct vring_virtqueue *vq,
			  struct vring_dma_buf *blk, struct scatterlist *sgs[],
			  unsigned int total_sg, unsigned int out_sgs,
			  unsigned int in_sgs)
{
	unsigned int n, k = 0;
	struct scatterlist *sg;

	for (n = 0; n < out_sgs + in_sgs; n++) {
		enum dma_data_direction dir = n < out_sgs ? DMA_TO_DEVICE :
							     DMA_FROM_DEVICE;

		for (sg = sgs[n]; sg && k < total_sg; sg = sg_next(sg)) {
			struct vring_dma_map *m = &blk->maps[k++];

			m->len = sg->length;
			m->dir = dir;
			if (vq->premapped) {
				m->addr = sg_dma_address(sg);
				continue;
			}
			m->addr = dma_map_page(vq->dma_dev, sg_page(sg),
					       sg->offset, sg->length, dir);
			if (dma_mapping_error(vq->dma_dev, m->addr)) {
				dev_dbg(&vq->vq.vdev->dev,
					"%s: mapping %u bytes failed\n",
					vq->vq.name, sg->length);
				return -ENOMEM;
			}
			blk->nmaps = k;
		}
	}
	return 0;
}

/* Map @blk's table, now filled with @len bytes, for the device to read. */
static int vring_map_table(const struct vring_virtqueue *vq,
			   struct vring_dma_buf *blk, u32 len)
{
	if (!vq->use_dma_api) {
		blk->table_addr = virt_to_phys(blk->table);
		return 0;
	}
	blk->table_addr = dma_map_single(vq->dma_dev, blk->table, len,
					 DMA_TO_DEVICE);
	if (dma_mapping_error(vq->dma_dev, blk->table_addr)) {
		dev_dbg(&vq->vq.vdev->dev, "%s: mapping a table failed\n",
			vq->vq.name);
		return -ENOMEM;
	}
	blk->table_len = len;
	return 0;
}

/*
 * A new struct vring_dma_buf for @total_sg entries, with room for a table
 * of as many descriptors of @desc_size bytes if @indirect.
 */
static struct vring_dma_buf *vring_dma_buf_alloc(unsigned int total_sg,
						 bool indirect,
						 size_t desc_size, gfp_t gfp)
{
	size_t head = ALIGN(sizeof(struct vring_dma_buf) +
			    total_sg * sizeof(struct vring_dma_map), 16);
	struct vring_dma_buf *blk;

	blk = kmalloc(head + (indirect ? total_sg * desc_size : 0),
		      gfp & ~__GFP_HIGHMEM);
	if (!blk)
		return NULL;
	blk->table = indirect ? (char *)blk + head : NULL;
	blk->table_addr = 0;
	blk->table_len = 0;
	blk->nmaps = 0;
	return blk;
}

/*
 * Ring memory: coherent DMA memory for @dma_dev (a queue using the DMA
 * API), else whole pages; *@addr is the address the device uses.
 */
static void *vring_alloc_ring(struct device *dma_dev, size_t bytes,
			      gfp_t gfp, dma_addr_t *addr)
{
	void *p;

	if (dma_dev)
		return dma_alloc_coherent(dma_dev, bytes, addr, gfp);
	p = alloc_pages_exact(bytes, gfp);
	if (p)
		*addr = virt_to_phys(p);
	return p;
}

static void vring_free_ring(struct device *dma_dev, size_t bytes, void *p,
			    dma_addr_t addr)
{
	if (dma_dev)
		dma_free_coherent(dma_dev, bytes, p, addr);
	else
		free_pages_exact(p, bytes);
}

/* The device's address of @ptr, in the ring at @queue (ours) or not. */
static dma_addr_t vring_ring_addr(const void *queue, dma_addr_t queue_dma,
				  const void *ptr)
{
	if (!queue)
		return virt_to_phys((void *)ptr);
	return queue_dma + ((const char *)ptr - (const char *)queue);
}

/*
 * Split ring: private state.
 */

/*
 * Forget every buffer: all descriptors free, indices back to zero.  The
 * free list links each descriptor to the next; in order, the last links
 * back to 0 and the list never changes: it is the ring order.
 */
static void virtqueue_init_split(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;
	unsigned int num = split->vring.num, i;

	for (i = 0; i < num; i++) {
		split->desc_extra[i].next = i + 1;
		split->desc_extra[i].flags = 0;
	}
	if (vq->in_order)
		split->desc_extra[num - 1].next = 0;
	memset(split->desc_state, 0, num * sizeof(*split->desc_state));

	vq->free_head = 0;
	vq->vq.num_free = num;
	vq->num_added = 0;
	WRITE_ONCE(vq->last_used_idx, 0);
	WRITE_ONCE(vq->event_triggered, false);

	split->avail_idx_shadow = 0;
	split->avail_flags_shadow = 0;
	split->used_idx_shadow = 0;
	split->used_event_unfenced = false;
	split->batch_left = 0;
	split->batch_len = 0;

	/* Nobody to call back: ask the device not to interrupt. */
	if (!vq->vq.callback) {
		split->avail_flags_shadow = VRING_AVAIL_F_NO_INTERRUPT;
		if (!vq->event)
			WRITE_ONCE(split->vring.avail->flags,
				   cpu_to_virtio16(vq->vq.vdev,
						   split->avail_flags_shadow));
	}
}

/* Back to an empty ring after a queue reset: the shared indices too. */
static void virtqueue_reinit_split(struct vring_virtqueue *vq)
{
	struct vring *vr = &vq->split.vring;

	WRITE_ONCE(vr->avail->flags, 0);
	WRITE_ONCE(vr->avail->idx, 0);
	WRITE_ONCE(vring_used_event(vr), 0);
	WRITE_ONCE(vr->used->flags, 0);
	WRITE_ONCE(vr->used->idx, 0);
	WRITE_ONCE(*vring_avail_event_ptr(vr), 0);

	virtqueue_init_split(vq);
}

static int vring_alloc_state_split(struct vring_virtqueue_split *split)
{
	unsigned int num = split->vring.num;

	/* Zeroed by virtqueue_init_split(), which every caller runs next. */
	split->desc_state = kmalloc_array(num, sizeof(*split->desc_state),
					  GFP_KERNEL);
	if (!split->desc_state)
		return -ENOMEM;

	split->desc_extra = kmalloc_array(num, sizeof(*split->desc_extra),
					  GFP_KERNEL);
	if (!split->desc_extra) {
		kfree(split->desc_state);
		split->desc_state = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Free the state arrays, and the ring itself if @own_ring. */
static void vring_free_split(struct vring_virtqueue_split *split,
			     bool own_ring)
{
	if (own_ring && split->queue)
		vring_free_ring(split->queue_dma_dev, split->queue_size_in_bytes,
				split->queue, split->queue_dma);
	kfree(split->desc_state);
	kfree(split->desc_extra);
	split->queue = NULL;
	split->desc_state = NULL;
	split->desc_extra = NULL;
}

/*
 * Allocate a zeroed ring of @num entries (fewer if @may_reduce_num and
 * memory is short, halving while the ring is larger than a page) and lay it
 * out with vring_init().
 *
 * vring_init() puts the used ring at an address aligned to @vring_align, so
 * vring_size() bytes only suffice if the ring starts aligned.  A kernel's
 * alloc_pages_exact() gives whole pages; allocate enough slack to align the
 * start ourselves so any allocator will do.
 */
static int vring_alloc_queue_split(struct vring_virtqueue_split *split,
				   struct virtio_device *vdev,
				   unsigned int num, unsigned int vring_align,
				   bool may_reduce_num,
				   struct device *dma_dev)
{
	unsigned long start_align = max_t(unsigned long, vring_align,
					  PAGE_SIZE);
	size_t bytes;
	void *queue;

	for (;;) {
		size_t ring_bytes = vring_size(num, vring_align);
		gfp_t gfp = GFP_KERNEL | __GFP_ZERO;

		if (may_reduce_num && ring_bytes > PAGE_SIZE)
			gfp |= __GFP_NOWARN;
		bytes = PAGE_ALIGN(ring_bytes + start_align - 1);
		queue = vring_alloc_ring(dma_dev, bytes, gfp,
					 &split->queue_dma);
		if (queue)
			break;
		if (!may_reduce_num || ring_bytes <= PAGE_SIZE || num == 1)
			return -ENOMEM;
		num /= 2;
	}

	vring_init(&split->vring, num, PTR_ALIGN(queue, start_align),
		   vring_align);
	split->queue = queue;
	split->queue_size_in_bytes = bytes;
	split->queue_dma_dev = dma_dev;
	split->vring_align = vring_align;
	split->may_reduce_num = may_reduce_num;
	dev_dbg(&vdev->dev, "allocated a ring of %u entries\n", num);
	return 0;
}

/* Ring sizes the split layout can use: a power of 2, at most 32768. */
static bool vring_split_num_ok(struct virtio_device *vdev, unsigned int num,
			       unsigned int vring_align)
{
	if (!num || !is_power_of_2(num) || num > VRING_SPLIT_MAX_NUM) {
		dev_warn(&vdev->dev, "bad virtqueue length %u\n", num);
		return false;
	}
	if (!is_power_of_2(vring_align)) {
		dev_warn(&vdev->dev, "bad virtqueue alignment %u\n",
			 vring_align);
		return false;
	}
	return true;
}

/*
 * Split ring: the data path.
 */

/*
 * Fill an indirect table from the scatterlists: sequential entries, NEXT on
 * all but the last (2.7.5.3.1).  The device cannot see the table yet, so
 * plain stores.  Returns the entries written (at most @total_sg) and adds
 * the device-writable bytes to *@in_len.
 */
static __always_inline unsigned int
vring_fill_indirect_split(struct virtio_device *vdev, struct vring_desc *table,
			  struct scatterlist *sgs[], unsigned int total_sg,
			  unsigned int out_sgs, unsigned int in_sgs,
			  u64 *in_len, const struct vring_dma_buf *blk)
{
	struct vring_desc *d = table, *end = table + total_sg;
	struct scatterlist *sg;
	unsigned int n, count;
	u64 bytes = 0;

	for (n = 0; n < out_sgs + in_sgs && d < end; n++) {
		u16 flags = VRING_DESC_F_NEXT;

		if (n >= out_sgs)
			flags |= VRING_DESC_F_WRITE;
		for (sg = sgs[n]; sg; sg = vring_sg_after(sg, d < end)) {
			u32 len = sg->length;

			d->addr = cpu_to_virtio64(vdev, vring_sg_addr(blk, sg,
								      d - table));
			d->len = cpu_to_virtio32(vdev, len);
			d->flags = cpu_to_virtio16(vdev, flags);
			d->next = cpu_to_virtio16(vdev, d + 1 - table);
			d++;
			if (flags & VRING_DESC_F_WRITE)
				bytes += len;
		}
	}
	count = d - table;
	if (count)
		table[count - 1].flags &=
			cpu_to_virtio16(vdev, (u16)~VRING_DESC_F_NEXT);
	*in_len += bytes;
	return count;
}

/*
 * Descriptors come off the free list from free_head; in order that list is
 * the ring order, so a chain takes the run that starts where the last
 * buffer ended and its next fields are x + 1, or 0 past the end (2.7.5.2).
 * An indirect table's entries are always sequential (2.7.5.3.1).  @blk:
 * NULL on the fast path; from virtqueue_add_mapped(), the buffer's
 * mappings and table (whose mapping fails the add before the ring is
 * touched; the caller then releases @blk).
 */
static __always_inline int
virtqueue_add_split(struct vring_virtqueue *vq,
		    struct scatterlist *sgs[],
		    unsigned int total_sg,
		    unsigned int out_sgs,
		    unsigned int in_sgs,
		    void *data, void *ctx, gfp_t gfp,
		    struct vring_dma_buf *blk)
{
	struct virtio_device *vdev = vq->vq.vdev;
	struct vring_virtqueue_split *split = &vq->split;
	struct vring_desc_extra *extra = split->desc_extra;
	struct vring_desc_state_split *state;
	unsigned int head = vq->free_head;
	unsigned int i, n, prev = 0, count = 0;
	struct vring_desc *desc = NULL;
	struct scatterlist *sg;
	u16 flags, last_flags = 0;
	bool indirect = false;
	u64 in_len = 0;

	/* No chain may be longer than the ring, even an indirect one. */
	if (unlikely(total_sg > split->vring.num)) {
		pr_debug("%s: %u sgs cannot fit a ring of %u\n",
			 vq->vq.name, total_sg, split->vring.num);
		return -ENOSPC;
	}

	if (blk) {
		desc = blk->table;
		indirect = desc != NULL;
	} else if (virtqueue_use_indirect(vq, total_sg)) {
		desc = alloc_indirect(total_sg, sizeof(*desc), gfp);
		indirect = desc != NULL;
	}

	if (indirect) {
		count = vring_fill_indirect_split(vdev, desc, sgs, total_sg,
						  out_sgs, in_sgs, &in_len,
						  blk);
		if (unlikely(!count)) {
			if (!blk)
				kfree(desc);
			return -EINVAL;
		}
		if (blk) {
			int err = vring_map_table(vq, blk,
						  count * sizeof(*desc));

			if (err)
				return err;
		}
		goto add_head;
	}

	if (unlikely(vq->vq.num_free < total_sg))
		return vring_no_room(vq, total_sg, out_sgs);
	desc = split->vring.desc;
	i = head;

	for (n = 0; n < out_sgs + in_sgs && count < total_sg; n++) {
		flags = VRING_DESC_F_NEXT;
		if (n >= out_sgs)
			flags |= VRING_DESC_F_WRITE;

		for (sg = sgs[n]; sg;
		     sg = vring_sg_after(sg, count < total_sg)) {
			unsigned int next = extra[i].next;
			u32 len = sg->length;

			desc[i].addr = cpu_to_virtio64(vdev,
						vring_sg_addr(blk, sg, count));
			desc[i].len = cpu_to_virtio32(vdev, len);
			desc[i].flags = cpu_to_virtio16(vdev, flags);
			desc[i].next = cpu_to_virtio16(vdev, next);
			extra[i].flags = flags;
			if (flags & VRING_DESC_F_WRITE)
				in_len += len;
			last_flags = flags;
			prev = i;
			i = next;
			count++;
		}
	}

	if (unlikely(!count))
		return -EINVAL;

	/* The last descriptor ends the chain. */
	last_flags &= ~VRING_DESC_F_NEXT;
	desc[prev].flags = cpu_to_virtio16(vdev, last_flags);

add_head:
	if (indirect) {
		struct vring_desc *d = &split->vring.desc[head];

		d->addr = cpu_to_virtio64(vdev, blk ? blk->table_addr :
						      virt_to_phys(desc));
		d->len = cpu_to_virtio32(vdev,
					 count * sizeof(struct vring_desc));
		d->flags = cpu_to_virtio16(vdev, VRING_DESC_F_INDIRECT);
		d->next = cpu_to_virtio16(vdev, extra[head].next);
		extra[head].flags = VRING_DESC_F_INDIRECT;
		vq->free_head = extra[head].next;
		vq->vq.num_free--;
	} else {
		extra[prev].flags = last_flags;
		vq->free_head = i;
		vq->vq.num_free -= count;
	}

	state = &split->desc_state[head];
	state->data = data;
	state->indir_desc = blk ? vring_dma_tag(blk) : indirect ? desc : NULL;
	state->ctx = ctx;
	state->in_len = min_t(u64, in_len, U32_MAX);
	state->avail_pos = split->avail_idx_shadow;

	split->vring.avail->ring[split->avail_idx_shadow &
				 (split->vring.num - 1)] =
		cpu_to_virtio16(vdev, head);

	/* The device must see the chain and the slot before the index. */
	virtio_wmb(vq->weak_barriers);
	split->avail_idx_shadow++;
	WRITE_ONCE(split->vring.avail->idx,
		   cpu_to_virtio16(vdev, split->avail_idx_shadow));

	/*
	 * kick_prepare() compares 16-bit indices: never let 65536 additions
	 * pile up unseen, or the device could miss a wrap.
	 */
	if (unlikely(++vq->num_added == 0xffff))
		virtqueue_kick(&vq->vq);

	return 0;
}

static bool virtqueue_kick_prepare_split(struct vring_virtqueue *vq)
{
	struct virtio_device *vdev = vq->vq.vdev;
	struct vring *vr = &vq->split.vring;
	u16 new = vq->split.avail_idx_shadow;
	u16 old = new - vq->num_added;
	u16 flags;

	/*
	 * The new avail index must be visible before we read the device's
	 * wishes, or both sides could decide the other will act.
	 */
	virtio_mb(vq->weak_barriers);
	vq->num_added = 0;

	/* 2.7.10: 0 or 1 (NO_NOTIFY); 0 with VIRTIO_RING_F_EVENT_IDX. */
	flags = virtio16_to_cpu(vdev, READ_ONCE(vr->used->flags));
	if (unlikely(flags & ~(vq->event ? 0 : VRING_USED_F_NO_NOTIFY))) {
		vring_bad(vq, "used flags 0x%x: the device may set only %s",
			  flags, vq->event ? "0 with VIRTIO_RING_F_EVENT_IDX" :
			  "0 or 1");
		return false;
	}

	if (vq->event)
		return vring_need_event(virtio16_to_cpu(vdev,
					READ_ONCE(*vring_avail_event_ptr(vr))),
					new, old);

	return !(flags & VRING_USED_F_NO_NOTIFY);
}

/* Free a buffer's table (or DMA tag, vring_dma_tag()), if it has one. */
static inline void vring_drop_indir(const struct vring_virtqueue *vq,
				    void *indir)
{
	if (indir)
		vring_free_indir(vq, indir);
}

/*
 * Drop what the driver kept about a buffer but its table: the ctx goes to
 * *@ctx (if @ctx).  Only @data must be cleared (the head is then no longer
 * in flight): @indir_desc and @ctx mean something only while it is, and
 * every add sets them.  Returns the table for vring_drop_indir().
 */
static inline void *
vring_clear_state_split(struct vring_desc_state_split *state, void **ctx)
{
	if (ctx)
		*ctx = state->ctx;
	state->data = NULL;
	return state->indir_desc;
}

/*
 * Give the descriptors of the chain at @head back to the free list, using
 * only the private shadow.  Returns the buffer's table for
 * vring_drop_indir(): get_buf frees it last, so that only the token lives
 * across the call.
 */
static __always_inline void *detach_buf_split(struct vring_virtqueue *vq,
					      unsigned int head, void **ctx)
{
	struct vring_desc_extra *extra = vq->split.desc_extra;
	unsigned int i = head, n = 1;

	while (extra[i].flags & VRING_DESC_F_NEXT) {
		i = extra[i].next;
		n++;
	}
	extra[i].next = vq->free_head;
	vq->free_head = head;
	vq->vq.num_free += n;

	return vring_clear_state_split(&vq->split.desc_state[head], ctx);
}

/*
 * In order: the chain at @head is the oldest in flight, and its descriptors
 * simply become free: the free run grows behind free_head.
 */
static void detach_buf_split_in_order(struct vring_virtqueue *vq,
				      unsigned int head, void **ctx)
{
	struct vring_desc_state_split *state = &vq->split.desc_state[head];
	struct vring_desc_extra *extra = vq->split.desc_extra;
	unsigned int i = head, n = 1;

	while (extra[i].flags & VRING_DESC_F_NEXT) {
		i = extra[i].next;
		n++;
	}
	vq->vq.num_free += n;

	vring_drop_indir(vq, vring_clear_state_split(state, ctx));
}

/*
 * In order, the descriptors in flight are the run that ends just before
 * free_head: the oldest buffer's head is where that run starts.
 */
static inline unsigned int oldest_head_split_in_order(
					const struct vring_virtqueue *vq)
{
	return (vq->free_head + vq->vq.num_free) & (vq->split.vring.num - 1);
}

static bool more_used_split(const struct vring_virtqueue *vq)
{
	return READ_ONCE(vq->last_used_idx) !=
	       virtio16_to_cpu(vq->vq.vdev,
			       READ_ONCE(vq->split.vring.used->idx));
}

/*
 * Are used elements past @last_used, the used index we last read,
 * published?  Read used->idx afresh; a device that claims more than a ring
 * of used elements breaks the queue.
 */
static bool vring_used_refresh_split(struct vring_virtqueue *vq,
				     u16 last_used)
{
	struct vring_virtqueue_split *split = &vq->split;
	unsigned int num = split->vring.num;
	u16 used_idx, pending;

	/*
	 * Our used_event store must be visible before we read the index, or
	 * the device could miss it while we miss its new entries, and nobody
	 * would wake us.
	 */
	if (split->used_event_unfenced) {
		virtio_mb(vq->weak_barriers);
		split->used_event_unfenced = false;
	}
	used_idx = virtio16_to_cpu(vq->vq.vdev,
				   READ_ONCE(split->vring.used->idx));
	if (used_idx == last_used)
		return false;

	pending = used_idx - last_used;
	if (unlikely(pending > num)) {
		vring_bad(vq, "used idx %u is %u ahead of %u (ring %u)",
			  used_idx, pending, last_used, num);
		return false;
	}
	split->used_idx_shadow = used_idx;

	/* Read elements only after the index that published them. */
	virtio_rmb(vq->weak_barriers);
	return true;
}

/*
 * Is the used element at @last_used published?  Elements up to the used
 * index we last read are (and the read barrier that followed that read
 * orders them): take them without touching used->idx again.  Otherwise
 * look again (vring_used_refresh_split()).
 */
static inline bool vring_used_published_split(struct vring_virtqueue *vq,
					      u16 last_used)
{
	return last_used != vq->split.used_idx_shadow ||
	       vring_used_refresh_split(vq, last_used);
}

/*
 * A buffer was returned and last_used_idx moved to @last_used.  With
 * callbacks on, ask to be interrupted for the next element.  The full
 * barrier this needs is taken only before used->idx is next read, once per
 * batch instead of once per buffer.
 */
static inline void vring_used_event_next_split(struct vring_virtqueue *vq,
					       u16 last_used)
{
	struct vring_virtqueue_split *split = &vq->split;

	if (vq->event &&
	    !(split->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT)) {
		WRITE_ONCE(vring_used_event(&split->vring),
			   cpu_to_virtio16(vq->vq.vdev, last_used));
		split->used_event_unfenced = true;
	}
}

/*
 * The used element's id @id (with used length @used_len) broke a rule:
 * say which, break the queue, and return NULL for get_buf.
 */
static noinline void *vring_bad_used_split(struct vring_virtqueue *vq, u32 id,
					   u32 used_len)
{
	const struct vring_desc_state_split *state;

	if (id >= vq->split.vring.num) {
		vring_bad(vq, "id %u out of range", id);
		return NULL;
	}
	state = &vq->split.desc_state[id];
	if (!state->data)
		vring_bad(vq, "id %u is not a head in flight", id);
	else
		vring_bad(vq, "id %u used len %u > %u writable bytes",
			  id, used_len, state->in_len);
	return NULL;
}

static void *vring_get_buf_refresh_split(struct vring_virtqueue *vq,
					 unsigned int *len, void **ctx);

/*
 * get_buf, not in order.  Elements the used index last read covers come
 * first; reading it afresh goes out to vring_get_buf_refresh_split(), and
 * what breaks a rule to vring_bad_used_split(), both tail calls, so the
 * path that returns a buffer keeps no registers but the token's across its
 * one call (the table's kfree, last).
 */
static noinline void *virtqueue_get_buf_split(struct vring_virtqueue *vq,
					      unsigned int *len, void **ctx)
{
	struct virtio_device *vdev = vq->vq.vdev;
	struct vring_virtqueue_split *split = &vq->split;
	unsigned int num = split->vring.num;
	u16 last_used = vq->last_used_idx;
	struct vring_desc_state_split *state;
	vring_used_elem_t *elem;
	u32 id, used_len;
	void *data, *indir;

	if (last_used == split->used_idx_shadow)
		return vring_get_buf_refresh_split(vq, len, ctx);

	elem = &split->vring.used->ring[last_used & (num - 1)];
	id = virtio32_to_cpu(vdev, READ_ONCE(elem->id));
	used_len = virtio32_to_cpu(vdev, READ_ONCE(elem->len));

	if (unlikely(id >= num))
		return vring_bad_used_split(vq, id, used_len);
	state = &split->desc_state[id];
	data = state->data;
	if (unlikely(!data || used_len > state->in_len))
		return vring_bad_used_split(vq, id, used_len);

	indir = detach_buf_split(vq, id, ctx);
	last_used++;
	WRITE_ONCE(vq->last_used_idx, last_used);
	if (len)
		*len = used_len;

	vring_used_event_next_split(vq, last_used);
	vring_drop_indir(vq, indir);
	return data;
}

/*
 * get_buf has taken every element the used index last read covers: read
 * it again, and if it moved, take the next one.
 */
static noinline void *vring_get_buf_refresh_split(struct vring_virtqueue *vq,
						  unsigned int *len,
						  void **ctx)
{
	if (!vring_used_refresh_split(vq, vq->last_used_idx))
		return NULL;
	/* The shadow is past last_used now: this cannot come back here. */
	return virtqueue_get_buf_split(vq, len, ctx);
}

/*
 * In order: read the used element at last_used_idx.  Its id must be a head
 * in flight, and since it names the last buffer of a batch that starts with
 * the oldest in flight, the used index published must cover that whole
 * batch (2.7.9); anything else is a device using buffers out of order.
 * Returns the batch's size in buffers, with the last buffer's head in
 * *@id and its used length in *@used_len, or 0 if nothing is there or the
 * queue broke.
 */
static u16 vring_read_batch_split_in_order(struct vring_virtqueue *vq,
					   u16 last_used, u32 *id,
					   u32 *used_len)
{
	struct virtio_device *vdev = vq->vq.vdev;
	struct vring_virtqueue_split *split = &vq->split;
	unsigned int num = split->vring.num;
	struct vring_desc_state_split *state;
	vring_used_elem_t *elem;
	u16 batch, published;

	if (!vring_used_published_split(vq, last_used))
		return 0;

	elem = &split->vring.used->ring[last_used & (num - 1)];
	*id = virtio32_to_cpu(vdev, READ_ONCE(elem->id));
	*used_len = virtio32_to_cpu(vdev, READ_ONCE(elem->len));

	if (unlikely(*id >= num)) {
		vring_bad(vq, "id %u out of range", *id);
		return 0;
	}
	state = &split->desc_state[*id];
	if (unlikely(!state->data)) {
		vring_bad(vq, "id %u is not a head in flight (in order, head %u is next)",
			  *id, oldest_head_split_in_order(vq));
		return 0;
	}
	/* Heads in flight went in at avail positions last_used onwards. */
	batch = (u16)(state->avail_pos - last_used) + 1;
	published = split->used_idx_shadow - last_used;
	if (unlikely(batch > published)) {
		vring_bad(vq, "id %u used out of order: a batch from head %u to it is %u buffers, used idx %u moved only %u",
			  *id, oldest_head_split_in_order(vq), batch,
			  split->used_idx_shadow, published);
		return 0;
	}
	if (unlikely(*used_len > state->in_len)) {
		vring_bad(vq, "id %u used len %u > %u writable bytes",
			  *id, *used_len, state->in_len);
		return 0;
	}
	return batch;
}

/* In order: return the oldest buffer in flight, batch by batch. */
static void *virtqueue_get_buf_ctx_split_in_order(struct vring_virtqueue *vq,
						  unsigned int *len,
						  void **ctx)
{
	struct vring_virtqueue_split *split = &vq->split;
	u16 last_used = vq->last_used_idx, batch;
	u32 head, used_len;
	void *data;

	/*
	 * The buffers of a batch before its last were used completely: each
	 * comes back with its whole writable length, the last one with the
	 * length the device gave.  A batch of one is the oldest buffer.
	 */
	if (likely(!split->batch_left)) {
		batch = vring_read_batch_split_in_order(vq, last_used, &head,
							&used_len);
		if (!batch)
			return NULL;
		if (batch > 1) {
			split->batch_left = batch - 1;
			split->batch_len = used_len;
			head = oldest_head_split_in_order(vq);
			used_len = split->desc_state[head].in_len;
		}
	} else {
		head = oldest_head_split_in_order(vq);
		used_len = --split->batch_left ?
			   split->desc_state[head].in_len : split->batch_len;
	}

	data = split->desc_state[head].data;
	detach_buf_split_in_order(vq, head, ctx);
	last_used++;
	WRITE_ONCE(vq->last_used_idx, last_used);
	if (len)
		*len = used_len;

	vring_used_event_next_split(vq, last_used);
	return data;
}

static void virtqueue_disable_cb_split(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;

	if (split->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT)
		return;
	split->avail_flags_shadow |= VRING_AVAIL_F_NO_INTERRUPT;

	/* After an interrupt the device will not send another one unasked. */
	if (READ_ONCE(vq->event_triggered))
		return;

	if (vq->event)
		/*
		 * The event index cannot switch interrupts off; point it
		 * as far behind as possible (a full 16-bit lap away).
		 */
		WRITE_ONCE(vring_used_event(&split->vring),
			   cpu_to_virtio16(vq->vq.vdev,
					   vq->last_used_idx - 1));
	else
		WRITE_ONCE(split->vring.avail->flags,
			   cpu_to_virtio16(vq->vq.vdev,
					   split->avail_flags_shadow));
}

/* Turn interrupts back on (without a barrier); returns the opaque cookie. */
static unsigned int
virtqueue_enable_cb_prepare_split(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;
	struct virtio_device *vdev = vq->vq.vdev;
	u16 last_used = vq->last_used_idx;

	if (split->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT) {
		split->avail_flags_shadow &= ~VRING_AVAIL_F_NO_INTERRUPT;
		if (!vq->event)
			WRITE_ONCE(split->vring.avail->flags,
				   cpu_to_virtio16(vdev,
						   split->avail_flags_shadow));
	}
	if (vq->event)
		WRITE_ONCE(vring_used_event(&split->vring),
			   cpu_to_virtio16(vdev, last_used));
	return last_used;
}

static bool virtqueue_poll_split(const struct vring_virtqueue *vq,
				 unsigned int last_used_idx)
{
	return (u16)last_used_idx !=
	       virtio16_to_cpu(vq->vq.vdev,
			       READ_ONCE(vq->split.vring.used->idx));
}

static bool virtqueue_enable_cb_delayed_split(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;
	struct virtio_device *vdev = vq->vq.vdev;
	u16 last_used = vq->last_used_idx;
	u16 bufs, used_idx;

	if (split->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT) {
		split->avail_flags_shadow &= ~VRING_AVAIL_F_NO_INTERRUPT;
		if (!vq->event)
			WRITE_ONCE(split->vring.avail->flags,
				   cpu_to_virtio16(vdev,
						   split->avail_flags_shadow));
	}

	/* Interrupt once about three quarters of what is out has come back. */
	bufs = (u16)(split->avail_idx_shadow - last_used) * 3 / 4;
	virtio_store_mb(vq->weak_barriers, &vring_used_event(&split->vring),
			cpu_to_virtio16(vdev, last_used + bufs));

	used_idx = virtio16_to_cpu(vdev, READ_ONCE(split->vring.used->idx));
	return (u16)(used_idx - last_used) <= bufs;
}

/*
 * In order, the newest buffer's chain ends just before free_head: walk back
 * while the descriptor before has NEXT set (the previous chain's last one
 * has not).  Returns its head and sets *@descs to its length.
 */
static unsigned int newest_head_split_in_order(const struct vring_virtqueue *vq,
					       unsigned int *descs)
{
	const struct vring_desc_extra *extra = vq->split.desc_extra;
	unsigned int mask = vq->split.vring.num - 1;
	unsigned int in_flight = vq->split.vring.num - vq->vq.num_free;
	unsigned int head = (vq->free_head - 1) & mask, n = 1;

	while (n < in_flight &&
	       (extra[(head - 1) & mask].flags & VRING_DESC_F_NEXT)) {
		head = (head - 1) & mask;
		n++;
	}
	*descs = n;
	return head;
}

/*
 * In order, take back the newest buffer first: free_head moves back to its
 * head and the avail index back past it, as if it had never been added, so
 * what stays in flight is still one run in ring order.  Had the device used
 * it in a batch get_buf is still returning, that batch now ends with the
 * buffer before it, which counts as used completely.
 */
static void *detach_unused_buf_split_in_order(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;
	u16 in_flight = split->avail_idx_shadow - vq->last_used_idx;
	unsigned int head, n;
	void *data;

	if (vq->vq.num_free == split->vring.num)
		return NULL;

	head = newest_head_split_in_order(vq, &n);
	data = split->desc_state[head].data;
	if (WARN_ON(!data))
		return NULL;

	vring_drop_indir(vq, vring_clear_state_split(&split->desc_state[head],
						     NULL));
	vq->free_head = head;
	vq->vq.num_free += n;
	split->avail_idx_shadow--;
	WRITE_ONCE(split->vring.avail->idx,
		   cpu_to_virtio16(vq->vq.vdev, split->avail_idx_shadow));

	if (split->batch_left == in_flight && --split->batch_left) {
		head = newest_head_split_in_order(vq, &n);
		split->batch_len = split->desc_state[head].in_len;
	}
	return data;
}

static void *virtqueue_detach_unused_buf_split(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_split *split = &vq->split;
	unsigned int i;
	void *data;

	if (vq->in_order)
		return detach_unused_buf_split_in_order(vq);

	for (i = 0; i < split->vring.num; i++) {
		data = split->desc_state[i].data;
		if (!data)
			continue;
		vring_drop_indir(vq, detach_buf_split(vq, i, NULL));
		/* The device is stopped: take the entry back off the ring. */
		split->avail_idx_shadow--;
		WRITE_ONCE(split->vring.avail->idx,
			   cpu_to_virtio16(vq->vq.vdev,
					   split->avail_idx_shadow));
		return data;
	}
	WARN_ON(vq->vq.num_free != split->vring.num);
	return NULL;
}

/* Swap in a freshly allocated ring of @num entries; the queue is empty. */
static int virtqueue_resize_split(struct vring_virtqueue *vq, u32 num)
{
	struct vring_virtqueue_split fresh = {};
	int err;

	err = vring_alloc_queue_split(&fresh, vq->vq.vdev, num,
				      vq->split.vring_align,
				      vq->split.may_reduce_num,
				      vq->use_dma_api ? vq->dma_dev : NULL);
	if (!err) {
		err = vring_alloc_state_split(&fresh);
		if (err)
			vring_free_split(&fresh, true);
	}
	if (err) {
		/* Keep the old ring, emptied like a reset. */
		virtqueue_reinit_split(vq);
		return -ENOMEM;
	}

	vring_free_split(&vq->split, vq->we_own_ring);
	vq->split = fresh;
	virtqueue_init_split(vq);
	return 0;
}

/*
 * Packed ring: private state.
 *
 * One ring carries both directions (2.8): the driver writes available
 * descriptors at next_avail_idx, the device overwrites them with used ones
 * from its own position, and the AVAIL and USED flag bits, compared with
 * each side's wrap counter, tell which is which (2.8.1).  Buffer ids come
 * from a free list private to the driver (desc_state[].next), one id per
 * buffer however many descriptors it takes.  num_free counts ring
 * descriptors, and every buffer in flight holds at least one, so while a
 * descriptor is free an id is free too.
 *
 * last_used_idx keeps the used position in off_wrap form: the offset, and
 * the used wrap counter in bit VRING_PACKED_EVENT_F_WRAP_CTR, ready for the
 * driver event suppression structure and for enable_cb_prepare().
 *
 * With VIRTIO_F_IN_ORDER there is no free list: a buffer's id is the offset
 * of its first descriptor, and the oldest buffer in flight is the one at
 * last_used_idx.  One used descriptor may retire a batch (2.8.8).
 */

static inline u16 packed_off(u16 off_wrap)
{
	return off_wrap & ~(1 << VRING_PACKED_EVENT_F_WRAP_CTR);
}

static inline bool packed_wrap(u16 off_wrap)
{
	return off_wrap >> VRING_PACKED_EVENT_F_WRAP_CTR;
}

static inline u16 packed_off_wrap(u16 off, bool wrap)
{
	return off | (u16)wrap << VRING_PACKED_EVENT_F_WRAP_CTR;
}

/* The AVAIL and USED bits of a descriptor made available in lap @wrap. */
static inline u16 packed_avail_used_flags(bool wrap)
{
	return wrap ? 1 << VRING_PACKED_DESC_F_AVAIL :
		      1 << VRING_PACKED_DESC_F_USED;
}

/* Zero every part of the ring: how a packed ring starts (2.8.10.1). */
static void vring_zero_packed(const struct vring_packed *vr)
{
	unsigned int i;

	for (i = 0; i < vr->num; i++) {
		WRITE_ONCE(vr->desc[i].addr, 0);
		WRITE_ONCE(vr->desc[i].len, 0);
		WRITE_ONCE(vr->desc[i].id, 0);
		WRITE_ONCE(vr->desc[i].flags, 0);
	}
	WRITE_ONCE(vr->driver->off_wrap, 0);
	WRITE_ONCE(vr->driver->flags, 0);
	WRITE_ONCE(vr->device->off_wrap, 0);
	WRITE_ONCE(vr->device->flags, 0);
}

/* Forget every buffer: all ids free, both wrap counters at 1 (2.8.1). */
static void virtqueue_init_packed(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int num = packed->vring.num, i;

	memset(packed->desc_state, 0, num * sizeof(*packed->desc_state));
	for (i = 0; i < num; i++)
		packed->desc_state[i].next = i + 1;

	vq->free_head = 0;
	vq->vq.num_free = num;
	vq->num_added = 0;
	WRITE_ONCE(vq->last_used_idx, packed_off_wrap(0, true));
	WRITE_ONCE(vq->event_triggered, false);

	packed->next_avail_idx = 0;
	packed->avail_wrap_counter = true;
	packed->avail_used_flags = packed_avail_used_flags(true);
	packed->driver_event_unfenced = false;
	WRITE_ONCE(packed->batch_pending, false);
	packed->batch_last = 0;
	packed->batch_len = 0;

	/* Nobody to call back: ask the device not to notify. */
	packed->event_flags_shadow = vq->vq.callback ?
				     VRING_PACKED_EVENT_FLAG_ENABLE :
				     VRING_PACKED_EVENT_FLAG_DISABLE;
	WRITE_ONCE(packed->vring.driver->flags,
		   cpu_to_le16(packed->event_flags_shadow));
}

/* Back to an empty, zeroed ring after a queue reset. */
static void virtqueue_reinit_packed(struct vring_virtqueue *vq)
{
	vring_zero_packed(&vq->packed.vring);
	virtqueue_init_packed(vq);
}

static int vring_alloc_state_packed(struct vring_virtqueue_packed *packed)
{
	packed->desc_state = kmalloc_array(packed->vring.num,
					   sizeof(*packed->desc_state),
					   GFP_KERNEL);
	return packed->desc_state ? 0 : -ENOMEM;
}

/* Free the state array, and the ring itself if @own_ring. */
static void vring_free_packed(struct vring_virtqueue_packed *packed,
			      bool own_ring)
{
	if (own_ring && packed->queue)
		vring_free_ring(packed->queue_dma_dev,
				packed->queue_size_in_bytes, packed->queue,
				packed->queue_dma);
	kfree(packed->desc_state);
	packed->queue = NULL;
	packed->desc_state = NULL;
}

/*
 * Allocate a zeroed ring of @num entries (fewer if @may_reduce_num and
 * memory is short, halving while the ring is larger than a page), page
 * aligned as the split ring is, and lay it out with vring_packed_init().
 */
static int vring_alloc_queue_packed(struct vring_virtqueue_packed *packed,
				    struct virtio_device *vdev,
				    unsigned int num, bool may_reduce_num,
				    struct device *dma_dev)
{
	size_t bytes;
	void *queue;

	for (;;) {
		size_t ring_bytes = vring_packed_size(num);
		gfp_t gfp = GFP_KERNEL | __GFP_ZERO;

		if (may_reduce_num && ring_bytes > PAGE_SIZE)
			gfp |= __GFP_NOWARN;
		bytes = PAGE_ALIGN(ring_bytes + PAGE_SIZE - 1);
		queue = vring_alloc_ring(dma_dev, bytes, gfp,
					 &packed->queue_dma);
		if (queue)
			break;
		if (!may_reduce_num || ring_bytes <= PAGE_SIZE || num == 1)
			return -ENOMEM;
		num /= 2;
	}

	vring_packed_init(&packed->vring, num, PTR_ALIGN(queue, PAGE_SIZE));
	packed->queue = queue;
	packed->queue_size_in_bytes = bytes;
	packed->queue_dma_dev = dma_dev;
	packed->may_reduce_num = may_reduce_num;
	dev_dbg(&vdev->dev, "allocated a packed ring of %u entries\n", num);
	return 0;
}

/* Ring sizes the packed layout can use: 1 to 32768, any (2.8). */
static bool vring_packed_num_ok(struct virtio_device *vdev, unsigned int num)
{
	if (!num || num > VRING_PACKED_MAX_NUM) {
		dev_warn(&vdev->dev, "bad packed virtqueue length %u\n", num);
		return false;
	}
	return true;
}

/*
 * Packed ring: the data path.
 */

/* Everything of a descriptor but its flags, which publish it. */
static inline void vring_write_desc_packed(struct vring_packed_desc *desc,
					   u64 addr, u32 len, u16 id)
{
	WRITE_ONCE(desc->addr, cpu_to_le64(addr));
	WRITE_ONCE(desc->len, cpu_to_le32(len));
	WRITE_ONCE(desc->id, cpu_to_le16(id));
}

/*
 * The id for a buffer whose first descriptor goes at @head: the first free
 * one, or in order the offset itself.
 */
static inline u16 vring_id_packed(const struct vring_virtqueue *vq, u16 head)
{
	return vq->in_order ? head : vq->free_head;
}

/*
 * Buffer @id now takes @descs ring descriptors from @head, and everything
 * but the head's flags is written: take the id off the free list and hand
 * the buffer over.  The head's flags go last, after a write barrier, so the
 * device never sees part of a chain (2.8.6, 2.8.21.1.1).
 */
static inline void virtqueue_expose_packed(struct vring_virtqueue *vq,
					   u16 head, u16 head_flags, u16 id,
					   u16 descs)
{
	struct vring_virtqueue_packed *packed = &vq->packed;

	/* With IN_ORDER nothing reads free_head: no need for a branch. */
	vq->free_head = packed->desc_state[id].next;
	packed->desc_state[id].num = descs;
	vq->vq.num_free -= descs;

	virtio_wmb(vq->weak_barriers);
	WRITE_ONCE(packed->vring.desc[head].flags, cpu_to_le16(head_flags));

	/* Bounded once a lap, by vring_new_lap_packed(). */
	vq->num_added += descs;
}

/*
 * next_avail_idx passes the end of the ring: the lap changes, and with it
 * the AVAIL/USED bits of a descriptor made available (2.8.1).  Returns the
 * new lap's bits for @wrap, the new wrap counter.
 *
 * num_added stops here too: past 2 * num, kick_prepare() knows every
 * position was passed and needs no exact count.  Each descriptor made
 * available moves next_avail_idx by one, so between two laps num_added
 * grows by at most num, plus the rest of the add that crossed the end (at
 * most num more): bounded at the lap change it stays below 4 * num, and
 * never overflows, without a test on every add.
 */
static inline u16 vring_new_lap_packed(struct vring_virtqueue *vq, bool wrap)
{
	unsigned int most = 2 * vq->packed.vring.num;

	if (vq->num_added > most)
		vq->num_added = most;
	return packed_avail_used_flags(wrap);
}

/* The buffer goes into an indirect table: one ring descriptor. */
static __always_inline int
virtqueue_add_indirect_packed(struct vring_virtqueue *vq,
			      struct vring_packed_desc *table,
			      struct scatterlist *sgs[],
			      unsigned int total_sg,
			      unsigned int out_sgs,
			      unsigned int in_sgs,
			      void *data, void *ctx,
			      struct vring_dma_buf *blk)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	u16 head = packed->next_avail_idx, id = vring_id_packed(vq, head);
	struct vring_desc_state_packed *state = &packed->desc_state[id];
	u16 head_flags = VRING_DESC_F_INDIRECT | packed->avail_used_flags;
	struct vring_packed_desc *d = table, *end = table + total_sg;
	struct scatterlist *sg;
	unsigned int n, count;
	u64 in_len = 0;

	/* Entries are sequential; WRITE is their only flag (2.8.7, 2.8.19). */
	for (n = 0; n < out_sgs + in_sgs && d < end; n++) {
		u16 flags = n < out_sgs ? 0 : VRING_DESC_F_WRITE;

		sg = sgs[n];
		if (!sg)
			continue;
		for (;;) {
			/* Not the device's yet: plain stores. */
			u32 len = sg->length;

			d->addr = cpu_to_le64(vring_sg_addr(blk, sg, d - table));
			d->len = cpu_to_le32(len);
			d->id = 0;
			d->flags = cpu_to_le16(flags);
			d++;
			if (flags)
				in_len += len;
			/* vring_sg_after()'s tests, ending the loop itself. */
			if (sg_is_last(sg) || d == end)
				break;
			sg = vring_sg_step(sg);
		}
	}
	count = d - table;

	if (unlikely(!count)) {
		if (!blk)
			kfree(table);
		return -EINVAL;
	}
	if (blk) {
		int err = vring_map_table(vq, blk, count * sizeof(*table));

		if (err)
			return err;
	}

	vring_write_desc_packed(&packed->vring.desc[head],
				blk ? blk->table_addr : virt_to_phys(table),
				count * sizeof(*table), id);

	state->data = data;
	state->indir_desc = blk ? vring_dma_tag(blk) : table;
	state->ctx = ctx;
	state->in_len = min_t(u64, in_len, U32_MAX);

	if (++packed->next_avail_idx >= packed->vring.num) {
		packed->next_avail_idx = 0;
		packed->avail_wrap_counter = !packed->avail_wrap_counter;
		packed->avail_used_flags =
			vring_new_lap_packed(vq, packed->avail_wrap_counter);
	}

	virtqueue_expose_packed(vq, head, head_flags, id, 1);
	return 0;
}

/* The buffer goes into consecutive ring descriptors. */
static __always_inline int
virtqueue_add_direct_packed(struct vring_virtqueue *vq,
			    struct scatterlist *sgs[],
			    unsigned int total_sg,
			    unsigned int out_sgs,
			    unsigned int in_sgs,
			    void *data, void *ctx,
			    struct vring_dma_buf *blk)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	struct vring_packed_desc *desc = packed->vring.desc;
	unsigned int num = packed->vring.num, n, count = 0;
	u16 head = packed->next_avail_idx, i = head, prev = head;
	u16 avail_used_flags = packed->avail_used_flags;
	bool wrap = packed->avail_wrap_counter;
	u16 id = vring_id_packed(vq, head), flags = 0, head_flags = 0;
	struct vring_desc_state_packed *state;
	struct scatterlist *sg;
	u64 in_len = 0;

	if (unlikely(vq->vq.num_free < total_sg))
		return vring_no_room(vq, total_sg, out_sgs);

	/*
	 * Consecutive ring descriptors, NEXT on all but the last, the id in
	 * every one (the device reads it from the last, 2.8.6).  Past the
	 * end of the ring the lap changes, and with it the AVAIL/USED bits.
	 */
	for (n = 0; n < out_sgs + in_sgs && count < total_sg; n++) {
		u16 write = n < out_sgs ? 0 : VRING_DESC_F_WRITE;

		for (sg = sgs[n]; sg;
		     sg = vring_sg_after(sg, count < total_sg)) {
			flags = avail_used_flags | write;
			if (++count < total_sg)
				flags |= VRING_DESC_F_NEXT;

			vring_write_desc_packed(&desc[i],
						vring_sg_addr(blk, sg,
							      count - 1),
						sg->length, id);
			if (count == 1)
				head_flags = flags;
			else
				WRITE_ONCE(desc[i].flags, cpu_to_le16(flags));
			if (write)
				in_len += sg->length;

			prev = i;
			if (++i >= num) {
				i = 0;
				wrap = !wrap;
				avail_used_flags =
					vring_new_lap_packed(vq, wrap);
			}
		}
	}

	if (unlikely(!count))
		return -EINVAL;

	/* The scatterlists held fewer entries than promised: end there. */
	if (unlikely(count < total_sg)) {
		flags &= ~VRING_DESC_F_NEXT;
		if (prev == head)
			head_flags = flags;
		else
			WRITE_ONCE(desc[prev].flags, cpu_to_le16(flags));
	}

	state = &packed->desc_state[id];
	state->data = data;
	state->indir_desc = blk ? vring_dma_tag(blk) : NULL;
	state->ctx = ctx;
	state->in_len = min_t(u64, in_len, U32_MAX);

	packed->next_avail_idx = i;
	packed->avail_wrap_counter = wrap;
	packed->avail_used_flags = avail_used_flags;

	virtqueue_expose_packed(vq, head, head_flags, id, count);
	return 0;
}

/*
 * The table or not is decided before anything of the ring's state is read,
 * so that nothing read before the table's allocation has to be kept across
 * it.
 */
static __always_inline int
virtqueue_add_packed(struct vring_virtqueue *vq,
		     struct scatterlist *sgs[],
		     unsigned int total_sg,
		     unsigned int out_sgs,
		     unsigned int in_sgs,
		     void *data, void *ctx, gfp_t gfp,
		     struct vring_dma_buf *blk)
{
	/* No list may be longer than the ring, even in a table (2.8.18). */
	if (unlikely(total_sg > vq->packed.vring.num)) {
		pr_debug("%s: %u sgs cannot fit a ring of %u\n",
			 vq->vq.name, total_sg, vq->packed.vring.num);
		return -ENOSPC;
	}

	if (blk ? blk->table != NULL : virtqueue_use_indirect(vq, total_sg)) {
		struct vring_packed_desc *table;

		table = blk ? blk->table :
			alloc_indirect(total_sg, sizeof(*table), gfp);
		if (table)
			return virtqueue_add_indirect_packed(vq, table, sgs,
							     total_sg, out_sgs,
							     in_sgs, data, ctx,
							     blk);
	}
	return virtqueue_add_direct_packed(vq, sgs, total_sg, out_sgs, in_sgs,
					   data, ctx, blk);
}

/*
 * Does the device want a kick?  Its event suppression structure says
 * ENABLE, DISABLE, or (with EVENT_IDX) DESC: "when you make the descriptor
 * at off_wrap available" (2.8.10, 2.8.14).
 *
 * Positions along the ring are numbered modulo twice its size: the offset
 * in laps with wrap counter 1, the offset plus num in laps with 0.  The
 * num_added descriptors we made available end just before next_avail_idx;
 * the device's position is among them iff it lies fewer than num_added
 * positions behind.  This is vring_need_event() with a modulus of 2 * num
 * instead of 65536, and holds for any ring size.
 */
static bool virtqueue_kick_prepare_packed(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	struct vring_packed_desc_event *device = packed->vring.device;
	unsigned int num = packed->vring.num, added = vq->num_added;
	unsigned int new, event, behind;
	u16 flags, off_wrap;

	/*
	 * The new descriptors' flags must be visible before we read the
	 * device's wishes, or both sides could decide the other will act
	 * (2.8.21.3.1).
	 */
	virtio_mb(vq->weak_barriers);
	vq->num_added = 0;

	flags = le16_to_cpu(READ_ONCE(device->flags));
	if (flags == VRING_PACKED_EVENT_FLAG_DISABLE)
		return false;
	/* 2.8.10: 0x3 is reserved, and the other bits are not flags. */
	if (unlikely(flags > VRING_PACKED_EVENT_FLAG_DESC)) {
		vring_bad(vq, "device event flags 0x%x: reserved", flags);
		return false;
	}
	/* ENABLE, or DESC without EVENT_IDX: kick. */
	if (flags != VRING_PACKED_EVENT_FLAG_DESC || !vq->event)
		return true;

	off_wrap = le16_to_cpu(READ_ONCE(device->off_wrap));
	if (unlikely(packed_off(off_wrap) >= num))
		return true;

	new = packed->next_avail_idx + (packed->avail_wrap_counter ? 0 : num);
	event = packed_off(off_wrap) + (packed_wrap(off_wrap) ? 0 : num);
	/* How far behind new the event lies, minus one, modulo 2 * num. */
	behind = new > event ? new - event - 1 : new + 2 * num - event - 1;
	return behind < added;
}

/*
 * Drop what the driver kept about a buffer but its table: the ctx goes to
 * *@ctx (if @ctx).  Returns the table (or DMA tag) for vring_drop_indir().
 */
static inline void *
vring_clear_state_packed(struct vring_desc_state_packed *state, void **ctx)
{
	/* As vring_clear_state_split(): only @data must be cleared. */
	if (ctx)
		*ctx = state->ctx;
	state->data = NULL;
	return state->indir_desc;
}

/*
 * Give buffer @id's ring descriptors and id back, using only private
 * state.  Returns its table for vring_drop_indir(): get_buf frees it last,
 * so that only the token lives across the call.
 */
static __always_inline void *detach_buf_packed(struct vring_virtqueue *vq,
					       u16 id, void **ctx)
{
	struct vring_desc_state_packed *state = &vq->packed.desc_state[id];

	vq->vq.num_free += state->num;
	state->next = vq->free_head;
	vq->free_head = id;

	return vring_clear_state_packed(state, ctx);
}

/* Do a descriptor's @flags say used in lap @wrap: AVAIL and USED both @wrap? */
static inline bool packed_flags_used(u16 flags, bool wrap)
{
	u16 both = 1 << VRING_PACKED_DESC_F_AVAIL | 1 << VRING_PACKED_DESC_F_USED;

	/* -wrap: all ones in lap 1, zero in lap 0; both bits must match it. */
	return !((flags ^ -(u16)wrap) & both);
}

/*
 * Has the device marked the descriptor at @off used in lap @wrap?  Its
 * flags, as read, go to *@flags.
 */
static inline bool vring_desc_used_packed(const struct vring_virtqueue *vq,
					  u16 off, bool wrap, u16 *flags)
{
	*flags = le16_to_cpu(READ_ONCE(vq->packed.vring.desc[off].flags));
	return packed_flags_used(*flags, wrap);
}

static bool is_used_desc_packed(const struct vring_virtqueue *vq, u16 off,
				bool wrap)
{
	u16 flags;

	return vring_desc_used_packed(vq, off, wrap, &flags);
}

/*
 * In order, buffers of a batch whose used descriptor was read are used too,
 * though their own descriptors were skipped and do not say so.
 */
static bool more_used_packed(const struct vring_virtqueue *vq)
{
	u16 last_used_idx;

	if (READ_ONCE(vq->packed.batch_pending))
		return true;
	last_used_idx = READ_ONCE(vq->last_used_idx);
	return is_used_desc_packed(vq, packed_off(last_used_idx),
				   packed_wrap(last_used_idx));
}

/*
 * The descriptor at @off, lap @wrap, is not used.  If we made it available
 * in this lap (it is not where our next one goes), its flags are ours,
 * AVAIL = @wrap and USED = !@wrap, until the device uses it with both equal
 * to @wrap (2.8.1); both equal to !@wrap is a device that marked it used in
 * the other lap, and would leave us waiting for good.  Only looked at when
 * nothing is used.  Always returns false.
 */
static inline bool vring_wrong_lap_packed(struct vring_virtqueue *vq, u16 off,
					  bool wrap)
{
	const struct vring_virtqueue_packed *packed = &vq->packed;
	u16 flags;

	if (off == packed->next_avail_idx && wrap == packed->avail_wrap_counter)
		return false;
	flags = le16_to_cpu(READ_ONCE(packed->vring.desc[off].flags));
	if (unlikely(!(flags & (1 << VRING_PACKED_DESC_F_AVAIL)) == wrap &&
		     !(flags & (1 << VRING_PACKED_DESC_F_USED)) == wrap))
		vring_bad(vq, "descriptor %u marked used in the wrong lap (flags 0x%x, wrap counter %u)",
			  off, flags, wrap);
	return false;
}

/*
 * Is the descriptor at @off, lap @wrap, used?  Before saying it is not,
 * make our driver event write visible and look again, or the device could
 * miss it while we miss its used descriptor, and nobody would wake us.  A
 * batch of used buffers thus costs one full barrier, not one per buffer.
 * On true, the descriptor may be read (the read barrier is taken), and
 * *@flags holds the flags that said it is used.
 */
static inline bool vring_used_ready_packed(struct vring_virtqueue *vq,
					   u16 off, bool wrap, u16 *flags)
{
	struct vring_virtqueue_packed *packed = &vq->packed;

	if (!vring_desc_used_packed(vq, off, wrap, flags)) {
		if (!packed->driver_event_unfenced)
			return vring_wrong_lap_packed(vq, off, wrap);
		virtio_mb(vq->weak_barriers);
		packed->driver_event_unfenced = false;
		if (!vring_desc_used_packed(vq, off, wrap, flags))
			return vring_wrong_lap_packed(vq, off, wrap);
	}

	/* Read the descriptor only after the flags that published it. */
	virtio_rmb(vq->weak_barriers);
	return true;
}

/*
 * A buffer was returned and last_used_idx moved to @last_used_idx.  With
 * callbacks on for a descriptor, ask for the next one.  The full barrier
 * this needs waits for the moment we find nothing.
 */
static inline void vring_used_event_next_packed(struct vring_virtqueue *vq,
						u16 last_used_idx)
{
	struct vring_virtqueue_packed *packed = &vq->packed;

	if (packed->event_flags_shadow == VRING_PACKED_EVENT_FLAG_DESC) {
		WRITE_ONCE(packed->vring.driver->off_wrap,
			   cpu_to_le16(last_used_idx));
		packed->driver_event_unfenced = true;
	}
}

/*
 * The used length at @off, whose used descriptor has @flags.  One without
 * VRING_DESC_F_WRITE carries none: its length field is reserved and
 * drivers ignore it (2.8.4).  DPDK's vhost leaves the driver's length
 * there (an indirect table's size, for one) when it uses a
 * device-readable buffer.
 */
static inline u32 vring_used_len_packed(struct vring_virtqueue *vq, u16 off,
					u16 flags)
{
	if (!(flags & VRING_DESC_F_WRITE))
		return 0;
	return le32_to_cpu(READ_ONCE(vq->packed.vring.desc[off].len));
}

/* As vring_bad_used_split(), for the used descriptor's @id and @used_len. */
static noinline void *vring_bad_used_packed(struct vring_virtqueue *vq, u16 id,
					    u32 used_len)
{
	unsigned int num = vq->packed.vring.num;
	const struct vring_desc_state_packed *state;

	if (id >= num) {
		vring_bad(vq, "used id %u out of range (ring %u)", id, num);
		return NULL;
	}
	state = &vq->packed.desc_state[id];
	if (!state->data)
		vring_bad(vq, "used id %u is not a buffer in flight", id);
	else
		vring_bad(vq, "used id %u len %u > %u writable bytes",
			  id, used_len, state->in_len);
	return NULL;
}

static void *vring_get_buf_unused_packed(struct vring_virtqueue *vq,
					 unsigned int *len, void **ctx);

/*
 * get_buf, not in order, built as virtqueue_get_buf_split() is.  The flags
 * at last_used_idx decide first, before any other state is read: finding
 * nothing leaves for vring_get_buf_unused_packed() at once.
 */
static noinline void *virtqueue_get_buf_packed(struct vring_virtqueue *vq,
					       unsigned int *len, void **ctx)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int num = packed->vring.num;
	u16 last_used_idx = vq->last_used_idx;
	u16 off = packed_off(last_used_idx);
	bool wrap = packed_wrap(last_used_idx);
	struct vring_desc_state_packed *state;
	u16 id, flags;
	u32 used_len;
	void *data, *indir;

	if (!vring_desc_used_packed(vq, off, wrap, &flags))
		return vring_get_buf_unused_packed(vq, len, ctx);
	/* Read the descriptor only after the flags that published it. */
	virtio_rmb(vq->weak_barriers);

	id = le16_to_cpu(READ_ONCE(packed->vring.desc[off].id));
	used_len = vring_used_len_packed(vq, off, flags);
	if (unlikely(id >= num))
		return vring_bad_used_packed(vq, id, used_len);
	state = &packed->desc_state[id];
	data = state->data;
	if (unlikely(!data || used_len > state->in_len))
		return vring_bad_used_packed(vq, id, used_len);

	/* The device skips the buffer's descriptors (2.8.6): so do we. */
	off += state->num;
	if (off >= num) {
		off -= num;
		wrap = !wrap;
	}
	last_used_idx = packed_off_wrap(off, wrap);
	indir = detach_buf_packed(vq, id, ctx);
	WRITE_ONCE(vq->last_used_idx, last_used_idx);
	if (len)
		*len = used_len;

	vring_used_event_next_packed(vq, last_used_idx);
	vring_drop_indir(vq, indir);
	return data;
}

/*
 * get_buf found the descriptor at last_used_idx not used.  If a driver
 * event write is still unfenced, fence it and look once more, or the
 * device could miss the event while we miss its used descriptor
 * (vring_used_ready_packed()); a buffer found then is returned as usual.
 * Otherwise check the lap (vring_wrong_lap_packed()): nothing to return.
 */
static noinline void *vring_get_buf_unused_packed(struct vring_virtqueue *vq,
						  unsigned int *len,
						  void **ctx)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	u16 last_used_idx = vq->last_used_idx;
	u16 off = packed_off(last_used_idx);
	bool wrap = packed_wrap(last_used_idx);

	if (packed->driver_event_unfenced) {
		virtio_mb(vq->weak_barriers);
		packed->driver_event_unfenced = false;
		/* Fenced now: a second miss cannot come back here. */
		if (is_used_desc_packed(vq, off, wrap))
			return virtqueue_get_buf_packed(vq, len, ctx);
	}
	vring_wrong_lap_packed(vq, off, wrap);
	return NULL;
}

/*
 * In order: read the used descriptor at @off.  Its id must be a buffer in
 * flight; every buffer in flight is the oldest (the one at @off) or a later
 * one, so it ends a batch that starts at @off (2.8.8).  A device that used
 * buffers out of order shows up here, sooner or later, as an id that is
 * not in flight: one it already reported, or no buffer's first descriptor.
 * Returns false if nothing is there or the queue broke; else the id and
 * used length are in *@id and *@used_len.
 */
static bool vring_read_used_packed_in_order(struct vring_virtqueue *vq,
					    u16 off, bool wrap, u16 *id,
					    u32 *used_len)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int num = packed->vring.num;
	struct vring_desc_state_packed *state;
	u16 flags;

	if (!vring_used_ready_packed(vq, off, wrap, &flags))
		return false;

	*id = le16_to_cpu(READ_ONCE(packed->vring.desc[off].id));
	*used_len = vring_used_len_packed(vq, off, flags);

	if (unlikely(*id >= num)) {
		vring_bad(vq, "used id %u out of range (ring %u)", *id, num);
		return false;
	}
	state = &packed->desc_state[*id];
	if (unlikely(!state->data)) {
		vring_bad(vq, "used id %u is not a buffer in flight (in order, id %u is next)",
			  *id, off);
		return false;
	}
	if (unlikely(*used_len > state->in_len)) {
		vring_bad(vq, "used id %u len %u > %u writable bytes",
			  *id, *used_len, state->in_len);
		return false;
	}
	return true;
}

/* In order: return the oldest buffer in flight, batch by batch. */
static void *virtqueue_get_buf_ctx_packed_in_order(struct vring_virtqueue *vq,
						   unsigned int *len,
						   void **ctx)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int num = packed->vring.num;
	u16 last_used_idx = vq->last_used_idx;
	u16 off = packed_off(last_used_idx), used_id;
	bool wrap = packed_wrap(last_used_idx), batch_done = false;
	struct vring_desc_state_packed *state;
	u32 used_len;
	void *data;

	/*
	 * The oldest buffer's id is its offset.  The buffers of a batch
	 * before its last were used completely: each comes back with its
	 * whole writable length, the last one with the length the device
	 * gave.
	 */
	state = &packed->desc_state[off];
	if (likely(!packed->batch_pending)) {
		if (!vring_read_used_packed_in_order(vq, off, wrap, &used_id,
						     &used_len))
			return NULL;
		if (used_id != off) {
			packed->batch_last = used_id;
			packed->batch_len = used_len;
			WRITE_ONCE(packed->batch_pending, true);
			used_len = state->in_len;
		}
	} else if (off == packed->batch_last) {
		used_len = packed->batch_len;
		batch_done = true;
	} else {
		used_len = state->in_len;
	}

	data = state->data;
	vq->vq.num_free += state->num;
	off += state->num;
	if (off >= num) {
		off -= num;
		wrap = !wrap;
	}
	last_used_idx = packed_off_wrap(off, wrap);
	vring_drop_indir(vq, vring_clear_state_packed(state, ctx));
	WRITE_ONCE(vq->last_used_idx, last_used_idx);
	if (batch_done)
		WRITE_ONCE(packed->batch_pending, false);
	if (len)
		*len = used_len;

	vring_used_event_next_packed(vq, last_used_idx);
	return data;
}

static void virtqueue_disable_cb_packed(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;

	if (packed->event_flags_shadow == VRING_PACKED_EVENT_FLAG_DISABLE)
		return;
	packed->event_flags_shadow = VRING_PACKED_EVENT_FLAG_DISABLE;

	/* After a notification the device will not send another unasked. */
	if (READ_ONCE(vq->event_triggered))
		return;

	WRITE_ONCE(packed->vring.driver->flags,
		   cpu_to_le16(VRING_PACKED_EVENT_FLAG_DISABLE));
}

/*
 * Ask for notifications: for the descriptor at @off_wrap with EVENT_IDX,
 * for every used buffer without.  The offset must be visible before the
 * flags that make the device read it.
 */
static void vring_enable_event_packed(struct vring_virtqueue *vq,
				      u16 off_wrap)
{
	struct vring_virtqueue_packed *packed = &vq->packed;

	if (vq->event) {
		WRITE_ONCE(packed->vring.driver->off_wrap,
			   cpu_to_le16(off_wrap));
		virtio_wmb(vq->weak_barriers);
	}
	if (packed->event_flags_shadow == VRING_PACKED_EVENT_FLAG_DISABLE) {
		packed->event_flags_shadow = vq->event ?
					     VRING_PACKED_EVENT_FLAG_DESC :
					     VRING_PACKED_EVENT_FLAG_ENABLE;
		WRITE_ONCE(packed->vring.driver->flags,
			   cpu_to_le16(packed->event_flags_shadow));
	}
	packed->driver_event_unfenced = true;
}

/*
 * Turn notifications back on (without a full barrier).  The cookie is
 * last_used_idx: the used offset with the wrap counter in bit 15.
 */
static unsigned int
virtqueue_enable_cb_prepare_packed(struct vring_virtqueue *vq)
{
	u16 last_used_idx = vq->last_used_idx;

	vring_enable_event_packed(vq, last_used_idx);
	return last_used_idx;
}

static bool virtqueue_poll_packed(const struct vring_virtqueue *vq,
				  unsigned int off_wrap)
{
	u16 off = packed_off(off_wrap);

	/* Not a position in this ring (a cookie from before a resize). */
	if (unlikely(off >= vq->packed.vring.num))
		return true;
	/* In order, the rest of a batch is used, whatever its slots say. */
	if (READ_ONCE(vq->packed.batch_pending))
		return true;
	return is_used_desc_packed(vq, off, packed_wrap(off_wrap));
}

static bool virtqueue_enable_cb_delayed_packed(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int num = packed->vring.num;
	u16 last_used_idx = vq->last_used_idx;
	unsigned int off = packed_off(last_used_idx);
	bool wrap = packed_wrap(last_used_idx);

	/*
	 * Ask to hear once about three quarters of the descriptors out have
	 * come back (only EVENT_IDX can say so; without it, at once).
	 */
	off += (num - vq->vq.num_free) * 3 / 4;
	if (off >= num) {
		off -= num;
		wrap = !wrap;
	}
	vring_enable_event_packed(vq, packed_off_wrap(off, wrap));

	/* Our request must be visible before we look at the ring again. */
	virtio_mb(vq->weak_barriers);
	packed->driver_event_unfenced = false;

	return !more_used_packed(vq);
}

/*
 * In order, take back the oldest buffer first and move last_used_idx past
 * it, so what stays in flight is still one run starting there and new
 * buffers get ids that are free.  Of a batch get_buf is still returning,
 * the rest stays for get_buf.
 */
static void *detach_unused_buf_packed_in_order(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	u16 last_used_idx = vq->last_used_idx;
	u16 off = packed_off(last_used_idx);
	bool wrap = packed_wrap(last_used_idx);
	struct vring_desc_state_packed *state = &packed->desc_state[off];
	void *data = state->data;

	if (vq->vq.num_free == packed->vring.num)
		return NULL;
	if (WARN_ON(!data))
		return NULL;
	if (packed->batch_pending && off == packed->batch_last)
		WRITE_ONCE(packed->batch_pending, false);

	off += state->num;
	if (off >= packed->vring.num) {
		off -= packed->vring.num;
		wrap = !wrap;
	}
	vq->vq.num_free += state->num;
	vring_drop_indir(vq, vring_clear_state_packed(state, NULL));
	WRITE_ONCE(vq->last_used_idx, packed_off_wrap(off, wrap));
	return data;
}

static void *virtqueue_detach_unused_buf_packed(struct vring_virtqueue *vq)
{
	struct vring_virtqueue_packed *packed = &vq->packed;
	unsigned int i;
	void *data;

	if (vq->in_order)
		return detach_unused_buf_packed_in_order(vq);

	/*
	 * Private state only.  The ring still shows the buffers available:
	 * a device must be reset, and the ring with it (virtqueue_reset()),
	 * before the queue is used again.
	 */
	for (i = 0; i < packed->vring.num; i++) {
		data = packed->desc_state[i].data;
		if (!data)
			continue;
		vring_drop_indir(vq, detach_buf_packed(vq, i, NULL));
		return data;
	}
	WARN_ON(vq->vq.num_free != packed->vring.num);
	return NULL;
}

/* Swap in a freshly allocated ring of @num entries; the queue is empty. */
static int virtqueue_resize_packed(struct vring_virtqueue *vq, u32 num)
{
	struct vring_virtqueue_packed fresh = {};
	int err;

	err = vring_alloc_queue_packed(&fresh, vq->vq.vdev, num,
				       vq->packed.may_reduce_num,
				       vq->use_dma_api ? vq->dma_dev : NULL);
	if (!err) {
		err = vring_alloc_state_packed(&fresh);
		if (err)
			vring_free_packed(&fresh, true);
	}
	if (err) {
		/* Keep the old ring, emptied like a reset. */
		virtqueue_reinit_packed(vq);
		return -ENOMEM;
	}

	vring_free_packed(&vq->packed, vq->we_own_ring);
	vq->packed = fresh;
	virtqueue_init_packed(vq);
	return 0;
}

/*
 * Creation and teardown.
 */

/* A new queue's common part, without a ring and not yet on the device. */
static struct vring_virtqueue *
vring_virtqueue_alloc(unsigned int index, unsigned int num_max,
		      struct virtio_device *vdev, bool weak_barriers,
		      bool context, bool (*notify)(struct virtqueue *),
		      void (*callback)(struct virtqueue *), const char *name)
{
	struct vring_virtqueue *vq;

	vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	if (!vq)
		return NULL;

	vq->vq.callback = callback;
	vq->vq.vdev = vdev;
	vq->vq.name = name;
	vq->vq.index = index;
	vq->vq.num_max = num_max;
	vq->vq.reset = false;
	vq->packed_ring = false;
	vq->notify = notify;
	vq->weak_barriers = weak_barriers;
	vq->use_dma_api = vring_use_dma_api(vdev);
	vq->premapped = false;
	vq->detour = vq->use_dma_api ? VRING_DETOUR_MAP : 0;
	vq->dma_dev = vdev->dev.parent;
	vq->we_own_ring = false;
	vq->indirect = virtio_has_feature(vdev, VIRTIO_RING_F_INDIRECT_DESC) &&
		       !context;
	vq->event = virtio_has_feature(vdev, VIRTIO_RING_F_EVENT_IDX);
	vq->in_order = virtio_has_feature(vdev, VIRTIO_F_IN_ORDER);
	if (virtio_has_feature(vdev, VIRTIO_F_ORDER_PLATFORM))
		vq->weak_barriers = false;
	return vq;
}

/* Put a queue with its ring in place on its device's list. */
static struct virtqueue *vring_virtqueue_attach(struct vring_virtqueue *vq)
{
	struct virtio_device *vdev = vq->vq.vdev;

	spin_lock(&vdev->vqs_list_lock);
	list_add_tail(&vq->vq.list, &vdev->vqs);
	spin_unlock(&vdev->vqs_list_lock);
	return &vq->vq;
}

static struct virtqueue *
__vring_new_virtqueue(unsigned int index, struct vring_virtqueue_split *split,
		      unsigned int num_max, struct virtio_device *vdev,
		      bool weak_barriers, bool context,
		      bool (*notify)(struct virtqueue *),
		      void (*callback)(struct virtqueue *), const char *name)
{
	struct vring_virtqueue *vq;

	vq = vring_virtqueue_alloc(index, num_max, vdev, weak_barriers,
				   context, notify, callback, name);
	if (!vq)
		return NULL;

	vq->split = *split;
	if (vring_alloc_state_split(&vq->split)) {
		kfree(vq);
		return NULL;
	}
	virtqueue_init_split(vq);
	return vring_virtqueue_attach(vq);
}

/* As __vring_new_virtqueue(), for a packed ring laid out in @packed. */
static struct virtqueue *
__vring_new_virtqueue_packed(unsigned int index,
			     struct vring_virtqueue_packed *packed,
			     unsigned int num_max, struct virtio_device *vdev,
			     bool weak_barriers, bool context,
			     bool (*notify)(struct virtqueue *),
			     void (*callback)(struct virtqueue *),
			     const char *name)
{
	struct vring_virtqueue *vq;

	vq = vring_virtqueue_alloc(index, num_max, vdev, weak_barriers,
				   context, notify, callback, name);
	if (!vq)
		return NULL;

	vq->packed_ring = true;
	vq->packed = *packed;
	if (vring_alloc_state_packed(&vq->packed)) {
		kfree(vq);
		return NULL;
	}
	virtqueue_init_packed(vq);
	return vring_virtqueue_attach(vq);
}

static struct virtqueue *vring_create_virtqueue_split(unsigned int index,
		unsigned int num, unsigned int vring_align,
		struct virtio_device *vdev, bool weak_barriers,
		bool may_reduce_num, bool context,
		bool (*notify)(struct virtqueue *),
		void (*callback)(struct virtqueue *), const char *name,
		struct device *dma_dev)
{
	struct vring_virtqueue_split split = {};
	struct virtqueue *vq;

	if (!vring_split_num_ok(vdev, num, vring_align))
		return NULL;
	if (vring_alloc_queue_split(&split, vdev, num, vring_align,
				    may_reduce_num,
				    vring_use_dma_api(vdev) ? dma_dev : NULL))
		return NULL;

	vq = __vring_new_virtqueue(index, &split, num, vdev, weak_barriers,
				   context, notify, callback, name);
	if (!vq) {
		vring_free_split(&split, true);
		return NULL;
	}
	to_vvq(vq)->we_own_ring = true;
	to_vvq(vq)->dma_dev = dma_dev;
	return vq;
}

static struct virtqueue *vring_create_virtqueue_packed(unsigned int index,
		unsigned int num, struct virtio_device *vdev,
		bool weak_barriers, bool may_reduce_num, bool context,
		bool (*notify)(struct virtqueue *),
		void (*callback)(struct virtqueue *), const char *name,
		struct device *dma_dev)
{
	struct vring_virtqueue_packed packed = {};
	struct virtqueue *vq;

	if (!vring_packed_num_ok(vdev, num))
		return NULL;
	if (vring_alloc_queue_packed(&packed, vdev, num, may_reduce_num,
				     vring_use_dma_api(vdev) ? dma_dev : NULL))
		return NULL;

	vq = __vring_new_virtqueue_packed(index, &packed, num, vdev,
					  weak_barriers, context, notify,
					  callback, name);
	if (!vq) {
		vring_free_packed(&packed, true);
		return NULL;
	}
	to_vvq(vq)->we_own_ring = true;
	to_vvq(vq)->dma_dev = dma_dev;
	return vq;
}

/**
 * vring_create_virtqueue - allocate a ring and create a virtqueue on it
 * @index: the queue's number on the device
 * @num: ring entries wanted: split, a power of 2 up to 32768; packed
 *	(VIRTIO_F_RING_PACKED in @vdev's features), any from 1 to 32768
 * @vring_align: alignment of the used ring (split layout, see vring_init())
 * @vdev: the device; its negotiated features shape the ring
 * @weak_barriers: the device is a CPU, SMP barriers suffice
 * @may_reduce_num: settle for a smaller ring if memory is short
 * @ctx: the queue carries a context pointer per buffer (no indirect tables)
 * @notify: called to kick the device; returns false if the device is gone
 * @callback: called from vring_interrupt() when buffers were used, or NULL
 * @name: for messages
 *
 * The ring is zeroed memory owned by the queue and freed with it.  For a
 * packed ring, virtqueue_get_desc_addr(), virtqueue_get_avail_addr() and
 * virtqueue_get_used_addr() give the descriptor ring, the driver event
 * suppression structure and the device event suppression structure.
 *
 * Return: the new virtqueue, or NULL on a bad size or lack of memory.
 */
struct virtqueue *vring_create_virtqueue(unsigned int index,
					 unsigned int num,
					 unsigned int vring_align,
					 struct virtio_device *vdev,
					 bool weak_barriers,
					 bool may_reduce_num,
					 bool ctx,
					 bool (*notify)(struct virtqueue *),
					 void (*callback)(struct virtqueue *),
					 const char *name)
{
	return vring_create_virtqueue_dma(index, num, vring_align, vdev,
					  weak_barriers, may_reduce_num, ctx,
					  notify, callback, name,
					  vdev->dev.parent);
}
EXPORT_SYMBOL_GPL(vring_create_virtqueue);

/**
 * vring_create_virtqueue_dma - vring_create_virtqueue() for a DMA device
 * @index: the queue's number on the device
 * @num: ring entries wanted: a power of 2, at most 32768
 * @vring_align: alignment of the used ring
 * @vdev: the device
 * @weak_barriers: the device is a CPU, SMP barriers suffice
 * @may_reduce_num: settle for a smaller ring if memory is short
 * @ctx: the queue carries a context pointer per buffer
 * @notify: called to kick the device
 * @callback: called when buffers were used, or NULL
 * @name: for messages
 * @dma_dev: the device the DMA API maps buffers for (with
 *	VIRTIO_F_ACCESS_PLATFORM), instead of @vdev's parent
 *
 * Return: the new virtqueue, or NULL.
 */
struct virtqueue *vring_create_virtqueue_dma(unsigned int index,
					     unsigned int num,
					     unsigned int vring_align,
					     struct virtio_device *vdev,
					     bool weak_barriers,
					     bool may_reduce_num,
					     bool ctx,
					     bool (*notify)(struct virtqueue *),
					     void (*callback)(struct virtqueue *),
					     const char *name,
					     struct device *dma_dev)
{
	if (virtio_has_feature(vdev, VIRTIO_F_RING_PACKED))
		return vring_create_virtqueue_packed(index, num, vdev,
						     weak_barriers,
						     may_reduce_num, ctx,
						     notify, callback, name,
						     dma_dev);
	return vring_create_virtqueue_split(index, num, vring_align, vdev,
					    weak_barriers, may_reduce_num,
					    ctx, notify, callback, name,
					    dma_dev);
}
EXPORT_SYMBOL_GPL(vring_create_virtqueue_dma);

/**
 * vring_new_virtqueue - create a virtqueue on ring memory the caller owns
 * @index: the queue's number on the device
 * @num: ring entries: a power of 2, at most 32768
 * @vring_align: alignment used to lay out @pages (see vring_init())
 * @vdev: the device
 * @weak_barriers: the device is a CPU, SMP barriers suffice
 * @ctx: the queue carries a context pointer per buffer
 * @pages: vring_size(@num, @vring_align) bytes, zeroed, laid out by
 *	vring_init(); it stays the caller's and outlives the queue
 * @notify: called to kick the device
 * @callback: called when buffers were used, or NULL
 * @name: for messages
 *
 * Such a queue cannot be resized or reset (-EPERM): its memory is not ours.
 *
 * Return: the new virtqueue, or NULL.
 */
struct virtqueue *vring_new_virtqueue(unsigned int index,
				      unsigned int num,
				      unsigned int vring_align,
				      struct virtio_device *vdev,
				      bool weak_barriers,
				      bool ctx,
				      void *pages,
				      bool (*notify)(struct virtqueue *vq),
				      void (*callback)(struct virtqueue *vq),
				      const char *name)
{
	struct vring_virtqueue_split split = {};

	if (virtio_has_feature(vdev, VIRTIO_F_RING_PACKED))
		return NULL;
	if (!pages || !vring_split_num_ok(vdev, num, vring_align))
		return NULL;

	vring_init(&split.vring, num, pages, vring_align);
	split.vring_align = vring_align;
	return __vring_new_virtqueue(index, &split, num, vdev, weak_barriers,
				     ctx, notify, callback, name);
}
EXPORT_SYMBOL_GPL(vring_new_virtqueue);

/**
 * vring_new_virtqueue_packed - create a packed virtqueue on ring memory the
 *	caller owns (a rig extension: Linux has no such function)
 * @index: the queue's number on the device
 * @num: ring entries: any from 1 to 32768
 * @vdev: the device; VIRTIO_F_RING_PACKED must be in its features
 * @weak_barriers: the device is a CPU, SMP barriers suffice
 * @ctx: the queue carries a context pointer per buffer
 * @desc: the descriptor ring, @num entries, 16-byte aligned
 * @driver: the driver event suppression structure, 4-byte aligned
 * @device: the device event suppression structure, 4-byte aligned
 * @notify: called to kick the device
 * @callback: called when buffers were used, or NULL
 * @name: for messages
 *
 * The three parts stay the caller's and outlive the queue; they are zeroed
 * here, as a new ring must be (2.8.10.1).  vring_packed_init() lays them
 * out in one block of vring_packed_size(@num) bytes.  Such a queue cannot be
 * resized or reset (-EPERM): its memory is not ours.
 *
 * Return: the new virtqueue, or NULL.
 */
struct virtqueue *
vring_new_virtqueue_packed(unsigned int index,
			   unsigned int num,
			   struct virtio_device *vdev,
			   bool weak_barriers,
			   bool ctx,
			   struct vring_packed_desc *desc,
			   struct vring_packed_desc_event *driver,
			   struct vring_packed_desc_event *device,
			   bool (*notify)(struct virtqueue *vq),
			   void (*callback)(struct virtqueue *vq),
			   const char *name)
{
	struct vring_virtqueue_packed packed = {};

	if (!virtio_has_feature(vdev, VIRTIO_F_RING_PACKED)) {
		dev_warn(&vdev->dev, "%s: packed ring without RING_PACKED\n",
			 name);
		return NULL;
	}
	if (!vring_packed_num_ok(vdev, num))
		return NULL;
	if (!desc || !driver || !device ||
	    !IS_ALIGNED((unsigned long)desc, VRING_PACKED_DESC_ALIGN_SIZE) ||
	    !IS_ALIGNED((unsigned long)driver, VRING_PACKED_EVENT_ALIGN_SIZE) ||
	    !IS_ALIGNED((unsigned long)device, VRING_PACKED_EVENT_ALIGN_SIZE)) {
		dev_warn(&vdev->dev, "%s: bad packed ring address\n",
			 name);
		return NULL;
	}

	packed.vring.num = num;
	packed.vring.desc = desc;
	packed.vring.driver = driver;
	packed.vring.device = device;
	vring_zero_packed(&packed.vring);
	return __vring_new_virtqueue_packed(index, &packed, num, vdev,
					    weak_barriers, ctx, notify,
					    callback, name);
}
EXPORT_SYMBOL_GPL(vring_new_virtqueue_packed);

/**
 * vring_del_virtqueue - destroy a virtqueue
 * @_vq: the queue, with no buffers left in it (detach them first)
 *
 * Unlinks the queue from its device and frees what creating it allocated;
 * ring memory passed to vring_new_virtqueue() or
 * vring_new_virtqueue_packed() is left alone.
 */
void vring_del_virtqueue(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	struct virtio_device *vdev = _vq->vdev;

	spin_lock(&vdev->vqs_list_lock);
	list_del(&_vq->list);
	spin_unlock(&vdev->vqs_list_lock);

	if (vq->packed_ring)
		vring_free_packed(&vq->packed, vq->we_own_ring);
	else
		vring_free_split(&vq->split, vq->we_own_ring);
	kfree(vq);
}
EXPORT_SYMBOL_GPL(vring_del_virtqueue);

/*
 * Adding buffers.
 */

/*
 * The add path off the fast one: a broken queue, or one whose buffers are
 * mapped ("The DMA API" above).  Everything is mapped before the ring is
 * touched, and unmapped again if the add fails.
 */
static noinline int virtqueue_add_mapped(struct vring_virtqueue *vq,
					 struct scatterlist *sgs[],
					 unsigned int total_sg,
					 unsigned int out_sgs,
					 unsigned int in_sgs,
					 void *data, void *ctx, gfp_t gfp)
{
	size_t desc_size = vq->packed_ring ? sizeof(struct vring_packed_desc) :
					     sizeof(struct vring_desc);
	bool indirect = virtqueue_use_indirect(vq, total_sg);
	struct vring_dma_buf *blk = NULL;
	int err;

	if (unlikely(vring_broken(vq)))
		return -EIO;
	/* Never fits (the layout's add says so too): map nothing. */
	if (unlikely(total_sg > vring_num(vq)))
		return -ENOSPC;

	if (indirect) {
		blk = vring_dma_buf_alloc(total_sg, true, desc_size, gfp);
		/* As on the fast path: without a table, go direct. */
		indirect = blk != NULL;
	}
	if (!indirect) {
		/* Full: say so before mapping anything. */
		if (vq->vq.num_free < total_sg)
			return vring_no_room(vq, total_sg, out_sgs);
		blk = vring_dma_buf_alloc(total_sg, false, desc_size, gfp);
		if (!blk)
			return -ENOMEM;
	}

	err = vring_map_bufs(vq, blk, sgs, total_sg, out_sgs, in_sgs);
	if (!err && vq->packed_ring)
		err = virtqueue_add_packed(vq, sgs, total_sg, out_sgs, in_sgs,
					   data, ctx, gfp, blk);
	else if (!err)
		err = virtqueue_add_split(vq, sgs, total_sg, out_sgs, in_sgs,
					  data, ctx, gfp, blk);
	if (err)
		vring_dma_release(vq, blk);
	return err;
}

static __always_inline int virtqueue_add(struct virtqueue *_vq,
					 struct scatterlist *sgs[],
					 unsigned int total_sg,
					 unsigned int out_sgs,
					 unsigned int in_sgs,
					 void *data, void *ctx, gfp_t gfp)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (unlikely(!data || !total_sg))
		return -EINVAL;
	/*
	 * Broken, or mapping buffers: one test for both.  A lone
	 * scatterlist goes by a copy of its pointer, so that the callers
	 * passing &sg need not keep sg in memory on the fast path.
	 */
	if (unlikely(READ_ONCE(vq->detour))) {
		struct scatterlist *one = sgs[0];

		return virtqueue_add_mapped(vq, out_sgs + in_sgs == 1 ?
					    &one : sgs, total_sg, out_sgs,
					    in_sgs, data, ctx, gfp);
	}

	if (vq->packed_ring)
		return virtqueue_add_packed(vq, sgs, total_sg, out_sgs, in_sgs,
					    data, ctx, gfp, NULL);
	return virtqueue_add_split(vq, sgs, total_sg, out_sgs, in_sgs,
				   data, ctx, gfp, NULL);
}

/**
 * virtqueue_add_sgs - make a buffer of several scatterlists available
 * @_vq: the queue
 * @sgs: @out_sgs device-readable scatterlists, then @in_sgs writable ones,
 *	each terminated (sg_mark_end())
 * @out_sgs: how many of @sgs the device reads
 * @in_sgs: how many of @sgs the device writes
 * @data: the token virtqueue_get_buf() returns for this buffer; not NULL
 * @gfp: allocation flags for an indirect table
 *
 * The device learns of the buffer at the next kick.  Callers serialise all
 * operations on one queue themselves.
 *
 * Return: 0; -ENOSPC if the ring is full (or the buffer can never fit);
 * -EIO if the queue is broken; -EINVAL for an empty buffer or NULL @data.
 */
int virtqueue_add_sgs(struct virtqueue *_vq, struct scatterlist *sgs[],
		      unsigned int out_sgs, unsigned int in_sgs,
		      void *data, gfp_t gfp)
{
	unsigned int i, total_sg = 0;
	struct scatterlist *sg;

	for (i = 0; i < out_sgs + in_sgs; i++)
		for (sg = sgs[i]; sg; sg = sg_next(sg))
			total_sg++;

	return virtqueue_add(_vq, sgs, total_sg, out_sgs, in_sgs, data,
			     NULL, gfp);
}
EXPORT_SYMBOL_GPL(virtqueue_add_sgs);

/**
 * virtqueue_add_outbuf - make a device-readable buffer available
 * @vq: the queue
 * @sg: the scatterlist
 * @num: entries in @sg
 * @data: the token returned by virtqueue_get_buf(); not NULL
 * @gfp: allocation flags for an indirect table
 *
 * Return: 0 or a negative error, as virtqueue_add_sgs().
 */
int virtqueue_add_outbuf(struct virtqueue *vq, struct scatterlist sg[],
			 unsigned int num, void *data, gfp_t gfp)
{
	return virtqueue_add(vq, &sg, num, 1, 0, data, NULL, gfp);
}
EXPORT_SYMBOL_GPL(virtqueue_add_outbuf);

/**
 * virtqueue_add_inbuf - make a device-writable buffer available
 * @vq: the queue
 * @sg: the scatterlist
 * @num: entries in @sg
 * @data: the token returned by virtqueue_get_buf(); not NULL
 * @gfp: allocation flags for an indirect table
 *
 * Return: 0 or a negative error, as virtqueue_add_sgs().
 */
int virtqueue_add_inbuf(struct virtqueue *vq, struct scatterlist sg[],
			unsigned int num, void *data, gfp_t gfp)
{
	return virtqueue_add(vq, &sg, num, 0, 1, data, NULL, gfp);
}
EXPORT_SYMBOL_GPL(virtqueue_add_inbuf);

/**
 * virtqueue_add_inbuf_ctx - make a device-writable buffer available, with
 *	a context pointer
 * @vq: the queue, normally created with ctx set
 * @sg: the scatterlist
 * @num: entries in @sg
 * @data: the token returned by virtqueue_get_buf_ctx(); not NULL
 * @ctx: handed back by virtqueue_get_buf_ctx() with @data
 * @gfp: allocation flags for an indirect table
 *
 * Return: 0 or a negative error, as virtqueue_add_sgs().
 */
int virtqueue_add_inbuf_ctx(struct virtqueue *vq, struct scatterlist sg[],
			    unsigned int num, void *data, void *ctx,
			    gfp_t gfp)
{
	return virtqueue_add(vq, &sg, num, 0, 1, data, ctx, gfp);
}
EXPORT_SYMBOL_GPL(virtqueue_add_inbuf_ctx);

/**
 * virtqueue_dma_dev - the device to DMA-map buffers for
 * @_vq: the queue
 *
 * Return: the device the queue maps for, or NULL if it does not use the
 * DMA API (no VIRTIO_F_ACCESS_PLATFORM): then buffers need no mapping.
 */
struct device *virtqueue_dma_dev(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	return vq->use_dma_api ? vq->dma_dev : NULL;
}
EXPORT_SYMBOL_GPL(virtqueue_dma_dev);

/**
 * virtqueue_set_dma_premapped - the caller maps this queue's buffers
 * @_vq: the queue, with no buffer in it
 *
 * From now on every add takes each scatterlist entry's sg_dma_address()
 * as the address the device uses, and no detach unmaps it: mapping and
 * unmapping (virtqueue_dma_map_single_attrs() and friends) are the
 * caller's.  Indirect tables are still the queue's to map.
 *
 * Return: 0, or -EINVAL if buffers are in the queue.
 */
int virtqueue_set_dma_premapped(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (_vq->num_free != vring_num(vq))
		return -EINVAL;
	vq->premapped = true;
	WRITE_ONCE(vq->detour, READ_ONCE(vq->detour) | VRING_DETOUR_MAP);
	return 0;
}
EXPORT_SYMBOL_GPL(virtqueue_set_dma_premapped);

/**
 * virtqueue_dma_map_single_attrs - map memory for the queue's device
 * @_vq: the queue
 * @ptr: the memory
 * @size: its length
 * @dir: the direction the device uses it
 * @attrs: DMA attributes
 *
 * For premapped buffers (virtqueue_set_dma_premapped()).  Check the
 * result with virtqueue_dma_mapping_error().
 *
 * Return: the bus address; the physical one if the queue does not use the
 * DMA API.
 */
dma_addr_t virtqueue_dma_map_single_attrs(struct virtqueue *_vq, void *ptr,
					  size_t size,
					  enum dma_data_direction dir,
					  unsigned long attrs)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (!vq->use_dma_api)
		return (dma_addr_t)virt_to_phys(ptr);
	return dma_map_single_attrs(vq->dma_dev, ptr, size, dir, attrs);
}
EXPORT_SYMBOL_GPL(virtqueue_dma_map_single_attrs);

/**
 * virtqueue_dma_unmap_single_attrs - undo virtqueue_dma_map_single_attrs()
 * @_vq: the queue
 * @addr: the bus address it gave
 * @size: the length mapped
 * @dir: the direction mapped
 * @attrs: DMA attributes
 */
void virtqueue_dma_unmap_single_attrs(struct virtqueue *_vq, dma_addr_t addr,
				      size_t size, enum dma_data_direction dir,
				      unsigned long attrs)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->use_dma_api)
		dma_unmap_single_attrs(vq->dma_dev, addr, size, dir, attrs);
}
EXPORT_SYMBOL_GPL(virtqueue_dma_unmap_single_attrs);

/**
 * virtqueue_dma_mapping_error - did a virtqueue_dma_map_single_attrs() fail?
 * @_vq: the queue
 * @addr: the address it gave
 *
 * Return: 0 if @addr is good, non-zero if the mapping failed.
 */
int virtqueue_dma_mapping_error(struct virtqueue *_vq, dma_addr_t addr)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	return vq->use_dma_api ? dma_mapping_error(vq->dma_dev, addr) : 0;
}
EXPORT_SYMBOL_GPL(virtqueue_dma_mapping_error);

/**
 * virtqueue_dma_need_sync - must a mapping be synced for the CPU or device?
 * @_vq: the queue
 * @addr: the bus address
 *
 * Return: true if the virtqueue_dma_sync_single_range_*() calls matter.
 */
bool virtqueue_dma_need_sync(struct virtqueue *_vq, dma_addr_t addr)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	return vq->use_dma_api && dma_need_sync(vq->dma_dev, addr);
}
EXPORT_SYMBOL_GPL(virtqueue_dma_need_sync);

/**
 * virtqueue_dma_sync_single_range_for_cpu - give a mapped range to the CPU
 * @_vq: the queue
 * @addr: the mapping's bus address
 * @offset: where the range starts in it
 * @size: the range's length
 * @dir: the direction mapped
 */
void virtqueue_dma_sync_single_range_for_cpu(struct virtqueue *_vq,
					     dma_addr_t addr,
					     unsigned long offset, size_t size,
					     enum dma_data_direction dir)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->use_dma_api)
		dma_sync_single_range_for_cpu(vq->dma_dev, addr, offset, size,
					      dir);
}
EXPORT_SYMBOL_GPL(virtqueue_dma_sync_single_range_for_cpu);

/**
 * virtqueue_dma_sync_single_range_for_device - give a range to the device
 * @_vq: the queue
 * @addr: the mapping's bus address
 * @offset: where the range starts in it
 * @size: the range's length
 * @dir: the direction mapped
 */
void virtqueue_dma_sync_single_range_for_device(struct virtqueue *_vq,
						dma_addr_t addr,
						unsigned long offset,
						size_t size,
						enum dma_data_direction dir)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->use_dma_api)
		dma_sync_single_range_for_device(vq->dma_dev, addr, offset,
						 size, dir);
}
EXPORT_SYMBOL_GPL(virtqueue_dma_sync_single_range_for_device);

/*
 * Notifying the device.
 */

/**
 * virtqueue_kick_prepare - decide whether the device needs a kick
 * @_vq: the queue
 *
 * The first half of virtqueue_kick(), which must be serialised with the
 * other operations; virtqueue_notify() may then run without the lock.
 *
 * Return: true if virtqueue_notify() should be called.
 */
bool virtqueue_kick_prepare(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (unlikely(vring_broken(vq)))
		return false;

	return vq->packed_ring ? virtqueue_kick_prepare_packed(vq) :
				 virtqueue_kick_prepare_split(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_kick_prepare);

/**
 * virtqueue_notify - kick the device unconditionally
 * @_vq: the queue
 *
 * A transport that cannot reach the device breaks the queue.
 *
 * Return: false if the queue is (now) broken.
 */
bool virtqueue_notify(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (unlikely(vring_broken(vq)))
		return false;

	if (!vq->notify(_vq)) {
		vring_set_broken(vq, true);
		return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(virtqueue_notify);

/**
 * virtqueue_kick - tell the device about new buffers, if it wants to know
 * @vq: the queue
 *
 * Return: false if the queue is broken, true otherwise.
 */
bool virtqueue_kick(struct virtqueue *vq)
{
	if (virtqueue_kick_prepare(vq))
		return virtqueue_notify(vq);
	return !virtqueue_is_broken(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_kick);

/*
 * Getting buffers back.
 */

/*
 * get_buf, inlined into each exported form: which layout, which order, each
 * a function of its own, so that the exported forms only dispatch, in tail
 * calls that need no stack frame.
 */
static __always_inline void *virtqueue_get_buf_any(struct vring_virtqueue *vq,
						   unsigned int *len,
						   void **ctx)
{
	if (unlikely(vring_broken(vq)))
		return NULL;

	if (vq->packed_ring)
		return vq->in_order ?
		       virtqueue_get_buf_ctx_packed_in_order(vq, len, ctx) :
		       virtqueue_get_buf_packed(vq, len, ctx);
	return vq->in_order ?
	       virtqueue_get_buf_ctx_split_in_order(vq, len, ctx) :
	       virtqueue_get_buf_split(vq, len, ctx);
}

/**
 * virtqueue_get_buf_ctx - take the next buffer the device has used
 * @_vq: the queue
 * @len: set to the bytes the device wrote into the buffer (may be NULL)
 * @ctx: if not NULL, set to the context the buffer was added with
 *
 * A used element that names no buffer in flight, or claims more bytes than
 * the buffer could take, breaks the queue.
 *
 * With VIRTIO_F_IN_ORDER buffers come back in the order they were added.
 * When the device answered a batch with one used element, each call still
 * returns one buffer: for every buffer of the batch but the last, *@len is
 * the buffer's whole device-writable size (the sum of its device-writable
 * scatterlist lengths, at most U32_MAX), since the specification says such
 * buffers "are assumed to have been used (read or written) by the device
 * completely" (2.7.9, 2.8.8); for the last, the length the device gave.  A
 * used element that implies the device used buffers out of order breaks
 * the queue.
 *
 * Return: the buffer's token, or NULL if none is ready or the queue is
 * broken.
 */
void *virtqueue_get_buf_ctx(struct virtqueue *_vq, unsigned int *len,
			    void **ctx)
{
	return virtqueue_get_buf_any(to_vvq(_vq), len, ctx);
}
EXPORT_SYMBOL_GPL(virtqueue_get_buf_ctx);

/**
 * virtqueue_get_buf - take the next buffer the device has used
 * @_vq: the queue
 * @len: set to the bytes the device wrote into the buffer
 *
 * Return: the buffer's token, or NULL.
 */
void *virtqueue_get_buf(struct virtqueue *_vq, unsigned int *len)
{
	return virtqueue_get_buf_any(to_vvq(_vq), len, NULL);
}
EXPORT_SYMBOL_GPL(virtqueue_get_buf);

/**
 * virtqueue_disable_cb - ask the device not to interrupt
 * @_vq: the queue
 *
 * Only a hint: callbacks may still come, and the caller must cope.
 */
void virtqueue_disable_cb(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->packed_ring)
		virtqueue_disable_cb_packed(vq);
	else
		virtqueue_disable_cb_split(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_disable_cb);

/**
 * virtqueue_enable_cb_prepare - re-enable callbacks, check later
 * @_vq: the queue
 *
 * Pass the result to virtqueue_poll() to learn whether buffers were used
 * meanwhile (in which case the callback may not come).
 *
 * Return: an opaque position in the used ring.
 */
unsigned int virtqueue_enable_cb_prepare(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (READ_ONCE(vq->event_triggered))
		WRITE_ONCE(vq->event_triggered, false);

	return vq->packed_ring ? virtqueue_enable_cb_prepare_packed(vq) :
				 virtqueue_enable_cb_prepare_split(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_enable_cb_prepare);

/**
 * virtqueue_poll - have buffers been used since a position?
 * @_vq: the queue
 * @last_used_idx: a value from virtqueue_enable_cb_prepare()
 *
 * Return: true if there are used buffers to take; false if none, or if the
 * queue is broken.
 */
bool virtqueue_poll(struct virtqueue *_vq, unsigned int last_used_idx)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (unlikely(vring_broken(vq)))
		return false;

	/* Our re-enable must be visible before we look at the ring. */
	virtio_mb(vq->weak_barriers);
	return vq->packed_ring ? virtqueue_poll_packed(vq, last_used_idx) :
				 virtqueue_poll_split(vq, last_used_idx);
}
EXPORT_SYMBOL_GPL(virtqueue_poll);

/**
 * virtqueue_enable_cb - re-enable callbacks
 * @_vq: the queue
 *
 * Return: false if buffers are already waiting (take them: the callback
 * may not come), true otherwise.
 */
bool virtqueue_enable_cb(struct virtqueue *_vq)
{
	unsigned int last_used_idx = virtqueue_enable_cb_prepare(_vq);

	return !virtqueue_poll(_vq, last_used_idx);
}
EXPORT_SYMBOL_GPL(virtqueue_enable_cb);

/**
 * virtqueue_enable_cb_delayed - re-enable callbacks, but late
 * @_vq: the queue
 *
 * With VIRTIO_RING_F_EVENT_IDX the interrupt is asked for only when about
 * three quarters of the outstanding buffers have been used; otherwise this
 * is virtqueue_enable_cb().
 *
 * Return: false if that many buffers are already used (take them), true
 * otherwise, and true on a broken queue so waiters give up.
 */
bool virtqueue_enable_cb_delayed(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	if (unlikely(vring_broken(vq)))
		return true;

	if (READ_ONCE(vq->event_triggered))
		WRITE_ONCE(vq->event_triggered, false);

	return vq->packed_ring ? virtqueue_enable_cb_delayed_packed(vq) :
				 virtqueue_enable_cb_delayed_split(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_enable_cb_delayed);

/**
 * virtqueue_detach_unused_buf - take back a buffer the device never used
 * @_vq: the queue; the device must be stopped (reset) first
 *
 * Also works on a broken queue: it relies only on the driver's own records.
 *
 * Return: a token, or NULL once the queue is empty.
 */
void *virtqueue_detach_unused_buf(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	return vq->packed_ring ? virtqueue_detach_unused_buf_packed(vq) :
				 virtqueue_detach_unused_buf_split(vq);
}
EXPORT_SYMBOL_GPL(virtqueue_detach_unused_buf);

static bool more_used(const struct vring_virtqueue *vq)
{
	return vq->packed_ring ? more_used_packed(vq) : more_used_split(vq);
}

/**
 * vring_interrupt - the device signalled used buffers
 * @irq: unused
 * @_vq: the queue
 *
 * Return: IRQ_NONE if nothing was used (a spurious or shared interrupt),
 * IRQ_HANDLED otherwise; the callback runs unless the queue is broken.
 */
irqreturn_t vring_interrupt(int irq __always_unused, void *_vq)
{
	struct vring_virtqueue *vq = to_vvq((struct virtqueue *)_vq);

	if (!more_used(vq)) {
		pr_debug("%s: interrupt with nothing used\n", vq->vq.name);
		return IRQ_NONE;
	}

	if (unlikely(vring_broken(vq)))
		return IRQ_HANDLED;

	/* A hint for disable_cb(): the device owes us nothing more. */
	if (vq->event)
		WRITE_ONCE(vq->event_triggered, true);

	if (vq->vq.callback)
		vq->vq.callback(&vq->vq);

	return IRQ_HANDLED;
}
EXPORT_SYMBOL_GPL(vring_interrupt);

/*
 * Reset and resize.
 */

/*
 * Stop the device using the queue and hand every unused buffer to
 * @recycle.  Needs a ring we own and both transport reset hooks.
 */
static int
virtqueue_disable_and_recycle(struct virtqueue *_vq,
			      void (*recycle)(struct virtqueue *vq, void *buf))
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	const struct virtio_config_ops *config = _vq->vdev->config;
	void *buf;
	int err;

	if (!vq->we_own_ring)
		return -EPERM;
	if (!config || !config->disable_vq_and_reset ||
	    !config->enable_vq_after_reset)
		return -ENOENT;

	err = config->disable_vq_and_reset(_vq);
	if (err)
		return err;

	while ((buf = virtqueue_detach_unused_buf(_vq)) != NULL)
		if (recycle)
			recycle(_vq, buf);
	return 0;
}

static int virtqueue_enable_after_reset(struct virtqueue *_vq)
{
	if (_vq->vdev->config->enable_vq_after_reset(_vq))
		return -EBUSY;
	return 0;
}

/**
 * virtqueue_resize - give the queue a ring of another size
 * @_vq: the queue, created by vring_create_virtqueue()
 * @num: the new number of entries, at most vq->num_max: a power of 2 for
 *	a split ring, any for a packed one
 * @recycle: called with each buffer still in the queue (may be NULL)
 * @recycle_done: called once all are recycled (may be NULL)
 *
 * The device is stopped through vdev->config->disable_vq_and_reset, every
 * unused buffer is recycled, a new ring replaces the old one and the device
 * is restarted with enable_vq_after_reset.  If @num is already the size,
 * nothing happens.
 *
 * Return: 0; -E2BIG or -EINVAL for a bad @num; -EPERM if the ring memory
 * is the caller's; -ENOENT without a transport (vdev->config) or its reset
 * hooks; the error of disable_vq_and_reset; -ENOMEM if no new ring could be
 * allocated (the old one is kept, empty, and works); -EBUSY if the device
 * did not come back.
 */
int virtqueue_resize(struct virtqueue *_vq, u32 num,
		     void (*recycle)(struct virtqueue *vq, void *buf),
		     void (*recycle_done)(struct virtqueue *vq))
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	int err, err_reset;

	if (num > _vq->num_max)
		return -E2BIG;
	if (!num || (!vq->packed_ring && !is_power_of_2(num)))
		return -EINVAL;
	if (vring_num(vq) == num)
		return 0;

	err = virtqueue_disable_and_recycle(_vq, recycle);
	if (err)
		return err;
	if (recycle_done)
		recycle_done(_vq);

	if (vq->packed_ring)
		err = virtqueue_resize_packed(vq, num);
	else
		err = virtqueue_resize_split(vq, num);

	err_reset = virtqueue_enable_after_reset(_vq);
	return err_reset ? err_reset : err;
}
EXPORT_SYMBOL_GPL(virtqueue_resize);

/**
 * virtqueue_reset - empty the queue and start its ring afresh
 * @_vq: the queue, created by vring_create_virtqueue()
 * @recycle: called with each buffer still in the queue (may be NULL)
 * @recycle_done: called once all are recycled (may be NULL)
 *
 * As virtqueue_resize() at the same size: the device is stopped through
 * vdev->config->disable_vq_and_reset, unused buffers are recycled, the ring
 * and indices go back to their initial empty state and the device is
 * restarted with enable_vq_after_reset.  A broken queue stays broken.
 *
 * Return: 0; -EPERM if the ring memory is the caller's; -ENOENT without a
 * transport (vdev->config) or its reset hooks; the error of
 * disable_vq_and_reset; -EBUSY if the device did not come back.
 */
int virtqueue_reset(struct virtqueue *_vq,
		    void (*recycle)(struct virtqueue *vq, void *buf),
		    void (*recycle_done)(struct virtqueue *vq))
{
	int err;

	err = virtqueue_disable_and_recycle(_vq, recycle);
	if (err)
		return err;
	if (recycle_done)
		recycle_done(_vq);

	if (to_vvq(_vq)->packed_ring)
		virtqueue_reinit_packed(to_vvq(_vq));
	else
		virtqueue_reinit_split(to_vvq(_vq));

	return virtqueue_enable_after_reset(_vq);
}
EXPORT_SYMBOL_GPL(virtqueue_reset);

/*
 * Information and transport helpers.
 */

/**
 * vring_notification_data - the value a VIRTIO_F_NOTIFICATION_DATA kick
 *	carries
 * @_vq: the queue
 *
 * Return: the queue index in bits 0..15 and the next available position
 * in bits 16..31: split, the avail index; packed, the offset of the next
 * descriptor to make available with the driver's wrap counter in bit 31
 * (2.9).
 */
u32 vring_notification_data(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	u32 next;

	if (vq->packed_ring)
		next = packed_off_wrap(vq->packed.next_avail_idx,
				       vq->packed.avail_wrap_counter);
	else
		next = vq->split.avail_idx_shadow;

	return next << 16 | (_vq->index & 0xffff);
}
EXPORT_SYMBOL_GPL(vring_notification_data);

/**
 * vring_transport_features - drop transport features the ring cannot do
 * @vdev: the device, before feature negotiation completes
 *
 * Of the transport bits (28 to 41) only those this ring code and the
 * transports understand are kept.
 */
void vring_transport_features(struct virtio_device *vdev)
{
	unsigned int i;

	for (i = VIRTIO_TRANSPORT_F_START; i < VIRTIO_TRANSPORT_F_END; i++) {
		switch (i) {
		case VIRTIO_RING_F_INDIRECT_DESC:
		case VIRTIO_RING_F_EVENT_IDX:
		case VIRTIO_F_VERSION_1:
		case VIRTIO_F_ACCESS_PLATFORM:
		case VIRTIO_F_RING_PACKED:
		case VIRTIO_F_IN_ORDER:
		case VIRTIO_F_ORDER_PLATFORM:
		case VIRTIO_F_NOTIFICATION_DATA:
		case VIRTIO_F_RING_RESET:
			break;
		default:
			__virtio_clear_bit(vdev, i);
		}
	}
}
EXPORT_SYMBOL_GPL(vring_transport_features);

/**
 * virtqueue_get_vring_size - the number of entries in the ring
 * @_vq: the queue
 *
 * Return: the ring size.
 */
unsigned int virtqueue_get_vring_size(const struct virtqueue *_vq)
{
	return vring_num(to_vvq(_vq));
}
EXPORT_SYMBOL_GPL(virtqueue_get_vring_size);

/**
 * __virtqueue_break - mark one queue broken (for the virtio core)
 * @_vq: the queue
 */
void __virtqueue_break(struct virtqueue *_vq)
{
	vring_set_broken(to_vvq(_vq), true);
}
EXPORT_SYMBOL_GPL(__virtqueue_break);

/**
 * __virtqueue_unbreak - clear one queue's broken mark (for the virtio core)
 * @_vq: the queue
 */
void __virtqueue_unbreak(struct virtqueue *_vq)
{
	vring_set_broken(to_vvq(_vq), false);
}
EXPORT_SYMBOL_GPL(__virtqueue_unbreak);

/**
 * virtqueue_is_broken - has the queue stopped working?
 * @_vq: the queue
 *
 * Return: true after a device error, virtio_break_device() or a failed
 * notify.
 */
bool virtqueue_is_broken(const struct virtqueue *_vq)
{
	return vring_broken(to_vvq(_vq));
}
EXPORT_SYMBOL_GPL(virtqueue_is_broken);

/**
 * virtio_break_device - mark every queue of a device broken
 * @dev: the device
 *
 * Drivers then see adds fail and no buffers come back, and can recover.
 */
void virtio_break_device(struct virtio_device *dev)
{
	struct virtqueue *_vq;

	spin_lock(&dev->vqs_list_lock);
	virtio_device_for_each_vq(dev, _vq)
		vring_set_broken(to_vvq(_vq), true);
	spin_unlock(&dev->vqs_list_lock);
}
EXPORT_SYMBOL_GPL(virtio_break_device);

/**
 * __virtio_unbreak_device - clear the broken mark of every queue of a
 *	device (for the virtio core, e.g. at probe or restore)
 * @dev: the device
 */
void __virtio_unbreak_device(struct virtio_device *dev)
{
	struct virtqueue *_vq;

	spin_lock(&dev->vqs_list_lock);
	virtio_device_for_each_vq(dev, _vq)
		vring_set_broken(to_vvq(_vq), false);
	spin_unlock(&dev->vqs_list_lock);
}
EXPORT_SYMBOL_GPL(__virtio_unbreak_device);

/**
 * virtqueue_get_desc_addr - where the device finds the descriptor area
 * @_vq: the queue
 *
 * Return: the device's address of the descriptor table (packed: ring):
 * for a ring this code allocated for a queue using the DMA API, the
 * coherent allocation's DMA address; else the physical address.
 */
dma_addr_t virtqueue_get_desc_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->packed_ring)
		return vring_ring_addr(vq->packed.queue, vq->packed.queue_dma,
				       vq->packed.vring.desc);
	return vring_ring_addr(vq->split.queue, vq->split.queue_dma,
			       vq->split.vring.desc);
}
EXPORT_SYMBOL_GPL(virtqueue_get_desc_addr);

/**
 * virtqueue_get_avail_addr - where the device finds the driver area
 * @_vq: the queue
 *
 * Return: the device's address (as virtqueue_get_desc_addr()) of the
 * available ring (packed: the driver event suppression structure).
 */
dma_addr_t virtqueue_get_avail_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->packed_ring)
		return vring_ring_addr(vq->packed.queue, vq->packed.queue_dma,
				       vq->packed.vring.driver);
	return vring_ring_addr(vq->split.queue, vq->split.queue_dma,
			       vq->split.vring.avail);
}
EXPORT_SYMBOL_GPL(virtqueue_get_avail_addr);

/**
 * virtqueue_get_used_addr - where the device finds the device area
 * @_vq: the queue
 *
 * Return: the device's address (as virtqueue_get_desc_addr()) of the used
 * ring (packed: the device event suppression structure).
 */
dma_addr_t virtqueue_get_used_addr(const struct virtqueue *_vq)
{
	const struct vring_virtqueue *vq = to_vvq(_vq);

	if (vq->packed_ring)
		return vring_ring_addr(vq->packed.queue, vq->packed.queue_dma,
				       vq->packed.vring.device);
	return vring_ring_addr(vq->split.queue, vq->split.queue_dma,
			       vq->split.vring.used);
}
EXPORT_SYMBOL_GPL(virtqueue_get_used_addr);

/**
 * virtqueue_get_vring - the split ring behind a queue
 * @vq: the queue
 *
 * Return: the ring's size and the addresses of its three parts; NULL for
 * a packed ring, which has no struct vring (use the virtqueue_get_*_addr()
 * functions and virtqueue_get_vring_size()).
 */
const struct vring *virtqueue_get_vring(const struct virtqueue *vq)
{
	if (to_vvq(vq)->packed_ring)
		return NULL;
	return &to_vvq(vq)->split.vring;
}
EXPORT_SYMBOL_GPL(virtqueue_get_vring);

/**
 * virtio_max_dma_size - the largest buffer segment the device can take
 * @vdev: the device
 *
 * Return: the DMA API's limit for a device using it, else SIZE_MAX.
 */
size_t virtio_max_dma_size(const struct virtio_device *vdev)
{
	if (vring_use_dma_api(vdev))
		return dma_max_mapping_size(vdev->dev.parent);
	return SIZE_MAX;
}
EXPORT_SYMBOL_GPL(virtio_max_dma_size);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Virtio ring: driver side");
