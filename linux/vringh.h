/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host (device) side ring accessor, Linux 6.12's vringh API.
 *
 * A struct vringh reads descriptors the guest made available and returns
 * them used.  The _user accessors reach ring and buffers through
 * get_user/copy_from_user and translate every guest address through a
 * getrange callback; the _kern accessors use plain pointers.
 */
#ifndef _LINUX_VRINGH_H
#define _LINUX_VRINGH_H

#include <uapi/linux/virtio_ring.h>
#include <linux/virtio_byteorder.h>
#include <linux/uio.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>

/**
 * struct vringh - the device's view of one ring, split or packed.
 * @little_endian: VERSION_1 ring (fields little endian); always set for
 *	a packed ring, which exists only in virtio 1.x
 * @event_indices: EVENT_IDX negotiated
 * @weak_barriers: the driver is another CPU, not hardware
 * @use_va: (IOTLB only) addresses are virtual
 * @last_avail_idx: split: next avail ring slot to read (free running);
 *	packed: offset in the descriptor ring of the next descriptor to read
 * @last_used_idx: split: next used ring slot to write, as of the last
 *	need_notify; packed: offset of the next used descriptor to write
 * @completed: split: buffers completed since the last need_notify;
 *	packed: ring positions the used offset moved by since then (at most
 *	twice the ring size: past that the count stops)
 * @vring: split: the ring (pointers may be "user" pointers); packed: only
 *	@vring.num is set, so that vring.num is the ring size in both layouts
 * @iotlb: (IOTLB only) translation table
 * @iotlb_lock: (IOTLB only) guards @iotlb
 * @notify: how to notify the guest of used buffers
 * @packed: the ring has the packed layout (vringh_init_packed_user() or
 *	vringh_init_packed_kern()); every entry point below dispatches on it
 * @avail_wrap_counter: (packed) the driver's wrap counter (virtio 2.8.1)
 *	for the descriptor at @last_avail_idx: it is available when its
 *	AVAIL flag equals this and its USED flag does not
 * @used_wrap_counter: (packed) the device's wrap counter for the used
 *	descriptor at @last_used_idx: written with AVAIL = USED = this
 * @vring_packed: (packed) the descriptor ring and the driver and device
 *	event suppression structures (pointers may be "user" pointers)
 * @packed_descs: (packed) per buffer id, how many ring descriptors the
 *	buffer took when it was taken, 0 while the id is not taken: what
 *	complete needs to skip the used offset past it (2.8.6)
 * @packed_taken: (packed) the ids in the order they were taken, a ring of
 *	vring.num entries, newest before @packed_take_idx: what abandon undoes
 * @packed_take_idx: (packed) where the next taken id goes in @packed_taken
 * @in_order: VIRTIO_F_IN_ORDER was negotiated (see "DOC: in-order rings")
 * @next_head: (split, in order) the descriptor where the next chain must
 *	start: where the last chain taken ended; VRINGH_HEAD_UNKNOWN after an
 *	abandon, until the next getdesc learns it from the avail ring again
 * @packed_use_idx: (packed, in order) where in @packed_taken the oldest
 *	buffer taken and not yet used is: buffers are used in the order taken
 *
 * A device that takes a packed buffer without vringh_getdesc_*() (reading
 * only the flags and the id of its descriptors, as vringh_test
 * --fast-vringh does) moves @last_avail_idx and @avail_wrap_counter past it
 * and sets @packed_descs[id] to its descriptor count; vringh_complete_*()
 * then returns it as usual.  vringh_abandon_*() cannot give such a buffer
 * back: it is not in @packed_taken.  With @in_order no such shortcut is
 * possible: the in-order checks and batches need getdesc's records.
 */
struct vringh {
	bool little_endian;
	bool event_indices;
	bool weak_barriers;
	bool use_va;
	u16 last_avail_idx;
	u16 last_used_idx;
	u32 completed;
	struct vring vring;
	struct vhost_iotlb *iotlb;
	spinlock_t *iotlb_lock;
	void (*notify)(struct vringh *vrh);

	/* The packed layout: not in Linux 6.12, whose vringh is split only. */
	bool packed;
	bool avail_wrap_counter;
	bool used_wrap_counter;
	struct vring_packed vring_packed;
	u32 *packed_descs;
	u16 *packed_taken;
	unsigned int packed_take_idx;

