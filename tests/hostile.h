/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/hostile: what its three files share.  hostile.c holds the case
 * table, main() and what the ring code said while a case ran;
 * hostile_host.c the cases against the host side (vringh), hostile_guest.c
 * those against the guest side (virtio_ring).  Each case returns its exit
 * status (see hostile.c).
 */
#ifndef RIG_TESTS_HOSTILE_H
#define RIG_TESTS_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/vringh.h>

/* Entries of every ring a case makes. */
#define RING_SIZE	16

/* capture_begin(), capture_end(), said_why(): tests/said.h. */
#include "tests/said.h"

/* Host side (hostile_host.c): a ring the test writes as the guest. */
int host_head_out_of_range(void);
int host_next_out_of_range(void);
int host_desc_loop(void);
int host_chain_longer_than_ring(void);
int host_indirect_loop(void);
int host_nested_indirect(void);
int host_indirect_len_zero(void);
int host_indirect_len_odd(void);
int host_indirect_outside_range(void);
int host_readable_after_writable(void);
int host_addr_outside_range(void);
int host_addr_wraps(void);
int host_avail_idx_jump(void);
int host_ring_outside_window(void);
int host_bad_ring_size(void);
int host_head_last(void);
int host_next_last(void);
int host_avail_idx_full(void);
int host_chain_whole_ring(void);
int host_addr_ends_at_top(void);
int host_addr_ends_at_memory_end(void);
int host_indirect_next_out_of_range(void);
int host_indirect_next_last(void);
int host_complete_multi_too_many(void);
int host_complete_multi_whole_ring(void);
int spec_indirect_not_negotiated(void);
int spec_indirect_with_next(void);
int spec_chain_longer_than_queue(void);
int spec_table_longer_than_queue(void);
int spec_chain_over_4gib(void);
int spec_chain_as_long_as_queue(void);
int spec_table_as_long_as_queue(void);
int spec_chain_of_4gib(void);
int spec_avail_idx_back(void);
int spec_avail_flags(void);
int spec_avail_flags_event_idx(void);
int spec_ring_misaligned(void);
#ifdef vringh_init_packed_user
int host_packed_id_out_of_range(void);
int host_packed_id_in_use(void);
int host_packed_list_longer_than_ring(void);
int host_packed_list_overruns_held(void);
int host_packed_indirect_in_list(void);
int host_packed_indirect_with_next(void);
int host_packed_nested_indirect(void);
int host_packed_indirect_len_zero(void);
int host_packed_indirect_len_odd(void);
int host_packed_indirect_too_long(void);
int host_packed_indirect_outside_range(void);
int host_packed_wrap_confusion_head(void);
int host_packed_wrap_confusion_list(void);
int host_packed_readable_after_writable(void);
int host_packed_addr_outside_range(void);
int host_packed_addr_wraps(void);
int host_packed_ring_outside_window(void);
int host_packed_bad_ring_size(void);
int host_packed_complete_bad_id(void);
int host_packed_id_last(void);
int host_packed_list_whole_ring(void);
int host_packed_indirect_whole_ring(void);
int host_packed_complete_multi_bounds(void);
int host_packed_abandon_completed(void);
int host_packed_unexpected_direction(void);
int spec_packed_indirect_not_negotiated(void);
int spec_packed_table_flags(void);
int spec_packed_misaligned(void);
#endif
#ifdef vringh_complete_batch_user
int host_in_order_first_head(void);
int host_in_order_head_skips(void);
int host_in_order_next_skips(void);
int host_in_order_bad_batch(void);
int host_batch_without_in_order(void);
int host_packed_in_order_out_of_order(void);
int host_packed_in_order_id_reused(void);
int spec_in_order_table_unordered(void);
#endif

/* Guest side (hostile_guest.c): a real queue, a device that lies. */
int guest_id_out_of_range(void);
int guest_id_not_in_flight(void);
int guest_len_too_big(void);
int guest_used_idx_jump(void);
int guest_break_device(void);
int guest_len_whole_buffer(void);
int guest_used_idx_full(void);
int guest_packed_id_out_of_range(void);
int guest_packed_id_not_in_flight(void);
int guest_packed_len_too_big(void);
int guest_packed_len_whole_buffer(void);
int guest_packed_wrong_lap(void);
int guest_packed_device_flags_reserved(void);
int guest_in_order_batch_id_not_in_flight(void);
int guest_in_order_batch_too_long(void);
int guest_in_order_batch_id_used(void);
int guest_packed_in_order_batch_id_not_a_buffer(void);
int guest_packed_in_order_batch_id_used(void);
int spec_used_flags(void);
int spec_used_flags_event_idx(void);

#endif /* RIG_TESTS_HOSTILE_H */
