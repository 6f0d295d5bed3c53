/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ring layouts fixed by the virtio specification (1.2, sections 2.7 and 2.8),
 * shared by the driver and the device side.  Field names and sizes follow the
 * Linux uapi header so that kernel ring code compiles against this file.
 */
#ifndef _UAPI_LINUX_VIRTIO_RING_H
#define _UAPI_LINUX_VIRTIO_RING_H

#include <linux/types.h>
#include <linux/virtio_types.h>

/* Descriptor flags, split and packed (2.7.5, 2.8.1). */
#define VRING_DESC_F_NEXT	1
#define VRING_DESC_F_WRITE	2
#define VRING_DESC_F_INDIRECT	4

/* Packed ring: bit numbers of the AVAIL and USED flags (2.8.1). */
#define VRING_PACKED_DESC_F_AVAIL	7
#define VRING_PACKED_DESC_F_USED	15

/* Split ring notification suppression without EVENT_IDX (2.7.7, 2.7.10). */
#define VRING_USED_F_NO_NOTIFY		1
#define VRING_AVAIL_F_NO_INTERRUPT	1

/* Packed ring event suppression (2.8.10). */
#define VRING_PACKED_EVENT_FLAG_ENABLE	0x0
#define VRING_PACKED_EVENT_FLAG_DISABLE	0x1
#define VRING_PACKED_EVENT_FLAG_DESC	0x2
#define VRING_PACKED_EVENT_F_WRAP_CTR	15

/* Feature bits that change the ring (chapter 6). */
#define VIRTIO_RING_F_INDIRECT_DESC	28
#define VIRTIO_RING_F_EVENT_IDX		29

/* Alignment of the three split ring parts (2.7, table). */
#define VRING_AVAIL_ALIGN_SIZE	2
#define VRING_USED_ALIGN_SIZE	4
#define VRING_DESC_ALIGN_SIZE	16

/* One split descriptor: 16 bytes (2.7.5). */
struct vring_desc {
	__virtio64 addr;
	__virtio32 len;
	__virtio16 flags;
	__virtio16 next;
};

/* Driver area: flags, idx, ring[num], then used_event with EVENT_IDX. */
struct vring_avail {
	__virtio16 flags;
	__virtio16 idx;
	__virtio16 ring[];
};

/* One used element: 8 bytes; id is 32 bits wide for alignment. */
struct vring_used_elem {
	__virtio32 id;
	__virtio32 len;
};

typedef struct vring_used_elem __attribute__((aligned(VRING_USED_ALIGN_SIZE)))
	vring_used_elem_t;

/* Device area: flags, idx, ring[num], then avail_event with EVENT_IDX. */
struct vring_used {
	__virtio16 flags;
	__virtio16 idx;
	vring_used_elem_t ring[];
};

typedef struct vring_desc __attribute__((aligned(VRING_DESC_ALIGN_SIZE)))
	vring_desc_t;
typedef struct vring_avail __attribute__((aligned(VRING_AVAIL_ALIGN_SIZE)))
	vring_avail_t;
typedef struct vring_used __attribute__((aligned(VRING_USED_ALIGN_SIZE)))
	vring_used_t;

/* The three parts of a split ring of num entries. */
struct vring {
	unsigned int num;
	vring_desc_t *desc;
	vring_avail_t *avail;
	vring_used_t *used;
};

#ifndef VIRTIO_RING_NO_LEGACY
/*
 * The legacy contiguous layout (2.7.2): descriptor table, available ring
 * (with used_event), padding up to @align, used ring (with avail_event).
 */
#define vring_used_event(vr)	((vr)->avail->ring[(vr)->num])
#define vring_avail_event(vr)	(*(__virtio16 *)&(vr)->used->ring[(vr)->num])

static inline void vring_init(struct vring *vr, unsigned int num, void *p,
			      unsigned long align)
{
	unsigned long used = (unsigned long)p + num * sizeof(struct vring_desc) +
			     sizeof(__virtio16) * (3 + num);

	vr->num = num;
	vr->desc = p;
	vr->avail = (void *)((char *)p + num * sizeof(struct vring_desc));
	vr->used = (void *)((used + align - 1) & ~(align - 1));
}

static inline unsigned int vring_size(unsigned int num, unsigned long align)
{
	unsigned long front = sizeof(struct vring_desc) * num +
			      sizeof(__virtio16) * (3 + num);

	return ((front + align - 1) & ~(align - 1)) +
	       sizeof(__virtio16) * 3 + sizeof(struct vring_used_elem) * num;
}
#endif /* VIRTIO_RING_NO_LEGACY */

/*
 * Event index test (appendix A): having moved our index from @old to
 * @new_idx, must we notify a peer that asked to hear about @event_idx?
 * True when event_idx lies in [old, new_idx), computed modulo 2^16.
 */
static inline int vring_need_event(__u16 event_idx, __u16 new_idx, __u16 old)
{
	return (__u16)(new_idx - event_idx - 1) < (__u16)(new_idx - old);
}

/* Packed ring event suppression structure (2.8.10). */
struct vring_packed_desc_event {
	__le16 off_wrap;
	__le16 flags;
};

/* Packed ring descriptor (2.8.13). */
struct vring_packed_desc {
	__le64 addr;
	__le32 len;
	__le16 id;
	__le16 flags;
};

/* Alignment of the packed ring parts (2.8.10.1): descriptors, events. */
#define VRING_PACKED_DESC_ALIGN_SIZE	16
#define VRING_PACKED_EVENT_ALIGN_SIZE	4

/*
 * The three parts of a packed ring of num entries (2.8.10): the descriptor
 * ring, the driver event suppression structure (driver area, written by
 * the driver) and the device event suppression structure (device area,
 * written by the device).
 */
struct vring_packed {
	unsigned int num;
	struct vring_packed_desc *desc;
	struct vring_packed_desc_event *driver;
	struct vring_packed_desc_event *device;
};

/*
 * A packed ring in one block (a layout of this rig's choosing; the
 * specification fixes only each part's alignment): the descriptor ring at
 * @p, which must be 16-byte aligned, then the driver event suppression
 * structure, then the device's.  Both follow at 4-byte aligned offsets.
 */
static inline void vring_packed_init(struct vring_packed *vr,
				     unsigned int num, void *p)
{
	vr->num = num;
	vr->desc = (struct vring_packed_desc *)p;
	vr->driver = (struct vring_packed_desc_event *)(vr->desc + num);
	vr->device = vr->driver + 1;
}

/* Bytes vring_packed_init() lays a ring of @num entries out on. */
static inline unsigned int vring_packed_size(unsigned int num)
{
	return sizeof(struct vring_packed_desc) * num +
	       sizeof(struct vring_packed_desc_event) * 2;
}

#endif /* _UAPI_LINUX_VIRTIO_RING_H */