	/*
	 * VIRTIO_RING_F_INDIRECT_DESC was negotiated: Linux 6.12's vringh
	 * takes indirect tables whether it was or not.
	 */
	bool indirect;
	/*
	 * The avail index getdesc read last, which a driver never moves back
	 * (2.7.6.1): not in Linux 6.12's vringh.
	 */
	u16 avail_idx_seen;

	/* VIRTIO_F_IN_ORDER: not in Linux 6.12's vringh either. */
	bool in_order;
	u16 next_head;
	unsigned int packed_use_idx;
};

/* struct vringh.next_head when the next head is not known: never a head. */
#define VRINGH_HEAD_UNKNOWN	0xffff

struct virtio_device;
typedef void vrh_callback_t(struct virtio_device *, struct vringh *);

/**
 * struct vringh_config_ops - how a transport creates vringhs.
 * @find_vrhs: create @nhvrs vringhs
 * @del_vrhs: free them
 */
struct vringh_config_ops {
	int (*find_vrhs)(struct virtio_device *vdev, unsigned int nhvrs,
			 struct vringh *vrhs[], vrh_callback_t *callbacks[]);
	void (*del_vrhs)(struct virtio_device *vdev);
};

/**
 * struct vringh_range - guest addresses [start, end_incl] map to addr+offset.
 */
struct vringh_range {
	u64 start, end_incl;
	u64 offset;
};

/**
 * struct vringh_iov - a growable array of iovecs (user pointers).
 * @iov: the array
 * @consumed: bytes used up within iov[i]
 * @i: first iovec not wholly consumed
 * @used: iovecs filled in
 * @max_num: capacity, ORed with VRINGH_IOV_ALLOCATED if vringh allocated it
 */
struct vringh_iov {
	struct iovec *iov;
	size_t consumed;
	unsigned int i, used, max_num;
};

/**
 * struct vringh_kiov - as struct vringh_iov, with kernel pointers.
 */
struct vringh_kiov {
	struct kvec *iov;
	size_t consumed;
	unsigned int i, used, max_num;
};

/* Set in max_num when vringh owns (and must free) the iov array. */
#define VRINGH_IOV_ALLOCATED 0x8000000

/**
 * DOC: split and packed rings
 *
 * A vringh serves either layout.  Only setting it up differs:
 * vringh_init_user() and vringh_init_kern() for a split ring (virtio 2.7),
 * vringh_init_packed_user() and vringh_init_packed_kern() for a packed one
 * (2.8).  Every other entry point (getdesc, iov pull and push, complete,
 * complete_multi, abandon, notify_enable, notify_disable, need_notify) is
 * the same function for both, dispatching on &vringh.packed, with the same
 * return values; and vringh_cleanup() releases what a packed init
 * allocated.  What the entry points mean on a packed ring:
 *
 * - getdesc takes the next descriptor list in ring order, if the driver
 *   made it available in the current lap (AVAIL = the driver's wrap counter,
 *   USED = its inverse), and sets *head to the list's *buffer id*: the id
 *   field of its last descriptor (2.8.6).  A list is either direct
 *   descriptors chained with NEXT, or one lone INDIRECT descriptor whose
 *   table entries follow each other (2.8.7).
 * - complete(head = buffer id) writes one used descriptor at the device's
 *   used offset (id, len, flags AVAIL = USED = the device's wrap counter,
 *   WRITE if len > 0), then moves the used offset on by the number of
 *   descriptors that buffer took, whatever order buffers complete in: the
 *   driver skips by the same count, which it keeps per id (2.8.6, 2.8.12).
 *   complete_multi writes several, and marks the first used only after the
 *   others (2.8.9, 2.8.21).  The used_elem ids are buffer ids, little
 *   endian (cpu_to_vringh32() does that for a packed vringh).
 * - abandon(n) gives back the last n buffers taken, which must not have
 *   been completed.
 * - notify_enable and notify_disable write the device event suppression
 *   structure: ENABLE, or with EVENT_IDX, DESC at the next descriptor the
 *   device will read; DISABLE.  need_notify reads the driver's: DISABLE,
 *   ENABLE (notify if anything was completed since the last call) or, with
 *   EVENT_IDX, DESC: notify if the used offset passed the driver's
 *   off_wrap since the last call (positions compared modulo twice the ring
 *   size, the wrap counter telling the laps apart).
 *
 * A packed ring refuses what the split one refuses: a buffer id not below
 * the ring size or already taken and not completed; a list longer than
 * the ring, or longer than the descriptors the device does not hold
 * (-ELOOP, -EINVAL); INDIRECT together with NEXT or after a NEXT
 * descriptor, INDIRECT inside a table, a table of 0 bytes, of a size not
 * a multiple of 16 or of more entries than the ring (-EINVAL); a list
 * descriptor, or a first descriptor, whose AVAIL/USED flags do not fit the
 * lap (-EINVAL); addresses that getrange refuses or that wrap past 2^64
 * (-EINVAL); a device-readable buffer after a device-writable one
 * (-EINVAL); and a buffer in a direction the caller gave no iov for
 * (-EPROTO).  Each refusal prints one line saying what and where, and
 * leaves the ring where it was.
 */

