/* SPDX-License-Identifier: GPL-2.0 */
/* macvlan devices: none here, and vhost-net uses nothing of this header. */
#ifndef _LINUX_IF_MACVLAN_H
#define _LINUX_IF_MACVLAN_H
#endif /* _LINUX_IF_MACVLAN_H */
