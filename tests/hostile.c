// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile rings: one case per way a peer can break the rules.
 *
 * Host-side cases (hostile_host.c) build a ring by hand, as a malicious
 * guest would, and check that vringh refuses it with the right error and
 * a printed message.  Guest-side cases (hostile_guest.c) let a real driver
 * queue add a buffer, then scribble a bad used ring entry, and check that
 * the queue is marked broken with a message and returns nothing.  This
 * file holds the table of every case, in the order --list gives, and what
 * the ring code said while a case ran.
 *
 * Usage: hostile --list | hostile CASE | hostile -h
 * Exit 0 when the ring code handled the case, 1 when it did not, 2 for a
 * usage error, 77 when the ring code under test lacks what the case needs
 * (a SKIP: a packed vringh, VIRTIO_F_IN_ORDER), 78 when a kernel tree's
 * code did not detect what it is known not to (a TODO, struct
 * hostile_case.kernel_gap, shown by the CHECKF_GAP it is about; any other
 * check failing is a failure).  Every case runs, whichever code is linked.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/virtio.h>
#include <linux/virtio_ring.h>
#include <linux/vringh.h>

#include "harness/harness.h"
#include "tests/hostile.h"
#include "tests/said.h"

static const char help[] =
"Usage: hostile --list | hostile --gaps | hostile CASE\n"
"Run one hostile-ring case (--list names them all).  Exit 0: the ring code\n"
"handled it; 1: it did not; 2: usage error; 77: SKIP, the linked ring code\n"
"lacks what the case needs; 78: TODO, a kernel tree's code did not detect\n"
"what it is known not to (a pass then says the gap is gone).\n";

/*
 * A vringh without a packed ring or VIRTIO_F_IN_ORDER (a kernel tree's, as
 * linux/vringh.h says): the cases that need them are SKIPs (exit 77).
 */
#ifdef vringh_init_packed_user
#define PACKED_HOST_CASE(name, fn)	RIG_HOST_CASE(name, fn)
#else
static int no_packed_host(void)
{
	rig_require_packed_host(rig_case_name);
	return RIG_EXIT_FAIL;
}

#define PACKED_HOST_CASE(name, fn)	RIG_HOST_CASE(name, no_packed_host)
#endif

#ifdef vringh_complete_batch_user
#define IN_ORDER_HOST_CASE(name, fn)	RIG_HOST_CASE(name, fn)
#else
static int no_in_order_host(void)
{
	rig_require_in_order(rig_case_name, true);
	return RIG_EXIT_FAIL;
}

#define IN_ORDER_HOST_CASE(name, fn)	RIG_HOST_CASE(name, no_in_order_host)
#endif

/*
 * Linux 7.x's in-order driver takes a batch's last id on trust: it hands
 * back the buffers before it, as used in full, and breaks the queue only
 * on reaching a slot that holds no buffer (kernel/GAPS).
 */
#define IN_ORDER_ID_GAP \
	"the kernel's in-order virtio_ring returns the buffers before a batch's id without checking that the id is one in flight"

/*
 * A case's kernel_gap is what a kernel tree's code is known not to check:
 * the case runs, and fails as a TODO, or passes saying the gap is gone.
 */