/**
 * DOC: in-order rings
 *
 * With VIRTIO_F_IN_ORDER in the features given to init, the device uses
 * buffers in the order they were made available (virtio 6.2), and vringh
 * holds the driver to its side of that bargain too.
 *
 * Split ring: the driver uses descriptors in ring order, from offset 0 and
 * wrapping (2.7.5), a chain's descriptor at offset x chaining to x + 1, or
 * to 0 at the end of the table (2.7.5.2): each chain starts where the one
 * before it ended.  getdesc walks the chain from there (&vringh.next_head)
 * rather than from the head the avail ring names, so reading the chain no
 * longer waits for the avail ring entry.  It still reads avail->idx, which
 * alone says how many buffers are available; and it still reads the entry,
 * to check that it names that same head: a driver that broke ring order
 * would otherwise have the device serve a stale descriptor.  An entry that
 * names another head, or a chain whose next is not x + 1, is refused
 * (-EINVAL, with a message, the ring left where it was).  After an
 * abandon, the next getdesc takes its head from the avail ring, and the
 * chains after it are held to ring order from there.
 *
 * Packed ring: lists are taken in ring order anyway.  In order, complete
 * and complete_multi accept only the oldest buffers taken and not yet
 * used, in the order taken (-EINVAL otherwise, and nothing is written).
 *
 * Both layouts: vringh_complete_batch_user() and _kern() return the oldest
 * buffers with one used entry (2.7.9, 2.8.8).  need_notify then weighs
 * every position the used index moved over since its last call, batches
 * included: the driver may have asked to hear about a position in the
 * middle of a batch.
 */

/* Userspace-pointer rings. */
int vringh_init_user(struct vringh *vrh, u64 features,
		     unsigned int num, bool weak_barriers,
		     vring_desc_t __user *desc,
		     vring_avail_t __user *avail,
		     vring_used_t __user *used);

/**
 * vringh_init_packed_user - set up a vringh for a packed ring in user memory
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size: any from 1 to 32768 (2.8)
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor ring (user address)
 * @driver: the driver event suppression structure (user address), which
 *	the device only reads
 * @device: the device event suppression structure (user address), which
 *	the device writes
 *
 * VIRTIO_RING_F_EVENT_IDX in @features allows DESC event suppression in
 * both directions.  A packed ring is little endian: VIRTIO_F_VERSION_1 is
 * implied (the packed layout exists only in virtio 1.x).  The ring is
 * expected fresh (zeroed by the driver), with both wrap counters at 1.
 * The ring pointers are not checked here: every later access is.  Release
 * the vringh with vringh_cleanup().
 *
 * Return: 0, -EINVAL if @num is 0 or above 32768, or -ENOMEM if the
 * per-buffer state (6 bytes per ring entry) cannot be allocated.
 */
int vringh_init_packed_user(struct vringh *vrh, u64 features,
			    unsigned int num, bool weak_barriers,
			    struct vring_packed_desc __user *desc,
			    struct vring_packed_desc_event __user *driver,
			    struct vring_packed_desc_event __user *device);
