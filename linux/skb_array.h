/* SPDX-License-Identifier: GPL-2.0 */
/* Rings of sk_buffs: a ptr_ring whose entries are frames (linux/ptr_ring.h). */
#ifndef _LINUX_SKB_ARRAY_H
#define _LINUX_SKB_ARRAY_H

#include <linux/ptr_ring.h>
#include <linux/skbuff.h>
#include <linux/if_vlan.h>

/* The length of the frame @ptr (an sk_buff), counting a VLAN tag taken off. */
static inline int __skb_array_len_with_tag(void *ptr)
{
	struct sk_buff *skb = ptr;

	if (!skb)
		return 0;
	return skb->len + (skb_vlan_tag_present(skb) ? VLAN_HLEN : 0);
}

#endif /* _LINUX_SKB_ARRAY_H */
