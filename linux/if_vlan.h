/* SPDX-License-Identifier: GPL-2.0 */
/* 802.1Q: the tag a device may take off a frame and keep beside it. */
#ifndef _LINUX_IF_VLAN_H
#define _LINUX_IF_VLAN_H

#include <linux/skbuff.h>

#define VLAN_HLEN		4	/* the tag's bytes in a frame */

#define skb_vlan_tag_present(skb)	((skb)->vlan_present)

#endif /* _LINUX_IF_VLAN_H */