/* Not in Linux: programs test "#ifdef vringh_init_packed_user". */
#define vringh_init_packed_user vringh_init_packed_user

static inline void vringh_iov_init(struct vringh_iov *iov,
				   struct iovec *iovec, unsigned int num)
{
	iov->used = 0;
	iov->i = 0;
	iov->consumed = 0;
	iov->max_num = num;
	iov->iov = iovec;
}

/*
 * Rewind to the start, so the same descriptors can be read again.  Only a
 * partly consumed iov[i] needs mending: when none is (empty or wholly
 * consumed iov), i may equal used and even the array's size.
 */
static inline void vringh_iov_reset(struct vringh_iov *iov)
{
	if (iov->consumed) {
		iov->iov[iov->i].iov_len += iov->consumed;
		iov->iov[iov->i].iov_base = (char *)iov->iov[iov->i].iov_base -
					    iov->consumed;
	}
	iov->consumed = 0;
	iov->i = 0;
}

static inline void vringh_iov_cleanup(struct vringh_iov *iov)
{
	if (iov->max_num & VRINGH_IOV_ALLOCATED)
		kfree(iov->iov);
	iov->max_num = 0;
	iov->used = 0;
	iov->i = 0;
	iov->consumed = 0;
	iov->iov = NULL;
}

int vringh_getdesc_user(struct vringh *vrh,
			struct vringh_iov *riov,
			struct vringh_iov *wiov,
			bool (*getrange)(struct vringh *vrh,
					 u64 addr, struct vringh_range *r),
			u16 *head);

ssize_t vringh_iov_pull_user(struct vringh_iov *riov, void *dst, size_t len);
ssize_t vringh_iov_push_user(struct vringh_iov *wiov,
			     const void *src, size_t len);

int vringh_complete_user(struct vringh *vrh, u16 head, u32 len);
int vringh_complete_multi_user(struct vringh *vrh,
			       const struct vring_used_elem used[],
			       unsigned int num_used);

/**
 * vringh_complete_batch_user - return a batch of buffers with one used entry
 * @vrh: the ring, VIRTIO_F_IN_ORDER negotiated
 * @last_head: the head vringh_getdesc_user() gave for the batch's last
 *	buffer (packed: its buffer id)
 * @len: how many bytes were written into that last buffer
 * @count: how many buffers the batch holds: the @count oldest taken and not
 *	yet used, @last_head's buffer the newest of them
 *
 * Split ring: writes the used element {@last_head, @len} in the used ring
 * slot of the batch's first buffer, then moves used->idx on by @count
 * (2.7.9).  Packed ring: writes one used descriptor (id @last_head, length
 * @len) over the batch's first descriptor, then moves the used offset past
 * every descriptor of the batch (2.8.8).  The driver takes each buffer of
 * the batch but the last as used completely, so the device must have
 * written all of their device-writable bytes (2.7.9: "assumed to have been
 * used (read or written) by the device completely").  Call
 * vringh_need_notify_user() afterwards, as after vringh_complete_user().
 *
 * A split vringh keeps no record of heads: it cannot tell whether
 * @last_head really is the head of the @count-th oldest buffer (the driver
 * can, and breaks its queue if not).  A packed one checks the id.
 *
 * Return: 0; -EINVAL, with nothing written, if VIRTIO_F_IN_ORDER was not
 * negotiated, @count is 0 or more than the buffers taken and not yet used,
 * @last_head is not below the ring size, or (packed) it is not the id of
 * the @count-th oldest buffer taken; -EFAULT if the ring cannot be
 * written.
 */
int vringh_complete_batch_user(struct vringh *vrh, u16 last_head, u32 len,
			       unsigned int count);
/* Not in Linux: programs test "#ifdef vringh_complete_batch_user". */
#define vringh_complete_batch_user vringh_complete_batch_user

/*
 * Linux 7.x removed vringh_abandon_user(), vringh_iov_pull_kern() and
 * vringh_iov_push_kern(): programs test RIG_..._ARGS, as for a tree's
 * header (kernel/ksrc-features.sh).
 */
void vringh_abandon_user(struct vringh *vrh, unsigned int num);
#define RIG_VRINGH_ABANDON_USER_ARGS 2

