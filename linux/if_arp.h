/* SPDX-License-Identifier: GPL-2.0 */
/* ARP hardware types: vhost-net uses nothing of this header. */
#ifndef _LINUX_IF_ARP_H
#define _LINUX_IF_ARP_H
#endif /* _LINUX_IF_ARP_H */