static const struct rig_case cases[] = {
	RIG_HOST_CASE("host-head-out-of-range", host_head_out_of_range),
	RIG_HOST_CASE("host-next-out-of-range", host_next_out_of_range),
	RIG_HOST_CASE("host-desc-loop", host_desc_loop),
	RIG_HOST_CASE("host-chain-longer-than-ring", host_chain_longer_than_ring),
	RIG_HOST_CASE("host-indirect-loop", host_indirect_loop),
	RIG_HOST_CASE("host-nested-indirect", host_nested_indirect),
	RIG_HOST_CASE("host-indirect-len-zero", host_indirect_len_zero),
	RIG_HOST_CASE("host-indirect-len-odd", host_indirect_len_odd),
	RIG_HOST_CASE("host-indirect-outside-range", host_indirect_outside_range),
	RIG_HOST_CASE("host-readable-after-writable", host_readable_after_writable),
	RIG_HOST_CASE("host-addr-outside-range", host_addr_outside_range),
	RIG_HOST_CASE("host-addr-wraps", host_addr_wraps),
	RIG_HOST_CASE_GAP("host-avail-idx-jump", host_avail_idx_jump,
	                  "the kernel's vringh does not bound the avail index"),
	RIG_HOST_CASE("host-ring-outside-window", host_ring_outside_window),
	RIG_HOST_CASE("host-bad-ring-size", host_bad_ring_size),
	RIG_HOST_CASE("host-head-last", host_head_last),
	RIG_HOST_CASE("host-next-last", host_next_last),
	RIG_HOST_CASE("host-avail-idx-full", host_avail_idx_full),
	RIG_HOST_CASE("host-chain-whole-ring", host_chain_whole_ring),
	RIG_HOST_CASE("host-addr-ends-at-top", host_addr_ends_at_top),
	RIG_HOST_CASE("host-addr-ends-at-memory-end", host_addr_ends_at_memory_end),
	RIG_HOST_CASE("host-indirect-next-out-of-range", host_indirect_next_out_of_range),
	RIG_HOST_CASE("host-indirect-next-last", host_indirect_next_last),
	RIG_HOST_CASE_GAP("host-complete-multi-too-many", host_complete_multi_too_many,
	                  "the kernel's vringh does not bound complete_multi by the ring size"),
	RIG_HOST_CASE("host-complete-multi-whole-ring", host_complete_multi_whole_ring),
	RIG_CASE("guest-id-out-of-range", guest_id_out_of_range),
	RIG_CASE("guest-id-not-in-flight", guest_id_not_in_flight),
	RIG_CASE_GAP("guest-len-too-big", guest_len_too_big,
	             "the kernel's virtio_ring does not check used lengths"),
	RIG_CASE_GAP("guest-used-idx-jump", guest_used_idx_jump,
	             "the kernel's virtio_ring does not bound the used index"),
	RIG_CASE("guest-break-device", guest_break_device),
	RIG_CASE("guest-len-whole-buffer", guest_len_whole_buffer),
	RIG_CASE("guest-used-idx-full", guest_used_idx_full),
	PACKED_HOST_CASE("host-packed-id-out-of-range", host_packed_id_out_of_range),
	PACKED_HOST_CASE("host-packed-id-in-use", host_packed_id_in_use),
	PACKED_HOST_CASE("host-packed-list-longer-than-ring",
			 host_packed_list_longer_than_ring),
	PACKED_HOST_CASE("host-packed-list-overruns-held",
			 host_packed_list_overruns_held),
	PACKED_HOST_CASE("host-packed-indirect-in-list", host_packed_indirect_in_list),
	PACKED_HOST_CASE("host-packed-indirect-with-next",
			 host_packed_indirect_with_next),
	PACKED_HOST_CASE("host-packed-nested-indirect", host_packed_nested_indirect),
	PACKED_HOST_CASE("host-packed-indirect-len-zero",
			 host_packed_indirect_len_zero),
	PACKED_HOST_CASE("host-packed-indirect-len-odd", host_packed_indirect_len_odd),
	PACKED_HOST_CASE("host-packed-indirect-too-long",
			 host_packed_indirect_too_long),
	PACKED_HOST_CASE("host-packed-indirect-outside-range",
			 host_packed_indirect_outside_range),
	PACKED_HOST_CASE("host-packed-wrap-confusion-head",
			 host_packed_wrap_confusion_head),
	PACKED_HOST_CASE("host-packed-wrap-confusion-list",
			 host_packed_wrap_confusion_list),
	PACKED_HOST_CASE("host-packed-readable-after-writable",
			 host_packed_readable_after_writable),
	PACKED_HOST_CASE("host-packed-addr-outside-range",
			 host_packed_addr_outside_range),
	PACKED_HOST_CASE("host-packed-addr-wraps", host_packed_addr_wraps),
	PACKED_HOST_CASE("host-packed-ring-outside-window",
			 host_packed_ring_outside_window),
	PACKED_HOST_CASE("host-packed-bad-ring-size", host_packed_bad_ring_size),
	PACKED_HOST_CASE("host-packed-complete-bad-id", host_packed_complete_bad_id),
	PACKED_HOST_CASE("host-packed-id-last", host_packed_id_last),
	PACKED_HOST_CASE("host-packed-list-whole-ring", host_packed_list_whole_ring),
	PACKED_HOST_CASE("host-packed-indirect-whole-ring",
			 host_packed_indirect_whole_ring),
	PACKED_HOST_CASE("host-packed-complete-multi-bounds",
			 host_packed_complete_multi_bounds),
	PACKED_HOST_CASE("host-packed-abandon-completed",
			 host_packed_abandon_completed),
	PACKED_HOST_CASE("host-packed-unexpected-direction",
			 host_packed_unexpected_direction),
	RIG_CASE("guest-packed-id-out-of-range", guest_packed_id_out_of_range),
	RIG_CASE("guest-packed-id-not-in-flight", guest_packed_id_not_in_flight),
	RIG_CASE_GAP("guest-packed-len-too-big", guest_packed_len_too_big,
	             "the kernel's virtio_ring does not check used lengths"),
	RIG_CASE("guest-packed-len-whole-buffer", guest_packed_len_whole_buffer),
	RIG_CASE_GAP("guest-packed-wrong-lap", guest_packed_wrong_lap,
	             "the kernel's virtio_ring waits for a descriptor used in the wrong lap"),
	RIG_CASE_GAP("guest-packed-device-flags-reserved", guest_packed_device_flags_reserved,
	             "the kernel's virtio_ring kicks on reserved device event flags"),
	IN_ORDER_HOST_CASE("host-in-order-first-head", host_in_order_first_head),
	IN_ORDER_HOST_CASE("host-in-order-head-skips", host_in_order_head_skips),
	IN_ORDER_HOST_CASE("host-in-order-next-skips", host_in_order_next_skips),
	IN_ORDER_HOST_CASE("host-in-order-bad-batch", host_in_order_bad_batch),
	IN_ORDER_HOST_CASE("host-batch-without-in-order",
			   host_batch_without_in_order),
	IN_ORDER_HOST_CASE("host-packed-in-order-out-of-order",
			   host_packed_in_order_out_of_order),
	IN_ORDER_HOST_CASE("host-packed-in-order-id-reused",
			   host_packed_in_order_id_reused),
	RIG_CASE_GAP("guest-in-order-batch-id-not-in-flight",
		     guest_in_order_batch_id_not_in_flight, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-in-order-batch-too-long",
		     guest_in_order_batch_too_long,
		     "the kernel's in-order virtio_ring does not check a batch against the used index"),
	RIG_CASE_GAP("guest-in-order-batch-id-used",
		     guest_in_order_batch_id_used, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-packed-in-order-batch-id-not-a-buffer",
		     guest_packed_in_order_batch_id_not_a_buffer, IN_ORDER_ID_GAP),
	RIG_CASE_GAP("guest-packed-in-order-batch-id-used",
		     guest_packed_in_order_batch_id_used, IN_ORDER_ID_GAP),
	RIG_HOST_CASE_GAP("spec-indirect-not-negotiated", spec_indirect_not_negotiated,
			  "the kernel's vringh takes indirect tables whether or not VIRTIO_RING_F_INDIRECT_DESC was negotiated"),
	RIG_HOST_CASE_GAP("spec-indirect-with-next", spec_indirect_with_next,
			  "the kernel's vringh follows NEXT after an indirect table"),
	RIG_HOST_CASE_GAP("spec-chain-longer-than-queue", spec_chain_longer_than_queue,
			  "the kernel's vringh bounds an indirect table by its own length, not the queue size"),
	RIG_HOST_CASE_GAP("spec-table-longer-than-queue", spec_table_longer_than_queue,
			  "the kernel's vringh bounds an indirect table by its own length, not the queue size"),
	RIG_HOST_CASE_GAP("spec-chain-over-4gib", spec_chain_over_4gib,
			  "the kernel's vringh does not bound a chain's bytes"),
	RIG_HOST_CASE("spec-chain-as-long-as-queue", spec_chain_as_long_as_queue),
	RIG_HOST_CASE("spec-table-as-long-as-queue", spec_table_as_long_as_queue),
	RIG_HOST_CASE("spec-chain-of-4gib", spec_chain_of_4gib),
	RIG_HOST_CASE_GAP("spec-avail-idx-back", spec_avail_idx_back,
			  "the kernel's vringh does not remember the avail index it read"),
	RIG_HOST_CASE_GAP("spec-avail-flags", spec_avail_flags,
			  "the kernel's vringh reads only the NO_INTERRUPT bit"),
	RIG_HOST_CASE_GAP("spec-avail-flags-event-idx", spec_avail_flags_event_idx,
			  "the kernel's vringh does not read the avail flags with VIRTIO_RING_F_EVENT_IDX"),
	RIG_HOST_CASE_GAP("spec-ring-misaligned", spec_ring_misaligned,
			  "the kernel's vringh does not check the ring's alignment"),
	PACKED_HOST_CASE("spec-packed-indirect-not-negotiated",
			 spec_packed_indirect_not_negotiated),
	PACKED_HOST_CASE("spec-packed-table-flags", spec_packed_table_flags),
	PACKED_HOST_CASE("spec-packed-misaligned", spec_packed_misaligned),
	IN_ORDER_HOST_CASE("spec-in-order-table-unordered",
			   spec_in_order_table_unordered),
	RIG_CASE_GAP("spec-used-flags", spec_used_flags,
		     "the kernel's virtio_ring reads only the NO_NOTIFY bit"),
	RIG_CASE_GAP("spec-used-flags-event-idx", spec_used_flags_event_idx,
		     "the kernel's virtio_ring does not read the used flags with VIRTIO_RING_F_EVENT_IDX"),
};

RIG_CASE_MAIN(cases, help)