int vringh_need_notify_user(struct vringh *vrh);
bool vringh_notify_enable_user(struct vringh *vrh);
void vringh_notify_disable_user(struct vringh *vrh);

/* Kernel-pointer rings. */
int vringh_init_kern(struct vringh *vrh, u64 features,
		     unsigned int num, bool weak_barriers,
		     struct vring_desc *desc,
		     struct vring_avail *avail,
		     struct vring_used *used);

/**
 * vringh_init_packed_kern - set up a vringh for a packed ring in kernel memory
 * @vrh: the vringh to set up
 * @features: the negotiated feature bits
 * @num: the ring size: any from 1 to 32768
 * @weak_barriers: true if the guest is another CPU, not a device
 * @desc: the descriptor ring
 * @driver: the driver event suppression structure
 * @device: the device event suppression structure
 *
 * As vringh_init_packed_user(), for a ring whose descriptors hold kernel
 * pointers.  Release the vringh with vringh_cleanup().
 *
 * Return: 0, -EINVAL if @num is 0 or above 32768, or -ENOMEM.
 */
int vringh_init_packed_kern(struct vringh *vrh, u64 features,
			    unsigned int num, bool weak_barriers,
			    struct vring_packed_desc *desc,
			    struct vring_packed_desc_event *driver,
			    struct vring_packed_desc_event *device);

/**
 * vringh_cleanup - release what setting up a vringh allocated
 * @vrh: the vringh, split or packed
 *
 * A packed vringh keeps per-buffer state; a split one keeps none, so this
 * does nothing for it.  Safe to call twice.  Buffers still taken are
 * forgotten: call it once the ring is no longer served.
 */
void vringh_cleanup(struct vringh *vrh);

static inline void vringh_kiov_init(struct vringh_kiov *kiov,
				    struct kvec *kvec, unsigned int num)
{
	kiov->used = 0;
	kiov->i = 0;
	kiov->consumed = 0;
	kiov->max_num = num;
	kiov->iov = kvec;
}

static inline void vringh_kiov_reset(struct vringh_kiov *kiov)
{
	if (kiov->consumed) {	/* see vringh_iov_reset() */
		kiov->iov[kiov->i].iov_len += kiov->consumed;
		kiov->iov[kiov->i].iov_base = (char *)kiov->iov[kiov->i].iov_base -
					      kiov->consumed;
	}
	kiov->consumed = 0;
	kiov->i = 0;
}

static inline void vringh_kiov_cleanup(struct vringh_kiov *kiov)
{
	if (kiov->max_num & VRINGH_IOV_ALLOCATED)
		kfree(kiov->iov);
	kiov->max_num = 0;
	kiov->used = 0;
	kiov->i = 0;
	kiov->consumed = 0;
	kiov->iov = NULL;
}

static inline size_t vringh_kiov_length(struct vringh_kiov *kiov)
{
	size_t len = 0;
	unsigned int i;

	for (i = kiov->i; i < kiov->used; i++)
		len += kiov->iov[i].iov_len;
	return len;
}

void vringh_kiov_advance(struct vringh_kiov *kiov, size_t len);

int vringh_getdesc_kern(struct vringh *vrh,
			struct vringh_kiov *riov,
			struct vringh_kiov *wiov,
			u16 *head,
			gfp_t gfp);

ssize_t vringh_iov_pull_kern(struct vringh_kiov *riov, void *dst, size_t len);
ssize_t vringh_iov_push_kern(struct vringh_kiov *wiov,
			     const void *src, size_t len);
#define RIG_VRINGH_IOV_PULL_KERN_ARGS 3
#define RIG_VRINGH_IOV_PUSH_KERN_ARGS 3
void vringh_abandon_kern(struct vringh *vrh, unsigned int num);
int vringh_complete_kern(struct vringh *vrh, u16 head, u32 len);

/**
 * vringh_complete_batch_kern - return a batch of buffers with one used entry
 * @vrh: the ring, VIRTIO_F_IN_ORDER negotiated
 * @last_head: the head vringh_getdesc_kern() gave for the batch's last
 *	buffer (packed: its buffer id)
 * @len: how many bytes were written into that last buffer
 * @count: how many buffers the batch holds: the @count oldest taken and not
 *	yet used
 *
 * As vringh_complete_batch_user(), for a ring in kernel memory.
 *
 * Return: 0, or -EINVAL as vringh_complete_batch_user().
 */
int vringh_complete_batch_kern(struct vringh *vrh, u16 last_head, u32 len,
			       unsigned int count);
#define vringh_complete_batch_kern vringh_complete_batch_kern

bool vringh_notify_enable_kern(struct vringh *vrh);
void vringh_notify_disable_kern(struct vringh *vrh);

int vringh_need_notify_kern(struct vringh *vrh);

/*
 * Rings behind an IOTLB (Linux 6.12's CONFIG_VHOST_IOTLB accessors, always
 * here): ring and buffer addresses are I/O addresses, translated through a
 * struct vhost_iotlb (linux/vhost_iotlb.h) at every access.  The
 * vringh_kiov of vringh_getdesc_iotlb() holds I/O addresses: pull and push
 * only through the _iotlb calls.  Programs read RIG_VRINGH_INIT_IOTLB_ARGS
 * and RIG_VRINGH_INIT_IOTLB_VA_ARGS (kernel/ksrc-features.sh) to know
 * whether the header declares them.
 */
struct vhost_iotlb;

#define RIG_VRINGH_INIT_IOTLB_ARGS 7
#define RIG_VRINGH_INIT_IOTLB_VA_ARGS 7

void vringh_set_iotlb(struct vringh *vrh, struct vhost_iotlb *iotlb,
		      spinlock_t *iotlb_lock);

int vringh_init_iotlb(struct vringh *vrh, u64 features,
		      unsigned int num, bool weak_barriers,
		      struct vring_desc *desc,
		      struct vring_avail *avail,
		      struct vring_used *used);

int vringh_init_iotlb_va(struct vringh *vrh, u64 features,
			 unsigned int num, bool weak_barriers,
			 struct vring_desc *desc,
			 struct vring_avail *avail,
			 struct vring_used *used);

int vringh_getdesc_iotlb(struct vringh *vrh,
			 struct vringh_kiov *riov,
			 struct vringh_kiov *wiov,
			 u16 *head,
			 gfp_t gfp);

ssize_t vringh_iov_pull_iotlb(struct vringh *vrh,
			      struct vringh_kiov *riov,
			      void *dst, size_t len);
ssize_t vringh_iov_push_iotlb(struct vringh *vrh,
			      struct vringh_kiov *wiov,
			      const void *src, size_t len);

void vringh_abandon_iotlb(struct vringh *vrh, unsigned int num);

int vringh_complete_iotlb(struct vringh *vrh, u16 head, u32 len);

bool vringh_notify_enable_iotlb(struct vringh *vrh);
void vringh_notify_disable_iotlb(struct vringh *vrh);

int vringh_need_notify_iotlb(struct vringh *vrh);

static inline void vringh_notify(struct vringh *vrh)
{
	if (vrh->notify)
		vrh->notify(vrh);
}

static inline bool vringh_is_little_endian(const struct vringh *vrh)
{
	return vrh->little_endian || virtio_legacy_is_little_endian();
}

static inline u16 vringh16_to_cpu(const struct vringh *vrh, __virtio16 val)
{
	return __virtio16_to_cpu(vringh_is_little_endian(vrh), val);
}

static inline __virtio16 cpu_to_vringh16(const struct vringh *vrh, u16 val)
{
	return __cpu_to_virtio16(vringh_is_little_endian(vrh), val);
}

static inline u32 vringh32_to_cpu(const struct vringh *vrh, __virtio32 val)
{
	return __virtio32_to_cpu(vringh_is_little_endian(vrh), val);
}

static inline __virtio32 cpu_to_vringh32(const struct vringh *vrh, u32 val)
{
	return __cpu_to_virtio32(vringh_is_little_endian(vrh), val);
}

static inline u64 vringh64_to_cpu(const struct vringh *vrh, __virtio64 val)
{
	return __virtio64_to_cpu(vringh_is_little_endian(vrh), val);
}

static inline __virtio64 cpu_to_vringh64(const struct vringh *vrh, u64 val)
{
	return __cpu_to_virtio64(vringh_is_little_endian(vrh), val);
}

#endif /* _LINUX_VRINGH_H */
